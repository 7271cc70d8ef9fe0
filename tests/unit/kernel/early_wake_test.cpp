// kernel::EarlyWake: a process's wake that another process may take over in its due instant (the
// server's job ending as the owner drops its exchange; docs/faults.md, "FCP recovery"). The wake keeps
// its due time as the kernel keeps the notification (an earlier one stands), is due only in that
// instant and only until its process has run for it, and a wake taken over after the kernel had
// triggered it leaves that run with nothing to do, without losing a wake armed again meanwhile.
// Each case that depends on which of two processes the kernel runs first in an instant arranges the
// order (by the order of their notifications) and REQUIREs it from the run log before checking the
// wake's answers.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "fcal/kernel/early_wake.hpp"

using sc_core::SC_NS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

sc_time ns(double v) { return sc_time(v, SC_NS); }

// Who ran, in order: "wake" (the woken process for its wake), "stale" (it ran for nothing), "ask".
using RunLog = std::vector<std::string>;

// A process woken by `wake`; `runs` are the instants it ran for a wake, `stale_runs` those it ran
// for nothing (its wake taken over). With `rearm_zero`, its first run for a wake arms the wake again
// with no delay (a job of no time following the one that ended).
struct Woken : sc_core::sc_module {
    RunLog& log;
    sc_core::sc_event event;
    fcal::kernel::EarlyWake wake{event};
    std::vector<sc_time> runs, stale_runs;
    bool rearm_zero = false;

    SC_HAS_PROCESS(Woken);
    Woken(sc_core::sc_module_name name, RunLog& l) : sc_module(name), log(l)
    {
        SC_METHOD(run);
        sensitive << event;
        dont_initialize();
    }
    void run()
    {
        const bool stale = wake.take_stale();
        log.push_back(stale ? "stale" : "wake");
        (stale ? stale_runs : runs).push_back(sc_time_stamp());
        if (!stale && rearm_zero) {
            rearm_zero = false;
            wake.notify(sc_core::SC_ZERO_TIME);
        }
    }
};

// Another process that, woken by `ask_at`, asks the wake whether it is due (take_due()) and notes the
// answer; if it took the wake over and `rearm_after` is set, it arms the wake again (the next job).
struct Asker : sc_core::sc_module {
    RunLog& log;
    Woken& woken;
    sc_core::sc_event ask_at;
    std::vector<bool> answers;
    std::optional<sc_time> rearm_after;

    SC_HAS_PROCESS(Asker);
    Asker(sc_core::sc_module_name name, RunLog& l, Woken& w) : sc_module(name), log(l), woken(w)
    {
        SC_METHOD(ask);
        sensitive << ask_at;
        dont_initialize();
    }
    void ask()
    {
        log.push_back("ask");
        const bool due = woken.wake.take_due();
        answers.push_back(due);
        if (due && rearm_after) woken.wake.notify(*rearm_after);
    }
};

// Arms the wake from a process of its own at `arm_at`, `after` later.
struct Armer : sc_core::sc_module {
    Woken& woken;
    sc_core::sc_event arm_at;
    sc_time after;

    SC_HAS_PROCESS(Armer);
    Armer(sc_core::sc_module_name name, Woken& w) : sc_module(name), woken(w)
    {
        SC_METHOD(arm);
        sensitive << arm_at;
        dont_initialize();
    }
    void arm() { woken.wake.notify(after); }
};

}  // namespace

TEST_CASE("An early wake is due only in its instant and runs its process there when nobody takes it over", "[kernel][early_wake]")
{
    RunLog log;
    Woken w("woken", log);
    Asker a("asker", log, w);
    Armer arm("armer", w);
    sc_start(sc_core::SC_ZERO_TIME);
    arm.after = ns(40);
    arm.arm_at.notify(60, SC_NS);  // armed at 60 ns, due at 100 ns
    a.ask_at.notify(80, SC_NS);    // asked at 80 ns: not due yet
    sc_start(90, SC_NS);
    REQUIRE(a.answers == std::vector<bool>{false});
    sc_start(20, SC_NS);  // the wake ran at 100 ns
    CHECK(w.runs == std::vector<sc_time>{ns(100)});
    CHECK(w.stale_runs.empty());
}

TEST_CASE("An earlier notification moves an early wake's due time and a later one does not", "[kernel][early_wake]")
{
    RunLog log;
    Woken w("woken", log);
    Asker a("asker", log, w);
    sc_start(sc_core::SC_ZERO_TIME);
    a.ask_at.notify(200, SC_NS);  // notified before the wake: the kernel runs the asker first
    w.wake.notify(ns(300));
    w.wake.notify(ns(200));  // earlier: the kernel wakes the process at 200 ns
    w.wake.notify(ns(400));  // later: the kernel keeps 200 ns
    sc_start(500, SC_NS);
    REQUIRE(log == RunLog{"ask", "stale"});  // both at 200 ns, the asker first
    // Due at 200 ns (not at 300 ns): the asker took it over, the process's run at 200 ns did nothing,
    // and nothing woke it at 300 or 400 ns.
    CHECK(a.answers == std::vector<bool>{true});
    CHECK(w.stale_runs == std::vector<sc_time>{ns(200)});
    CHECK(w.runs.empty());
}

