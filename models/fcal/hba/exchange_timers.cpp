#include "fcal/hba/exchange_timers.hpp"

namespace fcal::hba {

using sc_core::sc_time_stamp;

ExchangeTimers::ExchangeTimers(sc_core::sc_module_name name, std::function<void(std::uint64_t key)> expired)
    : sc_module(name), expired_(std::move(expired))
{
    SC_METHOD(fire);
    sensitive << event_;
    dont_initialize();
}

ExchangeTimers::Handle ExchangeTimers::start(const sc_core::sc_time& delay, std::uint64_t key)
{
    const bool earliest = due_.empty() || sc_time_stamp() + delay < due_.begin()->first;
    Handle h = due_.emplace(sc_time_stamp() + delay, key);
    if (earliest) rearm();
    return h;
}

void ExchangeTimers::cancel(Handle handle)
{
    if (handle == due_.end()) return;
    const bool earliest = handle == due_.begin();
    due_.erase(handle);
    if (earliest) rearm();
}

void ExchangeTimers::rearm()
{
    event_.cancel();
    if (!due_.empty()) event_.notify(due_.begin()->first - sc_time_stamp());
}

void ExchangeTimers::fire()
{
    // The callback may start and cancel timers, so take one expired deadline at a time.
    while (!due_.empty() && due_.begin()->first <= sc_time_stamp()) {
        const std::uint64_t key = due_.begin()->second;
        due_.erase(due_.begin());
        expired_(key);
    }
    rearm();
}

}  // namespace fcal::hba
