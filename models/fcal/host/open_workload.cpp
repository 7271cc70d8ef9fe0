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
        report_done_if_finished();  // total_ios is 0, or every disk is gone with no I/O out
        if (issued() < params().total_ios) {
            // Every disk is gone: no arrival until one is back (after_disk_back), which then only
            // draws the next gap (exponential gaps have no memory, so none is owed from before).
            waiting_for_disk_ = true;
            started_ = false;
            next_trigger(disk_back_);
        }
        return;  // otherwise no next_trigger: the method sleeps for good
    }
    next_trigger(sc_core::sc_time(random().exponential(1.0 / rate_iops_), sc_core::SC_SEC));
}

void OpenWorkload::after_disk_back(unsigned /*disk*/)
{
    if (!waiting_for_disk_) return;  // the next arrival is still due: it goes to a disk chosen as always
    waiting_for_disk_ = false;
    disk_back_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace fcal::host
