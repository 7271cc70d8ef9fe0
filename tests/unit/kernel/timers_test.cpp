// The one timer facility (docs/kernel.md, "Timers"): deadlines expire at their
// times in order, cancelled ones never do, the kernel holds at most one notification per facility,
// a run with many deadlines started and cancelled makes no more kernel notifications per deadline
// the longer it goes, and a deadline's callback runs after the processes woken at its instant (which
// may still cancel it or add one due at once), whichever was notified first.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "fcal/kernel/timers.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

using Expired = std::vector<std::pair<int, sc_time>>;

struct Bench {
    Expired expired;
    kernel::Timers<int> timers{"timers", [this](int& key) { expired.emplace_back(key, sc_time_stamp()); }};
};

// A process woken by a timed event of its own, as a port is at a word's time: it notes its runs in
// the log the timers' callback writes too, then does what the case gives it to do.
struct Rival : sc_core::sc_module {
    SC_HAS_PROCESS(Rival);
    Rival(sc_core::sc_module_name name, std::vector<std::string>& log) : sc_module(name), log_(log)
    {
        SC_METHOD(run);
        sensitive << at;
        dont_initialize();
    }
    void run()
    {
        log_.push_back("process at " + sc_time_stamp().to_string());
        if (then) then();
    }
    sc_core::sc_event at;
    std::function<void()> then;

private:
    std::vector<std::string>& log_;
};

// The rival's event and a deadline (key) notified for one instant, `after` from now: the event first
// or the deadline first.
kernel::Timers<int>::Handle notify_both(Rival& rival, kernel::Timers<int>& timers, const sc_time& after, int key,
                                        bool process_first)
{
    if (process_first) rival.at.notify(after);
    const auto handle = timers.start(after, key);
    if (!process_first) rival.at.notify(after);
    return handle;
}

}  // namespace

TEST_CASE("Timers expire at their deadlines in order and cancelled ones never do", "[kernel][timers]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.timers.start(sc_time(30, SC_MS), 3);
    const auto first = b.timers.start(sc_time(10, SC_MS), 1);
    b.timers.start(sc_time(20, SC_MS), 2);
    b.timers.start(sc_time(20, SC_MS), 22);  // same deadline: after the one started before it
    sc_start(5, SC_MS);
    b.timers.cancel(first);  // the earliest: its notification is left to fire idle
    b.timers.cancel(first);  // a second cancel, and the handle of no deadline, are ignored
    b.timers.cancel({});
    REQUIRE(b.timers.running() == 3);
    sc_start(40, SC_MS);
    REQUIRE(b.expired.size() == 3);
    CHECK(b.expired[0] == std::make_pair(2, sc_time(20, SC_MS)));
    CHECK(b.expired[1] == std::make_pair(22, sc_time(20, SC_MS)));
    CHECK(b.expired[2] == std::make_pair(3, sc_time(30, SC_MS)));
    CHECK(b.timers.running() == 0);
    const auto& c = b.timers.counters();
    // 30 ms, then 10 ms (earlier: notified again), which fires idle (cancelled) and re-arms for
    // 20 ms, then 30 ms; the starts at 20 ms notified nothing.
    CHECK(c.notifications == 4);
    CHECK(c.earlier == 1);
    CHECK(c.firings == 3);
    CHECK(c.idle_firings == 1);
    CHECK(!b.timers.notification_pending());
}

TEST_CASE("A deadline earlier than the pending notification notifies again and expires on time", "[kernel][timers]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.timers.start(sc_time(30, SC_MS), 30);
    b.timers.start(sc_time(10, SC_MS), 10);
    CHECK(b.timers.counters().earlier == 1);
    sc_start(50, SC_MS);
    REQUIRE(b.expired.size() == 2);
    CHECK(b.expired[0] == std::make_pair(10, sc_time(10, SC_MS)));
    CHECK(b.expired[1] == std::make_pair(30, sc_time(30, SC_MS)));
}

