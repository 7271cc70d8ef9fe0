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
    }
    throw std::logic_error("unknown event kind");
}

ScheduledEvents::ScheduledEvents(const std::map<unsigned, EventKeys>& keys, unsigned disk_count, double time_limit_s)
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
        // Hot plug and bypass need port bypass circuits in the running loop, not modelled yet.
        if (*k.kind != EventKind::Fail && *k.kind != EventKind::Lip)
            throw std::invalid_argument(key + "kind: " + to_string(*k.kind) +
                                        " is not modelled yet (docs/faults.md, \"Scheduled events\"); only fail and lip are");
        if (*k.kind == EventKind::Lip && !k.disk) {
            // The controller's port sends the LIP.
            events_.push_back({n, *k.at_s, *k.kind, std::nullopt});
            continue;
        }
        if (!k.disk) throw std::invalid_argument(key + "disk: missing (a fail event names its disk)");
        if (*k.disk < 0 || *k.disk >= static_cast<std::int64_t>(disk_count))
            throw std::invalid_argument(key + "disk: disk " + std::to_string(*k.disk) + " does not exist (disk.count = " +
                                        std::to_string(disk_count) + ", disks 0.." + std::to_string(disk_count - 1) + ")");
        const auto disk = static_cast<unsigned>(*k.disk);
        if (*k.kind == EventKind::Fail && !failed.insert(disk).second)
            throw std::invalid_argument(key + "disk: disk " + std::to_string(disk) + " fails twice (a failed drive stays failed)");
        events_.push_back({n, *k.at_s, *k.kind, disk});
    }
    std::stable_sort(events_.begin(), events_.end(), [](const ScheduledEvent& a, const ScheduledEvent& b) { return a.at_s < b.at_s; });
}

}  // namespace fcal::sim
