#pragma once
// Open system (docs/host.md, "The workloads"): Poisson arrivals at rate_iops (exponential gaps, first one
// counted from time 0), each to a disk chosen uniformly, until total_ios have been issued. Arrivals
// do not wait for completions; the device driver queues what the HBA cannot take. An arrival for a gone
// disk is dropped; with every disk gone they stop, and start again (the first gap counted from then)
// when a disk comes back before the run has ended (docs/faults.md, "Scheduled events").
#include "fcal/host/workload.hpp"

namespace fcal::host {

class OpenWorkload : public Workload {
public:
    SC_HAS_PROCESS(OpenWorkload);
    OpenWorkload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params, double rate_iops);

    double rate_iops() const { return rate_iops_; }

private:
    void arrive();  // SC_METHOD, re-armed with next_trigger after every arrival
    // With every disk gone the arrivals stop; a disk back before the run has ended starts them again.
    void after_disk_back(unsigned disk) override;

    double rate_iops_;
    bool started_ = false;
    bool waiting_for_disk_ = false;  // asleep on disk_back_: every disk gone, I/Os left to issue
    sc_core::sc_event disk_back_;
};

}  // namespace fcal::host
