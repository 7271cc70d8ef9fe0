#pragma once
// Closed system (docs/host.md, "The workloads"): queue_depth I/Os outstanding per disk. At time 0 it issues
// queue_depth I/Os to every disk (round robin: one to each disk, then the next round), and each
// completion at once issues the next I/O to the same disk, until total_ios have been issued.
#include "fcal/host/workload.hpp"

namespace fcal::host {

class ClosedWorkload : public Workload {
public:
    SC_HAS_PROCESS(ClosedWorkload);
    ClosedWorkload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params,
                   unsigned queue_depth);

    unsigned queue_depth() const { return queue_depth_; }

private:
    void start();  // SC_METHOD, runs once at time 0
    void after_completion(const hba::IoRequest& io) override;
    void after_disk_back(unsigned disk) override;  // refills the disk's slots

    unsigned queue_depth_;
};

}  // namespace fcal::host
