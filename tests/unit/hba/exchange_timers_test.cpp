// The HBAs' exchange timers (docs/model.md, "Faults and recovery: FCP recovery"): each expires at
// its own deadline, a cancelled one never does, and with none running nothing is pending, so that
// a stuck run still ends as a deadlock.
#include <catch2/catch.hpp>

#include <systemc>
#include <utility>
#include <vector>

#include "fcal/hba/exchange_timers.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

TEST_CASE("Exchange timers expire at their deadlines; cancelled ones never do", "[hba][recovery]")
{
    std::vector<std::pair<std::uint64_t, sc_time>> expired;
    hba::ExchangeTimers timers("timers", [&](std::uint64_t key) { expired.emplace_back(key, sc_time_stamp()); });
    sc_start(sc_core::SC_ZERO_TIME);
    timers.start(sc_time(30, SC_MS), 3);
    const auto first = timers.start(sc_time(10, SC_MS), 1);
    timers.start(sc_time(20, SC_MS), 2);
    sc_start(5, SC_MS);
    timers.cancel(first);  // the earliest: the next deadline takes its place
    timers.cancel(timers.none());
    REQUIRE(timers.running() == 2);
    sc_start(40, SC_MS);
    REQUIRE(expired.size() == 2);
    CHECK(expired[0] == std::make_pair(std::uint64_t{2}, sc_time(20, SC_MS)));
    CHECK(expired[1] == std::make_pair(std::uint64_t{3}, sc_time(30, SC_MS)));
    CHECK(timers.running() == 0);
    // Cancelling the last running timer leaves nothing pending.
    const auto last = timers.start(sc_time(10, SC_MS), 4);
    REQUIRE(sc_core::sc_pending_activity());
    timers.cancel(last);
    sc_start(sc_core::SC_ZERO_TIME);
    CHECK(!sc_core::sc_pending_activity());
    CHECK(expired.size() == 2);
}
