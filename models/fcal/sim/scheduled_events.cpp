#include "fcal/sim/scheduled_events.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace fcal::sim {

std::string to_string(EventKind kind)
{
    switch (kind) {
    case EventKind::Lip: return "lip";
    case EventKind::Remove: return "remove";
    case EventKind::Insert: return "insert";
    case EventKind::Fail: return "fail";
    case EventKind::Bypass: return "bypass";
    case EventKind::Enable: return "enable";
    case EventKind::LoopFail: return "loop_fail";
    case EventKind::LoopRestore: return "loop_restore";
    }
    throw std::logic_error("unknown event kind");
}

namespace {

bool loop_kind(EventKind kind) { return kind == EventKind::LoopFail || kind == EventKind::LoopRestore; }

// A loop event's loop (docs/faults.md, "Loop failure").
unsigned checked_loop(const std::string& key, const EventKeys& k, unsigned loop_count)
{
    if (!k.loop) throw std::invalid_argument(key + "loop: missing (a " + to_string(*k.kind) + " event names its loop)");
    if (*k.loop < 0 || *k.loop >= static_cast<std::int64_t>(loop_count))
        throw std::invalid_argument(key + "loop: loop " + std::to_string(*k.loop) + " does not exist (loop.count = " +
                                    std::to_string(loop_count) + ", loops 0.." + std::to_string(loop_count - 1) + ")");
    if (*k.kind == EventKind::LoopFail && loop_count < 2)
        throw std::invalid_argument(key + "kind: loop_fail needs loop.count=2 (with one loop it would leave the disks no path)");
    return static_cast<unsigned>(*k.loop);
}

}  // namespace

ScheduledEvents::ScheduledEvents(const std::map<unsigned, EventKeys>& keys, unsigned disk_count, double time_limit_s,
                                 unsigned loop_count)
{
    std::set<unsigned> failed;
    for (const auto& [n, k] : keys) {
        const std::string key = "event." + std::to_string(n) + ".";
        if (!k.at_s) throw std::invalid_argument(key + "at_ms: missing (every event needs its time)");
        if (!k.kind) throw std::invalid_argument(key + "kind: missing (every event needs its kind)");
        if (*k.at_s >= time_limit_s) {
            std::ostringstream why;
            why << key << "at_ms: " << *k.at_s * 1e3 << " ms is not before the end of the run (sim.time_limit_s = " << time_limit_s << " s)";
            throw std::invalid_argument(why.str());
        }
        if (loop_kind(*k.kind)) {
            events_.push_back({n, *k.at_s, *k.kind, std::nullopt, checked_loop(key, k, loop_count)});
            continue;
        }
        // Hot plug and bypass need port bypass circuits in the running loop, not modelled yet.
        if (*k.kind != EventKind::Fail && *k.kind != EventKind::Lip)
            throw std::invalid_argument(key + "kind: " + to_string(*k.kind) +
                                        " is not modelled yet (docs/faults.md, \"Scheduled events\"); only fail, lip, loop_fail and loop_restore are");
        // A LIP acts on loop 0 unless it names its loop.
        const unsigned loop = *k.kind == EventKind::Lip && k.loop ? checked_loop(key, k, loop_count) : 0;
        if (*k.kind == EventKind::Lip && !k.disk) {
            // The controller's port sends the LIP.
            events_.push_back({n, *k.at_s, *k.kind, std::nullopt, loop});
            continue;
        }
        if (!k.disk) throw std::invalid_argument(key + "disk: missing (a fail event names its disk)");
        if (*k.disk < 0 || *k.disk >= static_cast<std::int64_t>(disk_count))
            throw std::invalid_argument(key + "disk: disk " + std::to_string(*k.disk) + " does not exist (disk.count = " +
                                        std::to_string(disk_count) + ", disks 0.." + std::to_string(disk_count - 1) + ")");
        const auto disk = static_cast<unsigned>(*k.disk);
        if (*k.kind == EventKind::Fail && !failed.insert(disk).second)
            throw std::invalid_argument(key + "disk: disk " + std::to_string(disk) + " fails twice (a failed drive stays failed)");
        events_.push_back({n, *k.at_s, *k.kind, disk, loop});
    }
    std::stable_sort(events_.begin(), events_.end(), [](const ScheduledEvent& a, const ScheduledEvent& b) { return a.at_s < b.at_s; });
    check_loop_states(events_);
}

// The loops' states through the events, in the order they fire: one loop at least stays up.
void ScheduledEvents::check_loop_states(const std::vector<ScheduledEvent>& by_time) const
{
    std::vector<bool> up(2, true);
    for (const ScheduledEvent& e : by_time) {
        if (!loop_kind(e.kind)) continue;
        const std::string key = "event." + std::to_string(e.index) + ".";
        const std::string loop = "loop " + std::to_string(e.loop);
        if (e.kind == EventKind::LoopRestore) {
            if (up[e.loop]) throw std::invalid_argument(key + "kind: loop_restore of " + loop + ", which is up at that time");
            up[e.loop] = true;
            continue;
        }
        if (!up[e.loop]) throw std::invalid_argument(key + "kind: loop_fail of " + loop + ", which is already down at that time");
        if (!up[1 - e.loop])
            throw std::invalid_argument(key + "kind: loop_fail of " + loop + " while loop " + std::to_string(1 - e.loop) +
                                        " is down: no path would be left (not modelled)");
        up[e.loop] = false;
    }
}

}  // namespace fcal::sim
