#pragma once
// Which loop (path) the device driver sends an I/O on (docs/host.md, "Dual loops and multipath"),
// chosen when the I/O goes to an HBA; all frames of the I/O then stay on that loop. SystemC-free.
//
// - failover: the lowest-numbered path that is up, always (loop 0 while it works); when it has no
//   room, the I/O waits, even if another path has room.
// - round_robin: the paths in turn, skipping those down or without room.
// - least_queue: the path up and with room with the fewest I/Os outstanding (the lowest-numbered on a tie).
// No path qualifying: the I/O waits in the driver until one does.
#include <cstddef>
#include <optional>
#include <vector>

namespace fcal::host {

enum class Multipath { Failover, RoundRobin, LeastQueue };
const char* to_string(Multipath policy);  // "failover", "round_robin", "least_queue"

struct PathState {
    bool up = true;
    std::size_t outstanding = 0;  // I/Os in its HBA
    bool room = true;             // its HBA takes one more
};

class PathSelector {
public:
    explicit PathSelector(Multipath policy = Multipath::Failover) : policy_(policy) {}

    // The path for the next I/O, or none (it waits). Round robin moves on only when a path is chosen.
    std::optional<std::size_t> choose(const std::vector<PathState>& paths);
    Multipath policy() const { return policy_; }

private:
    Multipath policy_;
    std::size_t next_ = 0;  // round robin: the path to try first
};

}  // namespace fcal::host
