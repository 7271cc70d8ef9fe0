#include "fcal/hba/service_queue.hpp"

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

void ServiceQueue::start_next()
{
    busy_ = true;
    busy_time_ += jobs_.front().duration;
    done_.notify(jobs_.front().duration);
}

void ServiceQueue::step()
{
    Work then = std::move(jobs_.front().then);
    jobs_.pop_front();
    busy_ = false;
    if (!jobs_.empty()) start_next();
    owner_.work_done(then);  // may queue more work; the next job is already running
}

}  // namespace fcal::hba
