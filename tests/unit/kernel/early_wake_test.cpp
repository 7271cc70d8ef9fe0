// kernel::EarlyWake: a process's wake that another process may take over in its due instant (the
// server's job ending as the owner drops its exchange; docs/faults.md, "FCP recovery"). The wake keeps
// its due time as the kernel keeps the notification (an earlier one stands), is due only in that
// instant and only until its process has run for it, and a wake taken over after the kernel had
// triggered it leaves that run with nothing to do, without losing a wake armed again meanwhile.
#include <catch2/catch.hpp>

#include <systemc>
#include <vector>

#include "fcal/kernel/early_wake.hpp"

using sc_core::SC_NS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

// A process woken by `wake`; `runs` are the instants it ran for a wake, `stale_runs` those it ran
// for nothing (its wake taken over).
struct Woken : sc_core::sc_module {
    sc_core::sc_event event;
    fcal::kernel::EarlyWake wake{event};
    std::vector<sc_time> runs, stale_runs;

    SC_HAS_PROCESS(Woken);
    explicit Woken(sc_core::sc_module_name name) : sc_module(name)
    {
        SC_METHOD(run);
        sensitive << event;
        dont_initialize();
    }
    void run() { (wake.take_stale() ? stale_runs : runs).push_back(sc_time_stamp()); }
};

// Another process that asks the wake at `ask_at` whether it is due (take_due()) and notes the answer.
struct Asker : sc_core::sc_module {
    Woken& woken;
    sc_core::sc_event ask_at;
    std::vector<bool> answers;
    sc_time rearm_after = sc_core::SC_ZERO_TIME;  // if not zero, arms the wake again after taking it over

    SC_HAS_PROCESS(Asker);
    Asker(sc_core::sc_module_name name, Woken& w) : sc_module(name), woken(w)
    {
        SC_METHOD(ask);
        sensitive << ask_at;
        dont_initialize();
    }
    void ask()
    {
        const bool due = woken.wake.take_due();
        answers.push_back(due);
        if (due && rearm_after != sc_core::SC_ZERO_TIME) woken.wake.notify(rearm_after);
    }
};

}  // namespace

TEST_CASE("An early wake is due only in its instant and runs its process there when nobody takes it over", "[kernel][early_wake]")
{
    Woken w("woken");
    Asker a("asker", w);
    sc_start(sc_core::SC_ZERO_TIME);
    w.wake.notify(sc_time(100, SC_NS));
    a.ask_at.notify(50, SC_NS);
    sc_start(60, SC_NS);  // asked at 50 ns: not due yet
    REQUIRE(a.answers == std::vector<bool>{false});
    sc_start(60, SC_NS);  // the wake ran at 100 ns
    CHECK(w.runs == std::vector<sc_time>{sc_time(100, SC_NS)});
    CHECK(w.stale_runs.empty());
    a.ask_at.notify(0, SC_NS);  // in a later instant (120 ns) it is no longer due
    sc_start(10, SC_NS);
    CHECK(a.answers == std::vector<bool>{false, false});
}

TEST_CASE("An earlier notification moves an early wake's due time and a later one does not", "[kernel][early_wake]")
{
    Woken w("woken");
    Asker a("asker", w);
    sc_start(sc_core::SC_ZERO_TIME);
    a.ask_at.notify(200, SC_NS);  // notified before the wake: the kernel runs the asker first
    w.wake.notify(sc_time(300, SC_NS));
    w.wake.notify(sc_time(200, SC_NS));  // earlier: the kernel wakes the process at 200 ns
    w.wake.notify(sc_time(400, SC_NS));  // later: the kernel keeps 200 ns
    sc_start(500, SC_NS);
    // Due at 200 ns (not at 300 ns): the asker took it over, the process's run at 200 ns did nothing,
    // and nothing woke it at 300 or 400 ns.
    REQUIRE(a.answers == std::vector<bool>{true});
    CHECK(w.stale_runs == std::vector<sc_time>{sc_time(200, SC_NS)});
    CHECK(w.runs.empty());
}

namespace {

// Both are due at 100 ns; the asker, when the kernel runs it first, takes the wake over and arms it
// again for 50 ns later (the server's next job). The asker's event is notified before the wake
// (`asker_first`) or after it, which makes the kernel run it first or second: the case checks that it
// did.
void take_over_at_the_due_instant(bool asker_first)
{
    Woken w("woken");
    Asker a("asker", w);
    a.rearm_after = sc_time(50, SC_NS);
    sc_start(sc_core::SC_ZERO_TIME);
    if (asker_first) a.ask_at.notify(100, SC_NS);
    w.wake.notify(sc_time(100, SC_NS));
    if (!asker_first) a.ask_at.notify(100, SC_NS);
    sc_start(300, SC_NS);
    REQUIRE(a.answers.size() == 1);
    REQUIRE(a.answers[0] == asker_first);  // the kernel ran the processes in the order the case is about
    if (asker_first) {
        // Taken over at 100 ns, after the kernel had triggered the wake: its run then did nothing, and
        // the wake armed again ran at 150 ns.
        CHECK(w.stale_runs == std::vector<sc_time>{sc_time(100, SC_NS)});
        CHECK(w.runs == std::vector<sc_time>{sc_time(150, SC_NS)});
    } else {
        // The process ran first, for its wake; the asker found nothing due.
        CHECK(w.runs == std::vector<sc_time>{sc_time(100, SC_NS)});
        CHECK(w.stale_runs.empty());
    }
}

}  // namespace

TEST_CASE("A wake taken over after its process was triggered leaves that run idle and keeps the wake armed again", "[kernel][early_wake]")
{
    take_over_at_the_due_instant(true);
}

TEST_CASE("A wake whose process ran first in its instant is no longer due to another process", "[kernel][early_wake]")
{
    take_over_at_the_due_instant(false);
}