TEST_CASE("A deadline due now expires one delta later, at the same time", "[kernel][timers]")
{
    Bench b;
    sc_start(1, SC_MS);
    b.timers.start(sc_time(5, SC_MS), 5);
    b.timers.start(sc_core::SC_ZERO_TIME, 0);
    CHECK(b.expired.empty());
    sc_start(1, SC_US);
    REQUIRE(b.expired.size() == 1);
    CHECK(b.expired[0] == std::make_pair(0, sc_time(1, SC_MS)));
    // The pending timed notification was not touched.
    CHECK(b.timers.counters().notifications == 1);
    CHECK(b.timers.counters().earlier == 0);
    sc_start(10, SC_MS);
    REQUIRE(b.expired.size() == 2);
    CHECK(b.expired[1] == std::make_pair(5, sc_time(6, SC_MS)));
}

TEST_CASE("A callback may start and cancel deadlines, also ones due at once", "[kernel][timers]")
{
    Expired expired;
    kernel::Timers<int>* self = nullptr;
    kernel::Timers<int>::Handle victim;
    kernel::Timers<int> timers("timers", [&](int& key) {
        expired.emplace_back(key, sc_time_stamp());
        if (key == 1) {
            self->start(sc_core::SC_ZERO_TIME, 2);   // due now: expires in this same firing
            self->start(sc_time(1, SC_MS), 3);
            self->cancel(victim);
        }
    });
    self = &timers;
    sc_start(sc_core::SC_ZERO_TIME);
    timers.start(sc_time(1, SC_MS), 1);
    victim = timers.start(sc_time(2, SC_MS), 99);
    sc_start(10, SC_MS);
    REQUIRE(expired.size() == 3);
    CHECK(expired[0] == std::make_pair(1, sc_time(1, SC_MS)));
    CHECK(expired[1] == std::make_pair(2, sc_time(1, SC_MS)));
    CHECK(expired[2] == std::make_pair(3, sc_time(2, SC_MS)));
    CHECK(timers.running() == 0);
}

TEST_CASE("Without a deadline left, drop_idle_notifications leaves nothing pending", "[kernel][timers]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    const auto h = b.timers.start(sc_time(10, SC_MS), 1);
    b.timers.start(sc_time(20, SC_MS), 2);
    kernel::TimerFacility::drop_idle_notifications();  // deadlines running: nothing changes
    CHECK(b.timers.notification_pending());
    b.timers.cancel(h);
    sc_start(15, SC_MS);
    // The deadline at 20 ms still runs.
    kernel::TimerFacility::drop_idle_notifications();
    CHECK(sc_core::sc_pending_activity());
    sc_start(10, SC_MS);
    REQUIRE(b.expired.size() == 1);
    CHECK(b.expired[0] == std::make_pair(2, sc_time(20, SC_MS)));
    // A deadline started and cancelled: its notification stays pending (stale) until dropped.
    const auto last = b.timers.start(sc_time(10, SC_MS), 4);
    b.timers.cancel(last);
    CHECK(sc_core::sc_pending_activity());
    kernel::TimerFacility::drop_idle_notifications();
    CHECK(!sc_core::sc_pending_activity());
    CHECK(b.expired.size() == 1);
}

