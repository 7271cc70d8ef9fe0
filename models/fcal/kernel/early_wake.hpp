#pragma once
// The wake-up of a process whose work another process may do first, in the same instant (a server's
// job ending in the instant its owner drops the exchange, docs/faults.md, "FCP recovery"): the work
// is done early, and the wake, if already triggered, must then find nothing. `done_early()` cancels
// a wake still pending; `take_stale()`, called first thing by the process (it notes the run), says
// whether this run is the wake that was already triggered when the work was done early.
#include <cstdint>
#include <systemc>

namespace fcal::kernel {

class EarlyWake {
public:
    explicit EarlyWake(sc_core::sc_event& wake) : wake_(wake) {}

    // The work the wake was for is done now, from another process.
    void done_early()
    {
        // Triggered in this delta and the process not run since: it runs in this delta all the same.
        stale_ = wake_.triggered() && ran_in_delta_ != sc_core::sc_delta_count();
        wake_.cancel();
    }
    // Called by the process as it runs (it notes that it ran in this delta): true if it must do nothing.
    bool take_stale()
    {
        ran_in_delta_ = sc_core::sc_delta_count();
        const bool was = stale_;
        stale_ = false;
        return was;
    }

private:
    sc_core::sc_event& wake_;
    bool stale_ = false;
    std::uint64_t ran_in_delta_ = ~std::uint64_t{0};
};

}  // namespace fcal::kernel
