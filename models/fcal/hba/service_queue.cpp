#include "fcal/hba/service_queue.hpp"

#include <algorithm>

#include "fcal/kernel/now.hpp"

namespace fcal::hba {

ServiceQueue::ServiceQueue(sc_core::sc_module_name name, WorkOwner& owner) : sc_module(name), owner_(owner)
{
    SC_METHOD(step);
    sensitive << done_;
    dont_initialize();
}

void ServiceQueue::run(const sc_core::sc_time& duration, Work then)
{
    jobs_.push_back({duration, std::move(then)});
    if (!busy_) start_next();
}

void ServiceQueue::run_from(const sc_core::sc_time& arrived, const sc_core::sc_time& duration, Work then)
{
    if (busy_) {
        run(duration, std::move(then));  // the job in progress ends now or later: this one follows it
        return;
    }
    const sc_core::sc_time now = kernel::now();
    const sc_core::sc_time end = std::max(arrived, free_at_) + duration;
    busy_time_ += duration;
    free_at_ = end;
    if (arrived < now && end <= now) {
        // Handed over late (PortUser::frame_slack), at the end of its processing: done now.
        owner_.work_done(then);
        return;
    }
    jobs_.push_back({duration, std::move(then)});
    busy_ = true;
    wake_.notify(end - now);
}

void ServiceQueue::start_next()
{
    busy_ = true;
    busy_time_ += jobs_.front().duration;
    free_at_ = kernel::now() + jobs_.front().duration;
    wake_.notify(jobs_.front().duration);
}

void ServiceQueue::finish_due()
{
    if (wake_.take_due()) end_job();
}

void ServiceQueue::step()
{
    if (wake_.take_stale()) return;
    end_job();
}

void ServiceQueue::end_job()
{
    Work then = jobs_.take_front().then;
    busy_ = false;
    if (!jobs_.empty()) start_next();
    owner_.work_done(then);  // may queue more work; the next job is already running
}

}  // namespace fcal::hba
