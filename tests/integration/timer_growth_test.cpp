// No growing kernel state (docs/kernel.md, "Timers"): over a run ten times longer,
// the model's timers make kernel notifications at a rate set by time, not by I/Os — one per timeout
// period and facility at most — and never replace a pending notification (SystemC would keep the
// replaced one in its event heap until its time). A deterministic stand-in for the kernel's heap size,
// which SystemC does not show; tools/bench.py measures the instructions per I/O at 1 s and 10 s.
#include <catch2/catch.hpp>

#include "fcal/kernel/timer_facility.hpp"
#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using sc_core::SC_SEC;
using sc_core::sc_time;

TEST_CASE("The timers' kernel notifications per I/O do not grow with the run's length", "[integration][kernel]")
{
    // Every I/O starts an exchange timer (100 ms) and cancels it about 1 ms later; every write burst
    // starts and cancels the target's data timer (also 100 ms here).
    const double timeout_s = 0.1;
    sim::StorageSystem system("system", test::configure({{"disk.count", "4"},
                                                         {"workload.read_fraction", "0.5"},
                                                         {"workload.measured_ios", "1000000"},
                                                         {"initiator.exchange_timeout_ms", "100"},
                                                         {"target.data_timeout_ms", "100"}}));
    sc_core::sc_start(sc_time(1, SC_SEC));
    std::size_t facilities = 0;
    const auto at_1s = kernel::TimerFacility::design_counters(&facilities);
    const std::uint64_t ios_1s = system.workload().completed();
    sc_core::sc_start(sc_time(9, SC_SEC));
    const auto at_10s = kernel::TimerFacility::design_counters();
    const std::uint64_t ios_10s = system.workload().completed();

    // The initiator, each target HBA, each disk, each L_Port (E_D_TOV) and the loop (the enclosure's
    // bypass detection): 1 + 4 + 4 + 5 + 1 facilities.
    REQUIRE(facilities == 15);
    REQUIRE(ios_1s > 1000);
    REQUIRE(ios_10s > 9 * ios_1s);  // the run went on at the same pace
    CHECK(system.initiator().aborts() == 0);
    // Never a notification replaced by an earlier one: no dead entry in the kernel's heap.
    CHECK(at_10s.earlier == 0);
    // At most one notification per timeout period and facility (they fire idle and re-arm), against
    // thousands of I/Os, each of which starts and cancels one or two deadlines.
    const double periods = 1.0 / timeout_s + 1;
    CHECK(static_cast<double>(at_1s.notifications) <= periods * facilities);
    CHECK(static_cast<double>(at_10s.notifications - at_1s.notifications) <= 9 * periods * facilities);
    // Per I/O, the last nine seconds cost no more than the first (within 2 %).
    const double per_io_1s = static_cast<double>(at_1s.notifications) / static_cast<double>(ios_1s);
    const double per_io_later = static_cast<double>(at_10s.notifications - at_1s.notifications) / static_cast<double>(ios_10s - ios_1s);
    CHECK(per_io_later <= per_io_1s * 1.02);
}