namespace {

// Both are due at 100 ns; the asker, when the kernel runs it first, takes the wake over and arms it
// again for 50 ns later (the server's next job); a second asker, armed before that, asks at 150 ns.
// The first asker's event is notified before the wake (`asker_first`) or after it, which makes the
// kernel run it first or second: the case checks that it did.
void take_over_at_the_due_instant(bool asker_first)
{
    RunLog log;
    Woken w("woken", log);
    Asker a("asker", log, w);
    Asker later("later_asker", log, w);
    a.rearm_after = ns(50);
    sc_start(sc_core::SC_ZERO_TIME);
    later.ask_at.notify(150, SC_NS);
    if (asker_first) a.ask_at.notify(100, SC_NS);
    w.wake.notify(ns(100));
    if (!asker_first) a.ask_at.notify(100, SC_NS);
    sc_start(300, SC_NS);
    if (asker_first) {
        // At 100 ns the asker, then the woken process (triggered before the asker took its wake over:
        // it runs for nothing); at 150 ns the later asker first, which takes the wake armed again over.
        REQUIRE(log == RunLog{"ask", "stale", "ask", "stale"});
        CHECK(a.answers == std::vector<bool>{true});
        CHECK(later.answers == std::vector<bool>{true});
        CHECK(w.stale_runs == std::vector<sc_time>{ns(100), ns(150)});
        CHECK(w.runs.empty());
    } else {
        // The process ran first at 100 ns, for its wake; the asker found nothing due, armed nothing,
        // and nothing is due at 150 ns.
        REQUIRE(log == RunLog{"wake", "ask", "ask"});
        CHECK(a.answers == std::vector<bool>{false});
        CHECK(later.answers == std::vector<bool>{false});
        CHECK(w.runs == std::vector<sc_time>{ns(100)});
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

TEST_CASE("A wake of no delay taken over before its delta comes never runs its process", "[kernel][early_wake]")
{
    RunLog log;
    Woken w("woken", log);
    Asker a("asker", log, w);
    sc_start(sc_core::SC_ZERO_TIME);
    a.ask_at.notify(100, SC_NS);
    sc_start(50, SC_NS);
    w.wake.notify(sc_core::SC_ZERO_TIME);  // due at 50 ns, one delta later
    REQUIRE(w.wake.take_due());            // taken over at once: the delta notification is cancelled
    sc_start(100, SC_NS);
    CHECK(log == RunLog{"ask"});  // only the asker at 100 ns, which found nothing due
    CHECK(a.answers == std::vector<bool>{false});
    CHECK(w.runs.empty());
    CHECK(w.stale_runs.empty());
}

TEST_CASE("A wake armed again with no delay by its own run is due to a process running after it in that delta", "[kernel][early_wake]")
{
    // At 100 ns the process runs for its wake and arms it again with no delay (due at 100 ns, one
    // delta later); the asker, notified after the wake, runs after it in the same delta and takes the
    // new wake over; the process then never runs for it. At 200 ns a wake armed afresh runs as usual.
    RunLog log;
    Woken w("woken", log);
    Asker a("asker", log, w);
    w.rearm_zero = true;
    sc_start(sc_core::SC_ZERO_TIME);
    w.wake.notify(ns(100));
    a.ask_at.notify(100, SC_NS);
    sc_start(150, SC_NS);
    REQUIRE(log == RunLog{"wake", "ask"});
    CHECK(a.answers == std::vector<bool>{true});
    CHECK(w.runs == std::vector<sc_time>{ns(100)});
    w.wake.notify(ns(50));
    sc_start(100, SC_NS);
    CHECK(log == RunLog{"wake", "ask", "wake"});
    CHECK(w.runs == std::vector<sc_time>{ns(100), ns(200)});
    CHECK(w.stale_runs.empty());
}

TEST_CASE("Arming an early wake between its trigger and its process's run is refused", "[kernel][early_wake]")
{
    // At 100 ns the armer runs before the woken process (notified first), while the kernel has
    // triggered the wake: its due time would be lost by that run (EarlyWake::notify's precondition).
    RunLog log;
    Woken w("woken", log);
    Armer arm("armer", w);
    arm.after = ns(50);
    sc_start(sc_core::SC_ZERO_TIME);
    arm.arm_at.notify(100, SC_NS);
    w.wake.notify(ns(100));
    CHECK_THROWS_WITH(sc_start(200, SC_NS), Catch::Contains("EarlyWake::notify between its wake's trigger and its process's run"));
}
