#pragma once
// A single server that does one job after the other in arrival order: an HBA's main processor or
// its incoming-frame processor. A job is a duration and the Work its owner does when it is done.
#include <systemc>

#include "fcal/hba/work.hpp"
#include "fcal/kernel/early_wake.hpp"
#include "fcal/kernel/ring_queue.hpp"

namespace fcal::hba {

class ServiceQueue : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(ServiceQueue);
    ServiceQueue(sc_core::sc_module_name name, WorkOwner& owner);

    void run(const sc_core::sc_time& duration, Work then);
    // A job that arrived at `arrived` (now or before, when nothing else has been queued since): it
    // starts then, or when the job before it ends. One that arrived before now and ends now is done
    // at once, in the caller's activation (PortUser::frame_slack: the port hands a frame over at the
    // end of its processing); any other as run() does it.
    void run_from(const sc_core::sc_time& arrived, const sc_core::sc_time& duration, Work then);
    // The job in progress, if it ends now and is not done yet: done now, in the caller's activation,
    // so that what the caller does next meets it done whichever process the kernel would have run
    // first in this instant (its own wake, if already triggered, then finds nothing: step()).
    void finish_due();
    std::size_t backlog() const { return jobs_.size(); }
    double busy_s() const { return busy_time_.to_seconds(); }

private:
    struct Job {
        sc_core::sc_time duration;
        Work then;
    };
    void step();
    void end_job();
    void start_next();

    WorkOwner& owner_;
    kernel::RingQueue<Job> jobs_;
    bool busy_ = false;
    sc_core::sc_time free_at_;  // when the last job started ends
    sc_core::sc_event done_;
    kernel::EarlyWake wake_{done_};  // finish_due() may end the job first
    sc_core::sc_time busy_time_;  // summed exactly, in the kernel's time unit
};

}  // namespace fcal::hba
