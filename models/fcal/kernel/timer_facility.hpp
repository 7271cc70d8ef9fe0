#pragma once
// The kernel side of the model's one timer facility (docs/kernel.md, "Timers"): a
// module's deadlines, however many, share one SC_METHOD that runs them and at most one pending timed
// notification. The timed notification wakes a second SC_METHOD, which hands the deadlines due to the
// first one delta later: every process woken by that instant's timed notifications has run by then,
// whatever order the kernel gives them (not ordered so: another facility's deadlines of the instant,
// and processes woken in the second delta).
//
// SystemC 2.3.4 keeps a cancelled timed notification in its event heap until its original time, so a
// timer that cancels and notifies again for every I/O leaves one dead entry per I/O (for a 30 s
// timeout, thousands), and every heap operation gets slower as the run goes on. Here a deadline that
// is cancelled, or a pending notification whose deadline moved later, is left alone: when it fires,
// the facility finds nothing due and re-arms for the earliest deadline left, if any. Only a new
// deadline earlier than the pending notification notifies again (one dead entry, rare: the model's
// timers mostly run with one constant delay, so deadlines come in time order). A deadline due now
// is served one delta later through a second event that never enters the heap.
//
// A notification left pending with no deadline behind it delays SystemC's "nothing left to happen";
// drop_idle_notifications() cancels those, so a stuck run still ends as a deadlock, not at the time
// limit (the simulator calls it when sc_start() returns before the workload is done).
#include <cstddef>
#include <cstdint>
#include <systemc>

namespace fcal::kernel {

class TimerFacility : public sc_core::sc_module {
public:
    // How the facility used the kernel, for tests and benchmarks.
    struct Counters {
        std::uint64_t notifications = 0;  // timed notifications made
        std::uint64_t earlier = 0;        // of which replaced a later pending one (one dead heap entry each)
        std::uint64_t firings = 0;        // runs of fire(), and of hand_over() with nothing due (a hand-over counts once)
        std::uint64_t idle_firings = 0;   // of which found no deadline due (cancelled or moved on)
    };
    const Counters& counters() const { return counters_; }
    bool notification_pending() const { return pending_; }

    // Cancels the pending notification of every facility in the design that has no deadline left.
    static void drop_idle_notifications();
    // The counters of every facility in the design added up, and how many facilities there are.
    static Counters design_counters(std::size_t* facilities = nullptr);

protected:
    SC_HAS_PROCESS(TimerFacility);
    explicit TimerFacility(sc_core::sc_module_name name);

    // The derived class's deadlines: true and the earliest in `at` when there is one.
    virtual bool earliest(sc_core::sc_time& at) const = 0;
    // Runs every deadline due by now (a callback may start and cancel deadlines).
    virtual bool expire_due() = 0;  // true if any was due
    // After a deadline was added: make sure the kernel wakes the facility by then.
    void schedule();

private:
    void hand_over();  // SC_METHOD on timed_: hands what is due to fire(), one delta later
    void fire();  // SC_METHOD on immediate_: runs the deadlines due
    void drop_if_idle();
    template <class Visit>
    static void for_each(sc_core::sc_object& object, const Visit& visit);

    sc_core::sc_event timed_;
    sc_core::sc_event immediate_;  // delta notification for deadlines due now
    bool pending_ = false;         // a timed notification at pending_at_ is in the kernel's heap
    sc_core::sc_time pending_at_;
    bool immediate_pending_ = false;
    bool firing_ = false;  // inside fire(): it re-arms at its end
    Counters counters_;
};

}  // namespace fcal::kernel
