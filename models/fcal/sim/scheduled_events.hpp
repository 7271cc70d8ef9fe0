#pragma once
// The scheduled events of a run (docs/faults.md, "Scheduled events"), from the keys event.<n>.*,
// validated against the system, the run and each disk's state over time, in time order. The
// simulator fires them (sim/event_dispatcher.hpp); this class only holds them. No SystemC.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fcal::sim {

enum class EventKind { Lip, Remove, Insert, Fail, Bypass, Enable, LoopFail, LoopRestore };

std::string to_string(EventKind kind);  // "lip", "remove", ...

// What a fail event breaks: the drive behind a port that stays on the loop, or the port itself (and
// the drive with it).
enum class FailureKind { Drive, Port };
std::string to_string(FailureKind kind);  // "drive", "port"

// A disk's state as the events leave it (results: disks[d].state).
enum class DiskState { Present, Bypassed, Removed, Failed };
std::string to_string(DiskState state);  // "present", "bypassed", "removed", "failed"

// One event's keys as given (event.<n>.*), in SI units; each unset unless given.
struct EventKeys {
    std::optional<double> at_s;
    std::optional<EventKind> kind;
    std::optional<std::int64_t> disk;
    std::optional<std::int64_t> loop;  // loop_fail, loop_restore; lip (loop 0 if not given)
    std::optional<FailureKind> failure;  // fail only (drive if not given)
};

struct ScheduledEvent {
    unsigned index = 0;  // n of event.<n>.*
    double at_s = 0;
    EventKind kind{};
    std::optional<unsigned> disk;  // a disk event's disk; lip: the port that sends it (none: the controller's)
    unsigned loop = 0;             // loop_fail, loop_restore, lip
    FailureKind failure = FailureKind::Drive;  // fail
};

// The events that act on one disk (on its port on every loop, or on its drive).
bool disk_event(EventKind kind);

class ScheduledEvents {
public:
    ScheduledEvents() = default;
    // Throws std::invalid_argument, one line naming the key at fault, for an event without a time or a
    // kind, at or beyond the run's time limit, without a disk (but lip, which is the controller's
    // then) or naming one that does not exist, a disk event naming a loop (it acts on every loop), a
    // failure kind on an event that is not a fail; by the disks' states in time order: a remove,
    // fail or bypass of a disk not present (a failed disk may be removed), an insert of a disk not removed, an enable of a disk not
    // bypassed, an insert too soon after its remove, a lip from a disk whose port is off the loop; for a loop_fail or loop_restore without
    // a loop or naming one that does not exist, a loop_fail with one loop (it would leave no path),
    // of a loop already down or while the other is down, and a loop_restore of a loop that is up.
    // An insert needs its slot empty: strictly later than `bypass_detect_s` (loop.bypass_detect_us) after
    // the remove, when the enclosure has closed the bypass of the slot.
    ScheduledEvents(const std::map<unsigned, EventKeys>& keys, unsigned disk_count, double time_limit_s, unsigned loop_count = 1,
                    double bypass_detect_s = 0);

    // By time; events at the same time in the order of their n.
    const std::vector<ScheduledEvent>& events() const { return events_; }
    bool empty() const { return events_.empty(); }

private:
    void check_loop_states(const std::vector<ScheduledEvent>& by_time) const;
    void check_disk_states(const std::vector<ScheduledEvent>& by_time, unsigned disk_count, double bypass_detect_s) const;
    std::vector<ScheduledEvent> events_;
};

}  // namespace fcal::sim
