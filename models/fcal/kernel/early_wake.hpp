#pragma once
// The wake-up of a process whose work another process may do first, in the same instant (a server's
// job ending in the instant its owner drops the exchange, docs/faults.md, "FCP recovery"). The wake
// keeps when it is due: `notify()` arms it; `take_due()` says whether it is due in this instant and,
// if so, takes it over (the caller does the work now): it cancels the wake still pending, and if it
// was already triggered, `take_stale()`, called first thing by the process (it notes the run), says
// that this run must do nothing.
#include <cstdint>
#include <systemc>

#include "fcal/kernel/now.hpp"

namespace fcal::kernel {

class EarlyWake {
public:
    explicit EarlyWake(sc_core::sc_event& wake) : wake_(wake) {}

    // Wake the process `after` from now (an earlier wake already pending stands, as in the kernel).
    // Not between the kernel's trigger of the wake and its process's run for it, unless take_due()
    // took the wake over: that run would take the new wake's due time for its own (an internal error).
    void notify(const sc_core::sc_time& after)
    {
        if (pending_ && !stale_ && due_ == now() && wake_.triggered() && ran_in_delta_ != sc_core::sc_delta_count())
            SC_REPORT_ERROR("fcal/kernel", "EarlyWake::notify between its wake's trigger and its process's run");
        const sc_core::sc_time at = now() + after;
        if (!pending_ || at < due_) due_ = at;
        pending_ = true;
        wake_.notify(after);
    }
    // The wake is due in this instant and its process has not run for it: the caller does its work
    // now, from another process, and the wake will find nothing.
    bool take_due()
    {
        if (!pending_ || due_ != now()) return false;
        pending_ = false;
        // Triggered in this delta and the process not run since: it runs in this delta all the same.
        stale_ = wake_.triggered() && ran_in_delta_ != sc_core::sc_delta_count();
        wake_.cancel();
        return true;
    }
    // Called by the process as it runs (it notes that it ran in this delta): true if it must do
    // nothing (its wake was taken over by take_due()).
    bool take_stale()
    {
        ran_in_delta_ = sc_core::sc_delta_count();
        if (stale_) {
            stale_ = false;
            return true;
        }
        pending_ = false;
        return false;
    }

private:
    sc_core::sc_event& wake_;
    sc_core::sc_time due_;
    bool pending_ = false;
    bool stale_ = false;
    std::uint64_t ran_in_delta_ = ~std::uint64_t{0};
};

}  // namespace fcal::kernel