// The pattern of an exchange timer: every I/O starts a deadline one constant timeout ahead and
// cancels it when it completes, long before. The kernel gets one notification per timeout period,
// not one per I/O, and the rate does not grow with the run's length.
TEST_CASE("Deadlines started and cancelled per I/O make no kernel notification per I/O", "[kernel][timers]")
{
    Bench b;
    const sc_time timeout(30, SC_MS), io_gap(10, SC_US), io_time(40, SC_US);
    std::vector<kernel::Timers<int>::Handle> open;
    std::uint64_t started = 0;
    auto run_until = [&](const sc_time& end) {
        while (sc_time_stamp() < end) {
            open.push_back(b.timers.start(timeout, 0));
            ++started;
            // Each I/O completes io_time after it started: cancel the oldest ones that have.
            while (open.size() > static_cast<std::size_t>(io_time / io_gap)) {
                b.timers.cancel(open.front());
                open.erase(open.begin());
            }
            sc_start(io_gap);
        }
    };
    run_until(sc_time(100, SC_MS));
    const auto at_short = b.timers.counters();
    const std::uint64_t started_short = started;
    run_until(sc_time(1000, SC_MS));
    const auto& at_long = b.timers.counters();
    CHECK(b.expired.empty());
    CHECK(at_long.earlier == 0);
    // About one notification per timeout: 100 ms / 30 ms, 1000 ms / 30 ms (and one idle firing each).
    CHECK(at_short.notifications <= 100 / 30 + 1);
    CHECK(at_long.notifications <= 1000 / 30 + 1);
    const double per_deadline_short = static_cast<double>(at_short.notifications) / static_cast<double>(started_short);
    const double per_deadline_long = static_cast<double>(at_long.notifications) / static_cast<double>(started);
    CHECK(per_deadline_long <= per_deadline_short * 1.02);
    CHECK(b.timers.notification_pending());
}

// Which of an instant's timed events the kernel triggers first is its own affair (the order changes
// with what else is in its heap: tracing adds events). A deadline's callback comes after every
// process woken by the instant's timed events, whichever was notified first.
TEST_CASE("A deadline's callback runs after the processes woken at its instant, in either order of notification",
          "[kernel][timers]")
{
    std::vector<std::string> log;
    kernel::Timers<int> timers("timers", [&](int&) { log.push_back("timer at " + sc_time_stamp().to_string()); });
    Rival rival("rival", log);
    sc_start(sc_core::SC_ZERO_TIME);
    // At 10 ms the process's event is notified before the deadline is started, at 20 ms after it.
    notify_both(rival, timers, sc_time(10, SC_MS), 10, true);
    sc_start(15, SC_MS);
    notify_both(rival, timers, sc_time(5, SC_MS), 20, false);
    sc_start(30, SC_MS);
    const std::vector<std::string> expected{"process at 10 ms", "timer at 10 ms", "process at 20 ms", "timer at 20 ms"};
    CHECK(log == expected);
}

// What a process woken at the deadline's instant does to the timers is seen by the deadline's run, in
// either order of notification: a deadline it cancels never runs, one it starts with no delay runs in
// that same instant, after the deadline started before it.
TEST_CASE("A process at a deadline's instant may cancel it or add one due at once, in either order of notification",
          "[kernel][timers]")
{
    std::vector<std::string> log;
    kernel::Timers<int> timers("timers", [&](int& key) {
        log.push_back("timer " + std::to_string(key) + " at " + sc_time_stamp().to_string());
    });
    Rival rival("rival", log);
    kernel::Timers<int>::Handle victim;
    sc_start(sc_core::SC_ZERO_TIME);
    // 10 ms: the process cancels the deadline of its instant (notified first, then the deadline).
    rival.then = [&] { timers.cancel(victim); };
    victim = notify_both(rival, timers, sc_time(10, SC_MS), 1, true);
    sc_start(15, SC_MS);
    // 20 ms: the same, the deadline started first.
    victim = notify_both(rival, timers, sc_time(5, SC_MS), 2, false);
    sc_start(10, SC_MS);
    // 30 ms and 40 ms: the process adds a deadline due at once, in both orders.
    rival.then = [&] { timers.start(sc_core::SC_ZERO_TIME, 0); };
    notify_both(rival, timers, sc_time(5, SC_MS), 3, true);
    sc_start(10, SC_MS);
    notify_both(rival, timers, sc_time(5, SC_MS), 4, false);
    sc_start(10, SC_MS);
    const std::vector<std::string> expected{"process at 10 ms", "process at 20 ms",
                                            "process at 30 ms", "timer 3 at 30 ms", "timer 0 at 30 ms",
                                            "process at 40 ms", "timer 4 at 40 ms", "timer 0 at 40 ms"};
    CHECK(log == expected);
    CHECK(timers.running() == 0);
}
