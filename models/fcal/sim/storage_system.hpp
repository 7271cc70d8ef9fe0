#pragma once
// The modelled system (docs/model.md, "The modelled system"), built from a SimConfig: workload -> device
// driver -> initiator HBA -> loop -> target HBAs -> disks, with host memory behind the initiator's
// DMA. Ring order: the controller's port at node 0, disk i at node i + 1, repeat-only nodes after.
// With a RAID volume (volume.raid), the storage controller's volume sits between the workload and the
// driver; with transport=ideal there is no driver, HBA or loop: the ideal transport reaches the disks.
//
// With loop.count=2 (docs/host.md, "Dual loops and multipath"): two such loops with the same disks, a
// controller HBA on each (the driver's two paths, sharing host memory), and each disk's two target
// HBAs in front of its one Disk through a disk::DualPortRouter. Loop i's modules are named loop, initiator,
// target<d> for i = 0 (as with one loop) and loop1, initiator1, target<d>_1 for i = 1.
//
// The builder only builds: what each module is built with comes from module_configs() (a pure
// function of the configuration, validated before), and running the system, its results and the
// I/O account are the RunController's (sim/run_controller.hpp).
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fcal/controller/ideal_transport.hpp"
#include "fcal/controller/kernel_timer.hpp"
#include "fcal/controller/volume_controller.hpp"
#include "fcal/cosim/lockstep_transmit_queue.hpp"
#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/disk/dual_port_router.hpp"
#include "fcal/hba/initiator_hba.hpp"
#include "fcal/hba/target_hba.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/host_memory.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/sim/event_dispatcher.hpp"
#include "fcal/sim/module_configs.hpp"
#include "fcal/sim/scheduled_events.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/loop_usage.hpp"
#include "fcal/sim/statistics.hpp"
#include "fcal/sim/vcd_window.hpp"

namespace fcal::sim {

class StorageSystem : public sc_core::sc_module {
public:
    // `config` must come from build_config() (it has passed every check).
    StorageSystem(sc_core::sc_module_name name, const SimConfig& config);

    // Optional observation; call before running. The port-watcher trace of every port, on every loop
    // (with two, each line names its loop: fcal/loop/port_watcher.hpp).
    void watch_ports(std::ostream& out);
    // The signals of the ports named in `ports` (all of them if it is empty; the others are not
    // traced, so they may fold) to PORTS_BASE.vcd (SystemC adds the extension); with cmdf.impl=rtl
    // also the RTL's to rtl_path (only its top's pins with `rtl_pins_only`), on the same time axis
    // (picoseconds). The RTL's file is opened at once (std::runtime_error if it cannot be), the
    // ports' when the run starts; with a `window` the ports' is closed 1 ps after its END, and the
    // ports are no longer traced (they may fold) from then on.
    void trace_vcd(const std::string& ports_base, const std::string& rtl_path, const std::vector<std::string>& ports = {},
                   bool rtl_pins_only = false, const std::optional<VcdWindow>& window = std::nullopt);
    // At the end of the run: closes the VCD files, the ports' with the time it ended at.
    void close_traces();
    // After close_traces(): the ports' VCD ends with the run's last time stamp, as SystemC's writer
    // closes it. That writer reports no write error, so a file cut short (a full disk) is how one shows.
    bool ports_vcd_complete() const;
    // After close_traces(): the first write to the RTL's VCD that failed ("" if none, or no RTL VCD).
    std::string rtl_vcd_error() const { return rtl_queue_ ? rtl_queue_->rtl().vcd_error() : std::string(); }

    const SimConfig& config() const { return config_; }
    const ModuleConfigs& modules() const { return modules_; }
    // AL_PA of each disk: the lowest priorities, in loop_ID order, skipping the controller's.
    const std::vector<phy::AlPa>& disk_al_pas() const { return modules_.disk_al_pas; }

