#pragma once
// Open system (docs/model.md, "The workloads"): Poisson arrivals at rate_iops (exponential gaps, first one
// counted from time 0), each to a disk chosen uniformly, until total_ios have been issued. Arrivals
// do not wait for completions; the device driver queues what the HBA cannot take.
#include "fcal/host/workload.hpp"

namespace fcal::host {

class OpenWorkload : public Workload {
public:
    SC_HAS_PROCESS(OpenWorkload);
    OpenWorkload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params, double rate_iops);

    double rate_iops() const { return rate_iops_; }

private:
    void arrive();  // SC_METHOD, re-armed with next_trigger after every arrival

    double rate_iops_;
    bool started_ = false;
};

}  // namespace fcal::host
