#include "fcal/controller/kernel_timer.hpp"

namespace fcal::controller {

KernelTimer::KernelTimer(sc_core::sc_module_name name) : sc_module(name)
{
    SC_METHOD(fire);
    sensitive << event_;
    dont_initialize();
}

void KernelTimer::start(const sc_core::sc_time& delay, std::function<void()> fire)
{
    due_ = sc_core::sc_time_stamp() + delay;
    pending_ = std::move(fire);
    // A notification already pending for later is overridden by this earlier one; one pending for
    // earlier stays, and fire() re-arms for the rest.
    event_.notify(delay);
}

void KernelTimer::stop()
{
    pending_ = nullptr;
    event_.cancel();
}

void KernelTimer::fire()
{
    if (!pending_) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (now < due_) {
        event_.notify(due_ - now);
        return;
    }
    std::function<void()> call = std::move(pending_);
    pending_ = nullptr;
    call();
}

}  // namespace fcal::controller