    // The components. Only with transport=loop: loop, initiator, target, driver (on_loop()); without
    // an index, loop 0's.
    bool on_loop() const { return !loops_.empty(); }
    std::size_t loop_count() const { return loops_.size(); }
    loop::Loop& loop(std::size_t i = 0) { return *loops_.at(i); }
    const loop::Loop& loop(std::size_t i = 0) const { return *loops_.at(i); }
    std::vector<const loop::LPort*> ports() const;  // every loop's, loop 0's first; empty without a loop
    std::uint64_t port_activations() const;
    hba::InitiatorHba& initiator(std::size_t loop = 0) { return *initiators_.at(loop); }
    const hba::InitiatorHba& initiator(std::size_t loop = 0) const { return *initiators_.at(loop); }
    hba::TargetHba& target(unsigned disk, std::size_t loop = 0) { return *targets_.at(loop).at(disk); }
    std::vector<const hba::TargetHba*> targets() const;  // every loop's
    // Whether loop i is up (loop_fail, loop_restore: docs/faults.md, "Loop failure").
    bool loop_up(std::size_t i) const { return dispatcher_->loop_up(i); }
    const LoopUsage& loop_usage() const { return *loop_usage_; }
    host::DeviceDriver& driver() { return *driver_; }
    const host::DeviceDriver& driver() const { return *driver_; }
    disk::Disk& disk_model(unsigned disk) { return *disks_.at(disk); }
    std::vector<const disk::Disk*> disks() const;
    controller::VolumeController* volume() const { return volume_.get(); }  // volume.raid != none only
    controller::IdealTransport* ideal_transport() const { return ideal_.get(); }  // transport=ideal only
    // Scheduled events (docs/faults.md, "Scheduled events"): those given, and each disk's state now.
    const ScheduledEvents& events() const { return events_; }
    DiskState disk_state(unsigned disk) const { return dispatcher_->disk_state(disk); }
    // The ring position of the port with this AL_PA among the loop's ports.
    static std::size_t port_index(loop::Loop& loop, phy::AlPa al_pa);
    host::Workload& workload() const { return *workload_; }
    host::EraseJob* erase_job() const { return erase_; }  // workload.type=erase only
    const Statistics& statistics() const { return *stats_; }
    const cosim::RtlTransmitQueue* rtl_queue() const { return rtl_queue_; }                 // cmdf.impl=rtl
    const cosim::LockstepTransmitQueue* lockstep_queue() const { return lockstep_queue_; }  // rtl.lockstep

private:
    void build_loop();
    void connect_logins();
    void build_dual_ports();  // loop.count=2: the second loop's HBAs, and the routers to the disks
    void observe_loops();
    void run_events();  // the process that fires the scheduled events at their times
    void open_ports_vcd();
    void close_ports_vcd();
    std::unique_ptr<loop::TransmitQueue> make_controller_queue();

    SimConfig config_;
    ModuleConfigs modules_;
    std::vector<std::unique_ptr<loop::Loop>> loops_;
    std::unique_ptr<host::HostMemory> memory_;
    std::vector<std::unique_ptr<host::HostMemory>> memories_;  // the other HBAs' ports to it (loop.count=2)
    std::vector<std::unique_ptr<hba::InitiatorHba>> initiators_;            // by loop
    std::vector<std::vector<std::unique_ptr<hba::TargetHba>>> targets_;     // by loop, then disk
    std::vector<std::unique_ptr<disk::DualPortRouter>> routers_;            // by disk (loop.count=2)
    std::vector<std::unique_ptr<disk::Disk>> disks_;
    std::unique_ptr<LoopUsage> loop_usage_;
    std::unique_ptr<host::DeviceDriver> driver_;
    std::unique_ptr<controller::IdealTransport> ideal_;
    std::unique_ptr<controller::KernelTimer> volume_timer_;  // with spares
    std::unique_ptr<controller::VolumeController> volume_;
    std::unique_ptr<host::Workload> workload_;
    host::EraseJob* erase_ = nullptr;  // the workload, when it is an erasure job
    std::unique_ptr<Statistics> stats_;
    ScheduledEvents events_;
    std::unique_ptr<EventDispatcher> dispatcher_;
    std::vector<std::unique_ptr<loop::PortWatcher>> watchers_;  // one per loop
    sc_core::sc_trace_file* vcd_ = nullptr;
    std::vector<std::string> vcd_ports_;  // the ports traced (empty: all)
    std::string vcd_base_, vcd_file_;  // the ports' VCD, and the time it must end with
    sc_core::sc_time vcd_end_;
    cosim::RtlTransmitQueue* rtl_queue_ = nullptr;           // cmdf.impl=rtl
    cosim::LockstepTransmitQueue* lockstep_queue_ = nullptr;  // rtl.lockstep
};

}  // namespace fcal::sim
