#include "fcal/host/open_workload.hpp"

#include <stdexcept>
#include <string>

namespace fcal::host {

OpenWorkload::OpenWorkload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params,
                           double rate_iops)
    : Workload(name, driver, params), rate_iops_(rate_iops)
{
    if (!(rate_iops_ > 0))
        throw std::invalid_argument("workload rate_iops must be > 0, got " + std::to_string(rate_iops_));
    SC_METHOD(arrive);  // first activation at time 0 only draws the first gap
}

void OpenWorkload::arrive()
{
    if (started_) {
        const auto disk = static_cast<unsigned>(random().below(params().disks.size()));
        issue(disk);
    }
    started_ = true;
    if (all_issued()) {
        report_done_if_finished();  // only does something when total_ios is 0
        return;                     // no next_trigger: the method sleeps for good
    }
    next_trigger(sc_core::sc_time(random().exponential(1.0 / rate_iops_), sc_core::SC_SEC));
}

}  // namespace fcal::host
