// ServiceQueue::run_from (docs/loop.md, "Fast path": taking a frame at the end of its processing):
// a job handed over after it arrived starts at its arrival, or when the job before it ends, exactly
// as if it had been handed over on arrival; one that ends in the instant it is handed over is done
// at once, in the caller's activation; any other ends with a notification as run()'s jobs do.
#include <catch2/catch.hpp>

#include <systemc>
#include <vector>

#include "fcal/hba/service_queue.hpp"
#include "ask_at_the_end.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

struct Owner : hba::WorkOwner {
    std::vector<std::pair<std::uint64_t, sc_time>> done;  // (serial, time) of each job's end
    void work_done(hba::Work& w) override { done.emplace_back(w.serial, sc_time_stamp()); }
};

sc_time ns(double v) { return sc_time(v, SC_NS); }
hba::Work job(std::uint64_t serial) { return {1, 0, false, serial, nullptr}; }

}  // namespace

TEST_CASE("service queue: a job handed over late starts when it arrived or when the one before ends", "[hba]")
{
    Owner o;
    hba::ServiceQueue q("q", o);
    sc_start(1000, SC_NS);  // now 1000 ns, idle since 0
    q.run_from(ns(600), ns(400), job(1));  // 600 .. 1000: it ends now, done at once
    REQUIRE(o.done.size() == 1);
    CHECK(o.done[0] == std::make_pair(std::uint64_t{1}, ns(1000)));
    CHECK(!sc_core::sc_pending_activity());
    q.run_from(ns(900), ns(400), job(2));  // arrived while job 1 ran: 1000 .. 1400
    CHECK(o.done.size() == 1);
    sc_start(1000, SC_NS);  // now 2000 ns
    REQUIRE(o.done.size() == 2);
    CHECK(o.done[1] == std::make_pair(std::uint64_t{2}, ns(1400)));
    q.run(ns(500), job(3));                 // 2000 .. 2500
    q.run_from(ns(2000), ns(300), job(4));  // behind it: 2500 .. 2800
    sc_start(1000, SC_NS);                  // now 3000 ns
    REQUIRE(o.done.size() == 4);
    CHECK(o.done[2] == std::make_pair(std::uint64_t{3}, ns(2500)));
    CHECK(o.done[3] == std::make_pair(std::uint64_t{4}, ns(2800)));
    q.run_from(ns(3000), sc_core::SC_ZERO_TIME, job(5));  // arrived now: one delta later, as run() does it
    CHECK(o.done.size() == 4);
    sc_start(1, SC_NS);
    REQUIRE(o.done.size() == 5);
    CHECK(o.done[4] == std::make_pair(std::uint64_t{5}, ns(3000)));
    CHECK(q.busy_s() == Approx((400 + 400 + 500 + 300) * 1e-9).epsilon(1e-12));
}

// ServiceQueue::finish_due (docs/faults.md, "FCP recovery"): a job that ends in the instant another process
// asks for it is done by then, whichever of the two processes the SystemC kernel runs first, and only once; the
// job behind it ends when it would have (ask_at_the_end.hpp).
namespace {

struct QueueJobs {
    Owner o;
    hba::ServiceQueue q{"q", o};
    void start(double first_ns, double second_ns)
    {
        q.run(ns(first_ns), job(1));
        q.run(ns(second_ns), job(2));
    }
    void finish_due() { q.finish_due(); }
    std::size_t ended() const { return o.done.size(); }
};

void check_done_once_when_asked(bool arm_early)
{
    test::AskAtTheEnd<QueueJobs> t("bench", arm_early);
    sc_start(1000, SC_NS);
    // The kernel ran the two processes in the order the case is about.
    REQUIRE(t.asked_before_the_end == arm_early);
    CHECK(t.ended_after_asking == 1);
    REQUIRE(t.jobs.o.done.size() == 2);
    CHECK(t.jobs.o.done[0] == std::make_pair(std::uint64_t{1}, ns(400)));
    CHECK(t.jobs.o.done[1] == std::make_pair(std::uint64_t{2}, ns(700)));
    CHECK(t.jobs.q.busy_s() == Approx(700e-9).epsilon(1e-12));
}

}  // namespace

TEST_CASE("service queue: a job ending as another process asks for it is done then and once: asker armed first", "[hba]")
{
    check_done_once_when_asked(true);
}

TEST_CASE("service queue: a job ending as another process asks for it is done then and once: job armed first", "[hba]")
{
    check_done_once_when_asked(false);
}
