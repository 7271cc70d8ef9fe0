#include "fcal/sim/event_dispatcher.hpp"

#include <stdexcept>

#include "fcal/sim/storage_system.hpp"

namespace fcal::sim {

EventDispatcher::EventDispatcher(StorageSystem& system)
    : system_(system), loop_up_(system.loop_count(), true), disk_states_(system.config().disk_count, DiskState::Present),
      port_on_loop_(system.config().disk_count, true)
{
}

void EventDispatcher::fire(const ScheduledEvent& e)
{
    switch (e.kind) {
    case EventKind::LoopFail:
        // The cable out of the controller's port is cut: nothing gets round the loop any more, and its
        // HBAs see the loss of signal (docs/faults.md, "Loop failure").
        system_.loop(e.loop).cut_cable(cause(e));
        set_loop(e.loop, false);
        return;
    case EventKind::LoopRestore:
        // Mended, the loop initializes (the LIP(F8)s come back round) before it carries frames again.
        system_.loop(e.loop).mend_cable();
        set_loop(e.loop, true);
        return;
    case EventKind::Lip: lip(e); return;
    case EventKind::Fail:
        if (e.failure == FailureKind::Drive)
            drive_fails(*e.disk);
        else
            disk_leaves(e);
        return;
    case EventKind::Remove:
    case EventKind::Bypass: disk_leaves(e); return;
    case EventKind::Insert:
    case EventKind::Enable: disk_returns(e); return;
    }
    throw std::logic_error("unknown event kind");
}

// "event.<n>: <kind>[ disk <d>]", for the loop's initialization records and the volume's failures.
std::string EventDispatcher::cause(const ScheduledEvent& e)
{
    std::string text = "event." + std::to_string(e.index) + ": " + to_string(e.kind);
    if (e.kind == EventKind::Lip) return text + " from " + (e.disk ? "disk " + std::to_string(*e.disk) : std::string("the controller"));
    if (e.disk) text += " disk " + std::to_string(*e.disk);
    return text;
}

// The port sends LIP and its loop initializes (docs/loop_init.md, "Initialization in the running
// loop"); frames lost in the circuits it ends are FCP recovery's (docs/faults.md).
void EventDispatcher::lip(const ScheduledEvent& e)
{
    const phy::AlPa al_pa = e.disk ? system_.disk_al_pas().at(*e.disk) : system_.config().initiator_port.al_pa;
    loop::Loop& loop = system_.loop(e.loop);
    loop.start_lip(StorageSystem::port_index(loop, al_pa), cause(e));
}

// The drive fails, its port stays on the loop and its interface answers CHECK CONDITION. The volume
// learns of it first, so that it counts the commands still out to the disk as lost before their
// failures come back; without a volume the workload stops issuing to the disk.
void EventDispatcher::drive_fails(unsigned disk)
{
    disk_states_.at(disk) = DiskState::Failed;
    if (controller::VolumeController* volume = system_.volume())
        volume->disk_failed(disk, "failed");
    else
        system_.workload().disk_gone(disk);
    // The drive behind both of its ports.
    for (std::size_t l = 0; l < system_.loop_count(); ++l) system_.target(disk, l).drive_failed();
}

// The disk's port leaves every loop: pulled out, failed with its drive, or bypassed. As with a drive
// failure the volume (or the workload) hears first (not again for a failed disk pulled out to be
// replaced); then the disk's interfaces drop every exchange they hold, as at a loss of signal, and the
// disk the commands they had given it.
void EventDispatcher::disk_leaves(const ScheduledEvent& e)
{
    const unsigned disk = *e.disk;
    const bool removed = e.kind == EventKind::Remove;
    const bool was_gone = disk_states_.at(disk) == DiskState::Failed;
    const DiskState next = removed ? DiskState::Removed : e.kind == EventKind::Bypass ? DiskState::Bypassed : DiskState::Failed;
    disk_states_.at(disk) = next;
    port_on_loop_.at(disk) = false;
    if (!was_gone) {
        if (controller::VolumeController* volume = system_.volume())
            volume->disk_failed(disk, removed ? "removed" : next == DiskState::Bypassed ? "bypassed" : "port failed");
        else
            system_.workload().disk_gone(disk);
    }
    for (std::size_t l = 0; l < system_.loop_count(); ++l) {
        system_.target(disk, l).link_lost();
        loop::Loop& loop = system_.loop(l);
        const std::size_t port = StorageSystem::port_index(loop, system_.disk_al_pas().at(disk));
        if (removed)
            loop.remove_port(port, cause(e));
        else if (next == DiskState::Bypassed)
            loop.bypass_port(port, cause(e));
        else
            loop.fail_port(port, cause(e));
    }
}

// The disk's port joins every loop again: a new, blank disk in the slot, or the bypassed port enabled.
// To a volume it is a spare either way (a bypassed disk missed the writes made meanwhile); without one
// the workload issues to it again.
void EventDispatcher::disk_returns(const ScheduledEvent& e)
{
    const unsigned disk = *e.disk;
    disk_states_.at(disk) = DiskState::Present;
    port_on_loop_.at(disk) = true;
    for (std::size_t l = 0; l < system_.loop_count(); ++l) {
        hba::TargetHba& target = system_.target(disk, l);
        if (e.kind == EventKind::Insert) target.drive_replaced();
        if (loop_up_.at(l)) target.link_restored();
        loop::Loop& loop = system_.loop(l);
        const std::size_t port = StorageSystem::port_index(loop, system_.disk_al_pas().at(disk));
        if (e.kind == EventKind::Insert)
            loop.insert_port(port, cause(e));
        else
            loop.enable_port(port, cause(e));
    }
    if (controller::VolumeController* volume = system_.volume())
        volume->disk_inserted(disk);
    else
        system_.workload().disk_back(disk);
}

// Loss of signal on a loop, or its return (docs/faults.md, "Loop failure"), at the boundary between
// the loop and the HBAs: every HBA port on it stops or starts again (a disk's only if its port is on
// the loop).
void EventDispatcher::set_loop(unsigned loop, bool up)
{
    loop_up_.at(loop) = up;
    hba::InitiatorHba& initiator = system_.initiator(loop);
    const unsigned disks = static_cast<unsigned>(disk_states_.size());
    if (up) {
        for (unsigned d = 0; d < disks; ++d)
            if (port_on_loop_[d]) system_.target(d, loop).link_restored();
        initiator.link_restored();
        return;
    }
    initiator.link_lost();
    for (unsigned d = 0; d < disks; ++d) system_.target(d, loop).link_lost();
}

}  // namespace fcal::sim
