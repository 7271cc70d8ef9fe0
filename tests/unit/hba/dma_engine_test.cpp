// The DMA engine's quiet jobs (docs/hba.md, "DMA"): a job whose end changes nothing runs out without
// a notification, yet every job starts and ends when it would if each end were notified — one
// channel, FCFS, each job bytes / bandwidth after the one before it.
#include <catch2/catch.hpp>

#include <systemc>
#include <vector>

#include "fcal/hba/dma_engine.hpp"
#include "ask_at_the_end.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

constexpr std::uint8_t kStep = 1;

// 1 byte per nanosecond, no scheduler overhead: a job of n bytes takes n ns.
struct Bench : hba::WorkOwner {
    std::vector<sc_time> starts;                         // when each job's data crossed the socket
    std::vector<std::pair<std::uint64_t, sc_time>> ends;  // (serial, time) of each job handed back
    hba::DmaEngine dma{"dma", hba::DmaParams{1e9, 0.0, hba::DmaPolicy::Fcfs},
                       [this](tlm::tlm_generic_payload& p, sc_time&) {
                           starts.push_back(sc_time_stamp());
                           p.set_response_status(tlm::TLM_OK_RESPONSE);
                       },
                       *this};
    void work_done(hba::Work& w) override { ends.emplace_back(w.serial, sc_time_stamp()); }

    // A job of `bytes` of exchange `serial` (its transfer too).
    static hba::DmaJob job(std::uint64_t serial, std::uint32_t bytes)
    {
        hba::DmaJob j;
        j.transfer = serial;
        j.bytes = bytes;
        j.done = {kStep, 0, false, serial, nullptr};
        return j;
    }
    void request(std::uint64_t serial, std::uint32_t bytes, bool quiet)
    {
        hba::DmaJob j = job(serial, bytes);
        j.quiet = quiet;
        dma.request(std::move(j));
    }
};

sc_time ns(double v) { return sc_time(v, SC_NS); }

}  // namespace

TEST_CASE("DMA: quiet jobs start and end as if each end were notified, without a notification", "[hba][dma]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.request(1, 1000, true);  // 0 .. 1000 ns, nothing behind it: no notification
    CHECK(!sc_core::sc_pending_activity());
    sc_start(500, SC_NS);
    b.request(2, 1000, false);  // requested while the quiet job runs: starts when it ends
    sc_start(4500, SC_NS);      // now 5000 ns
    b.request(3, 1000, true);   // the engine is free: starts at once, 5000 .. 6000 ns
    CHECK(!sc_core::sc_pending_activity());
    sc_start(2000, SC_NS);  // now 7000 ns, the quiet job over
    b.request(4, 1000, false);
    sc_start(5000, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(1000), ns(5000), ns(7000)});
    REQUIRE(b.ends.size() == 2);  // only the jobs that are not quiet hand their work back
    CHECK(b.ends[0] == std::make_pair(std::uint64_t{2}, ns(2000)));
    CHECK(b.ends[1] == std::make_pair(std::uint64_t{4}, ns(8000)));
    CHECK(!b.dma.has_jobs_of(2));
}

TEST_CASE("DMA: an awaited exchange's quiet jobs hand their work back when they end", "[hba][dma]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.request(7, 1000, true);  // 0 .. 1000 ns
    b.request(7, 1000, true);  // 1000 .. 2000 ns
    sc_start(1500, SC_NS);
    CHECK(b.dma.has_jobs_of(7));
    CHECK(!b.dma.has_jobs_of(8));
    b.dma.await_exchange(7);  // the second job is in progress: it ends with a notification
    sc_start(1000, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(1000)});
    REQUIRE(b.ends.size() == 1);
    CHECK(b.ends[0] == std::make_pair(std::uint64_t{7}, ns(2000)));
    CHECK(!b.dma.has_jobs_of(7));
    b.dma.stop_awaiting(7);
    b.request(7, 1000, true);  // no longer awaited: quiet again
    sc_start(2000, SC_NS);
    CHECK(b.ends.size() == 1);
}

TEST_CASE("DMA: a cancelled exchange's quiet job in progress hands nothing back", "[hba][dma]")
{
    Bench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.request(5, 1000, true);  // 0 .. 1000 ns
    b.dma.await_exchange(5);
    b.dma.cancel_exchange(5);
    b.request(6, 500, false);  // waits for the cancelled job's end: 1000 .. 1500 ns
    sc_start(3000, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(1000)});
    REQUIRE(b.ends.size() == 1);
    CHECK(b.ends[0] == std::make_pair(std::uint64_t{6}, ns(1500)));
}

namespace {

// A run of jobs fetched ahead (docs/hba.md, "Fetching ahead"): what each job would have handed back
// at its end is handed over at once with that end time (work_ahead).
struct AheadBench : Bench {
    struct Ahead {
        std::uint64_t serial;
        sc_time handed, end;
    };
    std::vector<Ahead> ahead;
    void work_ahead(hba::Work& w, const sc_time& end) override { ahead.push_back({w.serial, sc_time_stamp(), end}); }

    void request_ahead(std::uint64_t serial, std::uint32_t bytes, bool ends_ahead)
    {
        hba::DmaJob j = job(serial, bytes);
        j.starts_ahead = true;
        j.ends_ahead = ends_ahead;
        dma.request(std::move(j));
    }
};

}  // namespace

