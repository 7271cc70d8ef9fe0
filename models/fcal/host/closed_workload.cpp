#include "fcal/host/closed_workload.hpp"

#include <stdexcept>

namespace fcal::host {

ClosedWorkload::ClosedWorkload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params,
                               unsigned queue_depth)
    : Workload(name, driver, params), queue_depth_(queue_depth)
{
    if (queue_depth_ == 0) throw std::invalid_argument("workload queue_depth must be >= 1");
    // No sensitivity and no dont_initialize: runs once, in the initialization phase.
    SC_METHOD(start);
}

void ClosedWorkload::start()
{
    const auto disks = static_cast<unsigned>(params().disks.size());
    for (unsigned round = 0; round < queue_depth_; ++round)
        for (unsigned d = 0; d < disks; ++d)
            if (!issue(d)) break;
    report_done_if_finished();
}

void ClosedWorkload::after_completion(const hba::IoRequest& io) { issue(io.disk); }

// Its I/Os still out when it went keep their slots (each issues the next when it ends); the others are
// issued now.
void ClosedWorkload::after_disk_back(unsigned disk)
{
    while (outstanding(disk) < queue_depth_ && issue(disk)) {
    }
}

}  // namespace fcal::host
