#pragma once
// Applies scheduled events to the system (docs/faults.md, "Scheduled events", "Loop failure"), one at a
// time at its time (StorageSystem::run_events calls fire()), and keeps what they leave: each loop up or
// down, each disk's state. The events come validated (sim/scheduled_events.hpp), so each finds its disk
// or loop in a state it can act on.
#include <cstddef>
#include <string>
#include <vector>

#include "fcal/sim/scheduled_events.hpp"

namespace fcal::sim {

class StorageSystem;

class EventDispatcher {
public:
    // After the system's parts are built.
    explicit EventDispatcher(StorageSystem& system);

    void fire(const ScheduledEvent& event);

    DiskState disk_state(unsigned disk) const { return disk_states_.at(disk); }
    bool loop_up(std::size_t loop) const { return loop_up_.at(loop); }

private:
    void set_loop(unsigned loop, bool up);
    void lip(const ScheduledEvent& e);
    void drive_fails(unsigned disk);
    void disk_leaves(const ScheduledEvent& e);   // remove, fail (port), bypass
    void disk_returns(const ScheduledEvent& e);  // insert, enable
    static std::string cause(const ScheduledEvent& e);

    StorageSystem& system_;
    std::vector<bool> loop_up_;
    std::vector<DiskState> disk_states_;
    std::vector<bool> port_on_loop_;  // by disk: its port takes part in the loops (a failed drive's does)
};

}  // namespace fcal::sim
