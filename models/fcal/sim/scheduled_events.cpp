#include "fcal/sim/scheduled_events.hpp"

#include <algorithm>
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

std::string to_string(FailureKind kind) { return kind == FailureKind::Port ? "port" : "drive"; }

std::string to_string(DiskState state)
{
    switch (state) {
    case DiskState::Present: return "present";
    case DiskState::Bypassed: return "bypassed";
    case DiskState::Removed: return "removed";
    case DiskState::Failed: return "failed";
    }
    throw std::logic_error("unknown disk state");
}

bool disk_event(EventKind kind)
{
    return kind == EventKind::Remove || kind == EventKind::Insert || kind == EventKind::Fail || kind == EventKind::Bypass ||
           kind == EventKind::Enable;
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
                                 unsigned loop_count, double bypass_detect_s)
{
    for (const auto& [n, k] : keys) {
        const std::string key = "event." + std::to_string(n) + ".";
        if (!k.at_s) throw std::invalid_argument(key + "at_ms: missing (every event needs its time)");
        if (!k.kind) throw std::invalid_argument(key + "kind: missing (every event needs its kind)");
        if (*k.at_s >= time_limit_s) {
            std::ostringstream why;
            why << key << "at_ms: " << *k.at_s * 1e3 << " ms is not before the end of the run (sim.time_limit_s = " << time_limit_s << " s)";
            throw std::invalid_argument(why.str());
        }
        if (k.failure && *k.kind != EventKind::Fail)
            throw std::invalid_argument(key + "failure: only a fail event has a failure kind (this one is " + to_string(*k.kind) + ")");
        if (loop_kind(*k.kind)) {
            events_.push_back({n, *k.at_s, *k.kind, std::nullopt, checked_loop(key, k, loop_count)});
            continue;
        }
        if (disk_event(*k.kind) && k.loop)
            throw std::invalid_argument(key + "loop: a " + to_string(*k.kind) +
                                        " event acts on the disk's port on every loop (it names no loop)");
        // A LIP acts on loop 0 unless it names its loop.
        const unsigned loop = *k.kind == EventKind::Lip && k.loop ? checked_loop(key, k, loop_count) : 0;
        if (*k.kind == EventKind::Lip && !k.disk) {
            // The controller's port sends the LIP.
            events_.push_back({n, *k.at_s, *k.kind, std::nullopt, loop});
            continue;
        }
        if (!k.disk) throw std::invalid_argument(key + "disk: missing (a " + to_string(*k.kind) + " event names its disk)");
        if (*k.disk < 0 || *k.disk >= static_cast<std::int64_t>(disk_count))
            throw std::invalid_argument(key + "disk: disk " + std::to_string(*k.disk) + " does not exist (disk.count = " +
                                        std::to_string(disk_count) + ", disks 0.." + std::to_string(disk_count - 1) + ")");
        events_.push_back({n, *k.at_s, *k.kind, static_cast<unsigned>(*k.disk), loop, k.failure.value_or(FailureKind::Drive)});
    }
    std::stable_sort(events_.begin(), events_.end(), [](const ScheduledEvent& a, const ScheduledEvent& b) { return a.at_s < b.at_s; });
    check_loop_states(events_);
    check_disk_states(events_, disk_count, bypass_detect_s);
}

// Each disk's state through the events, in the order they fire (docs/faults.md, "Scheduled events"):
// an event finds its disk in the one state it can act on.
void ScheduledEvents::check_disk_states(const std::vector<ScheduledEvent>& by_time, unsigned disk_count, double bypass_detect_s) const
{
    std::vector<double> removed_at(disk_count, 0);
    std::vector<DiskState> state(disk_count, DiskState::Present);
    std::vector<bool> port_on_loop(disk_count, true);  // a failed drive's port stays on the loop
    for (const ScheduledEvent& e : by_time) {
        if (!e.disk) continue;
        const unsigned d = *e.disk;
        const std::string key = "event." + std::to_string(e.index) + ".disk: ";
        const std::string disk = "disk " + std::to_string(d);
        if (e.kind == EventKind::Lip) {
            if (!port_on_loop[d])
                throw std::invalid_argument(key + "lip from " + disk + ", whose port is off the loop at that time (" + disk + " is " +
                                            to_string(state[d]) + ")");
            continue;
        }
        DiskState needed = DiskState::Present, next = DiskState::Present;
        std::string only;
        switch (e.kind) {
        case EventKind::Remove: next = DiskState::Removed; only = "only a present or failed disk can be removed"; break;
        case EventKind::Fail: next = DiskState::Failed; only = "only a present disk can fail; a failed disk stays failed"; break;
        case EventKind::Bypass: next = DiskState::Bypassed; only = "only a present disk can be bypassed"; break;
        case EventKind::Insert: needed = DiskState::Removed; only = "only a removed disk can be inserted"; break;
        case EventKind::Enable: needed = DiskState::Bypassed; only = "only a bypassed disk can be enabled"; break;
        default: throw std::logic_error("not a disk event");
        }
        // A failed disk is pulled out to be replaced.
        const bool failed_out = e.kind == EventKind::Remove && state[d] == DiskState::Failed;
        if (state[d] != needed && !failed_out)
            throw std::invalid_argument(key + to_string(e.kind) + " of " + disk + ", which is " + to_string(state[d]) + " at that time (" +
                                        only + ")");
        if (e.kind == EventKind::Insert && !(e.at_s > removed_at[d] + bypass_detect_s)) {
            std::ostringstream why;
            why << "event." << e.index << ".at_ms: insert of " << disk << " at " << e.at_s * 1e3 << " ms, before its slot is empty: it was removed at "
                << removed_at[d] * 1e3 << " ms and the enclosure closes the bypass of the empty slot loop.bypass_detect_us = " << bypass_detect_s * 1e6
                << " us later";
            throw std::invalid_argument(why.str());
        }
        if (e.kind == EventKind::Remove) removed_at[d] = e.at_s;
        state[d] = next;
        port_on_loop[d] = next == DiskState::Present || (next == DiskState::Failed && e.failure == FailureKind::Drive);
    }
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