TEST_CASE("DMA: jobs fetched ahead end when they would one after the other, handed over at once", "[hba][dma]")
{
    AheadBench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.request_ahead(5, 1000, true);   // 0 .. 1000 ns
    b.request_ahead(5, 1000, true);   // 1000 .. 2000 ns
    b.request_ahead(5, 500, false);   // 2000 .. 2500 ns: its end is handed back in time
    b.request(6, 1000, false);        // another exchange behind them: 2500 .. 3500 ns
    sc_start(100, SC_NS);
    // The three of exchange 5 crossed the socket at once; the two ended ahead were handed over then.
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(0), ns(0)});
    REQUIRE(b.ahead.size() == 2);
    CHECK(b.ahead[0].handed == ns(0));
    CHECK(b.ahead[0].end == ns(1000));
    CHECK(b.ahead[1].end == ns(2000));
    CHECK(b.dma.has_jobs_of(5));
    sc_start(5000, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(0), ns(0), ns(2500)});
    REQUIRE(b.ends.size() == 2);
    CHECK(b.ends[0] == std::make_pair(std::uint64_t{5}, ns(2500)));
    CHECK(b.ends[1] == std::make_pair(std::uint64_t{6}, ns(3500)));
    CHECK(!b.dma.has_jobs_of(5));
    CHECK(b.dma.busy_s() == Approx(3500e-9).epsilon(1e-12));
}

TEST_CASE("DMA: cancelling an exchange fetched ahead drops its jobs not started, as if they had waited", "[hba][dma]")
{
    AheadBench b;
    sc_start(sc_core::SC_ZERO_TIME);
    for (int i = 0; i < 4; ++i) b.request_ahead(5, 1000, i < 3);  // 0 .. 4000 ns, one job per microsecond
    b.request(6, 1000, false);
    sc_start(1500, SC_NS);  // the second job is in progress
    b.dma.cancel_exchange(5);
    CHECK(b.dma.has_jobs_of(5));  // until the job in progress ends
    sc_start(600, SC_NS);         // 2100 ns
    CHECK(!b.dma.has_jobs_of(5));
    sc_start(3000, SC_NS);
    // Exchange 6 starts when the job in progress at the cancel ended, not when the run would have.
    REQUIRE(b.ends.size() == 1);
    CHECK(b.ends[0] == std::make_pair(std::uint64_t{6}, ns(3000)));
    CHECK(b.starts.back() == ns(2000));
    CHECK(b.dma.busy_s() == Approx(3000e-9).epsilon(1e-12));
}

TEST_CASE("DMA: a run ahead stops at another exchange's job", "[hba][dma]")
{
    AheadBench b;
    sc_start(sc_core::SC_ZERO_TIME);
    b.request_ahead(5, 1000, true);  // 0 .. 1000 ns, handed over at once
    b.request_ahead(6, 1000, true);  // another exchange: starts at 1000 ns, in an activation of its own
    sc_start(100, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0)});
    REQUIRE(b.ahead.size() == 1);
    sc_start(1000, SC_NS);
    CHECK(b.starts == std::vector<sc_time>{ns(0), ns(1000)});
    REQUIRE(b.ahead.size() == 2);
    CHECK(b.ahead[1].handed == ns(1000));
    CHECK(b.ahead[1].end == ns(2000));
}

TEST_CASE("DMA: under round robin nothing runs ahead (a transfer requested later may come between)", "[hba][dma]")
{
    struct RoundRobin : hba::WorkOwner {
        std::vector<sc_time> ends;
        int ahead = 0;
        hba::DmaEngine dma{"dma_rr", hba::DmaParams{1e9, 0.0, hba::DmaPolicy::RoundRobin},
                           [](tlm::tlm_generic_payload& p, sc_time&) { p.set_response_status(tlm::TLM_OK_RESPONSE); }, *this};
        void work_done(hba::Work&) override { ends.push_back(sc_time_stamp()); }
        void work_ahead(hba::Work&, const sc_time&) override { ++ahead; }
    } b;
    sc_start(sc_core::SC_ZERO_TIME);
    for (int i = 0; i < 2; ++i) {
        hba::DmaJob j = Bench::job(5, 1000);
        j.starts_ahead = j.ends_ahead = true;
        b.dma.request(std::move(j));
    }
    sc_start(3000, SC_NS);
    CHECK(b.ahead == 0);
    CHECK(b.ends == std::vector<sc_time>{ns(1000), ns(2000)});
}

// DmaEngine::finish_due (docs/faults.md, "FCP recovery"): a job that ends in the instant another process asks
// for it (the target's ABTS) hands its work back by then, whichever of the two processes the SystemC kernel runs
// first, and only once; the job behind it ends when it would have (ask_at_the_end.hpp).
namespace {

struct DmaJobs {
    Bench b;
    void start(double first_ns, double second_ns)
    {
        b.request(1, static_cast<std::uint32_t>(first_ns), false);
        b.request(2, static_cast<std::uint32_t>(second_ns), false);
    }
    void finish_due() { b.dma.finish_due(); }
    std::size_t ended() const { return b.ends.size(); }
};

void check_ended_once_when_asked(bool arm_early)
{
    test::AskAtTheEnd<DmaJobs> t("bench", arm_early);
    sc_start(1000, SC_NS);
    // The kernel ran the two processes in the order the case is about.
    REQUIRE(t.asked_before_the_end == arm_early);
    CHECK(t.ended_after_asking == 1);
    CHECK(t.jobs.b.starts == std::vector<sc_time>{ns(0), ns(400)});
    REQUIRE(t.jobs.b.ends.size() == 2);
    CHECK(t.jobs.b.ends[0] == std::make_pair(std::uint64_t{1}, ns(400)));
    CHECK(t.jobs.b.ends[1] == std::make_pair(std::uint64_t{2}, ns(700)));
}

}  // namespace

TEST_CASE("DMA: a job ending as another process asks for it hands its work back then and once: asker armed first", "[hba][dma]")
{
    check_ended_once_when_asked(true);
}

TEST_CASE("DMA: a job ending as another process asks for it hands its work back then and once: job armed first", "[hba][dma]")
{
    check_ended_once_when_asked(false);
}
