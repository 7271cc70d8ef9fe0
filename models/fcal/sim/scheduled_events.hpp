#pragma once
// The scheduled events of a run (docs/faults.md, "Scheduled events"), from the keys event.<n>.at_ms,
// event.<n>.kind and event.<n>.disk, validated against the system and the run, in time order. The
// simulator fires them (sim/storage_system.hpp); this class only holds them. No SystemC.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fcal::sim {

enum class EventKind { Lip, Remove, Insert, Fail, Bypass, Enable, LoopFail, LoopRestore };

std::string to_string(EventKind kind);  // "lip", "remove", ...

// One event's keys as given (event.<n>.*), in SI units; each unset unless given.
struct EventKeys {
    std::optional<double> at_s;
    std::optional<EventKind> kind;
    std::optional<std::int64_t> disk;
    std::optional<std::int64_t> loop;  // loop_fail, loop_restore; lip (loop 0 if not given)
};

struct ScheduledEvent {
    unsigned index = 0;  // n of event.<n>.*
    double at_s = 0;
    EventKind kind{};
    std::optional<unsigned> disk;  // fail: the disk; lip: the port that sends it (none: the controller's)
    unsigned loop = 0;             // loop_fail, loop_restore
};

class ScheduledEvents {
public:
    ScheduledEvents() = default;
    // Throws std::invalid_argument, one line naming the key at fault, for an event without a time or a
    // kind, at or beyond the run's time limit, of a kind not modelled yet, without a disk (but lip,
    // which is the controller's then) or naming one that does not exist, or failing a disk already
    // failed; for a loop_fail or loop_restore without a loop or naming one that does not exist, a
    // loop_fail with one loop (it would leave no path), of a loop already down or while the other is
    // down, and a loop_restore of a loop that is up.
    ScheduledEvents(const std::map<unsigned, EventKeys>& keys, unsigned disk_count, double time_limit_s, unsigned loop_count = 1);

    // By time; events at the same time in the order of their n.
    const std::vector<ScheduledEvent>& events() const { return events_; }
    bool empty() const { return events_.empty(); }

private:
    void check_loop_states(const std::vector<ScheduledEvent>& by_time) const;
    std::vector<ScheduledEvent> events_;
};

}  // namespace fcal::sim
