#pragma once
// The modelled system (docs/model.md, "The modelled system"), built from a SimConfig: workload -> device
// driver -> initiator HBA -> loop -> target HBAs -> disks, with host memory behind the initiator's
// DMA. Ring order: the controller's port at node 0, disk i at node i + 1, repeat-only nodes after.
// With a RAID volume (volume.raid), the storage controller's volume sits between the workload and the
// driver; with transport=ideal there is no driver, HBA or loop: the ideal transport reaches the disks.
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "fcal/controller/ideal_transport.hpp"
#include "fcal/controller/volume_controller.hpp"
#include "fcal/cosim/lockstep_transmit_queue.hpp"
#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/initiator_hba.hpp"
#include "fcal/hba/target_hba.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/host_memory.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/statistics.hpp"

namespace fcal::sim {

// RtlError: the RTL failed a check (cmdf.impl=rtl); Interrupted: the caller asked the run to stop.
enum class RunEnd { Completed, TimeLimit, Deadlock, RtlError, Interrupted };
std::string to_string(RunEnd end);  // "completed", "time_limit", "deadlock", "rtl_error", "interrupted"

struct RunResult {
    RunEnd end = RunEnd::Completed;
    std::string diagnosis;  // time limit or deadlock: what every port and queue was doing; divergence: the report
};

class StorageSystem : public sc_core::sc_module {
public:
    StorageSystem(sc_core::sc_module_name name, const SimConfig& config);

    // Optional observation; call before run().
    void watch_ports(std::ostream& out);
    // Every port's signals to PORTS_BASE.vcd (SystemC adds the extension); with cmdf.impl=rtl also
    // the RTL's to rtl_path, on the same time axis (picoseconds). The RTL's file is opened at once
    // (std::runtime_error if it cannot be), the ports' when the run starts.
    void trace_vcd(const std::string& ports_base, const std::string& rtl_path);
    // After run(): the ports' VCD ends with the run's last time stamp, as SystemC's writer closes it.
    // That writer reports no write error, so a file cut short (a full disk) is how one shows.
    bool ports_vcd_complete() const;
    // After run(): the first write to the RTL's VCD that failed ("" if none, or no RTL VCD).
    std::string rtl_vcd_error() const { return rtl_queue_ ? rtl_queue_->rtl().vcd_error() : std::string(); }

    // Runs to the end: the workload done, the time limit, a deadlock or an RTL failure. With
    // `stop_requested`, asks it between slices of kRunSlice simulated time (nothing per event, and
    // slicing changes no result) and ends Interrupted when it says so.
    static constexpr double kRunSliceSeconds = 1e-3;
    RunResult run(const std::function<bool()>& stop_requested = nullptr);
    nlohmann::json results() const;  // statistics plus run-level counters (no wall-clock fields)
    // The I/O account (docs/model.md, "Faults and recovery: FCP recovery"): every issued I/O is
    // completed, failed or outstanding, and the outstanding ones are held by the layer below the
    // workload (the volume, or the device driver). Empty when it balances, else what does not.
    std::string account_violation() const;

    // transport=loop only (null otherwise).
    loop::Loop& loop() { return *loop_; }
    hba::InitiatorHba& initiator() { return *initiator_; }
    hba::TargetHba& target(unsigned disk) { return *targets_.at(disk); }
    // volume.raid != none only.
    controller::VolumeController* volume() { return volume_.get(); }
    controller::IdealTransport* ideal_transport() { return ideal_.get(); }
    // The measured response-time distribution (--cdf).
    void write_cdf(std::ostream& out) const { stats_->write_cdf(out); }
    disk::Disk& disk_model(unsigned disk) { return *disks_.at(disk); }
    host::Workload& workload() { return *workload_; }
    host::EraseJob* erase_job() { return erase_; }  // workload.type=erase only
    host::DeviceDriver& driver() { return *driver_; }  // transport=loop only
    const SimConfig& config() const { return config_; }
    // AL_PA of each disk: the lowest priorities, in loop_ID order, skipping the controller's.
    const std::vector<phy::AlPa>& disk_al_pas() const { return disk_al_pas_; }

private:
    void build_loop();
    std::string diagnose() const;
    nlohmann::json disk_mechanics() const;
    void add_erase_results(nlohmann::json& j) const;
    std::unique_ptr<loop::TransmitQueue> make_controller_queue(const hba::CommandFirst& policy);

    SimConfig config_;
    std::vector<phy::AlPa> disk_al_pas_;
    std::unique_ptr<loop::Loop> loop_;
    std::unique_ptr<host::HostMemory> memory_;
    std::unique_ptr<hba::InitiatorHba> initiator_;
    std::vector<std::unique_ptr<hba::TargetHba>> targets_;
    std::vector<std::unique_ptr<disk::Disk>> disks_;
    std::unique_ptr<host::DeviceDriver> driver_;
    std::unique_ptr<controller::IdealTransport> ideal_;
    std::unique_ptr<controller::VolumeController> volume_;
    std::unique_ptr<host::Workload> workload_;
    host::EraseJob* erase_ = nullptr;  // the workload, when it is an erasure job
    std::unique_ptr<Statistics> stats_;
    std::unique_ptr<loop::PortWatcher> watcher_;
    sc_core::sc_trace_file* vcd_ = nullptr;
    std::string vcd_file_;  // the ports' VCD, and the time it must end with
    sc_core::sc_time vcd_end_;
    bool stopped_by_workload_ = false;
    cosim::RtlTransmitQueue* rtl_queue_ = nullptr;           // cmdf.impl=rtl
    cosim::LockstepTransmitQueue* lockstep_queue_ = nullptr;  // rtl.lockstep
};

}  // namespace fcal::sim
