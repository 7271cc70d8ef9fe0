// The I/O account (docs/model.md, "Faults and recovery: FCP recovery"), which fcal-sim checks after
// every run (exit 5 when it does not balance): it balances after a run with aborts, retries and
// failed I/Os, and it notices a request the layer below holds that the workload never issued.
#include <catch2/catch.hpp>

#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;

TEST_CASE("the I/O account balances after recovery and notices a stray request", "[integration][recovery]")
{
    // Every attempt times out (3 ms < the 3.31 ms service of a 64 KiB read): both I/Os fail.
    sim::StorageSystem system("system", test::configure({{"disk.count", "1"},
                                                         {"workload.measured_ios", "2"},
                                                         {"workload.warmup_ios", "0"},
                                                         {"initiator.exchange_timeout_ms", "3"},
                                                         {"initiator.abts_timeout_ms", "1"}}));
    const sim::RunResult run = system.run();
    REQUIRE(run.end == sim::RunEnd::Completed);
    const nlohmann::json r = system.results();
    CHECK(r["failed_ios"] == 2);
    CHECK(r["retries"] == 6);
    CHECK(system.account_violation().empty());

    // A request the workload never issued, now in the driver's arrival processing.
    hba::IoRequest stray;
    stray.target = system.disk_al_pas().front();
    stray.bytes = 512;
    system.driver().submit(&stray);
    const std::string violation = system.account_violation();
    CHECK(violation.find("the driver holds 1 requests, the workload has 0 outstanding") != std::string::npos);
}
