// The I/O account (docs/faults.md, "FCP recovery"), which fcal-sim checks after
// every run (exit 5 when it does not balance): it balances after a run with aborts, retries and
// failed I/Os, and it notices a request the layer below holds that the workload never issued.
#include <catch2/catch.hpp>

#include "fcal/sim/run_controller.hpp"
#include "child_run.hpp"
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
    sim::RunController controller(system);
    const sim::RunResult run = controller.run();
    REQUIRE(run.end == sim::RunEnd::Completed);
    const nlohmann::json r = controller.results();
    CHECK(r["failed_ios"] == 2);
    CHECK(r["retries"] == 6);
    CHECK(controller.account_violation().empty());

    // A request the workload never issued, now in the driver's arrival processing.
    hba::IoRequest stray;
    stray.target = system.disk_al_pas().front();
    stray.bytes = 512;
    system.driver().submit(&stray);
    const std::string violation = controller.account_violation();
    CHECK(violation.find("the driver holds 1 requests, the workload has 0 outstanding") != std::string::npos);
}

TEST_CASE("a write whose drive fails while its XFER_RDY is handled fails with the drive's reason", "[integration][recovery]")
{
    // The disk interface answers a burst's XFER_RDY, then, its drive failed, ends the exchange with
    // CHECK CONDITION before the controller's processor has handled the XFER_RDY: no data go, and
    // the I/O fails (the processor used to build the burst's frames for the completed exchange and
    // the run ended on an internal error).
    sim::StorageSystem system("system", test::configure({{"disk.count", "2"},
                                                         {"workload.read_fraction", "0"},
                                                         {"target.burst_bytes", "2K"},
                                                         {"event.0.kind", "fail"},
                                                         {"event.0.at_ms", "12"},
                                                         {"event.0.disk", "1"},
                                                         {"workload.measured_ios", "100"}}));
    sim::RunController controller(system);
    const sim::RunResult run = controller.run();
    REQUIRE(run.end == sim::RunEnd::Completed);
    const nlohmann::json r = controller.results();
    CHECK(r["failed_ios"] == 1);
    CHECK(controller.account_violation().empty());
}

TEST_CASE("a write answered while its burst is still being fetched ends with the answer", "[integration][recovery]")
{
    // The controller's DMA engine is slow (20 MB/s: 3.3 ms per 64 KiB burst) and disk 1's drive fails
    // at 12 ms, while a burst for it is being fetched: the disk interface ends the write with CHECK
    // CONDITION, and the rest of the burst never goes. The I/O used to wait for its response for
    // ever (the response waited for DMA jobs that only read data end with), and the run never ended.
    // Fetched ahead and frame by frame alike.
    for (const bool ahead : {true, false}) {
        INFO("fetched ahead: " << ahead);
        const nlohmann::json r = test::in_child([ahead] {
            sim::StorageSystem system("system", test::configure({{"disk.count", "2"},
                                                                 {"workload.read_fraction", "0"},
                                                                 {"initiator.dma_mbs", "20"},
                                                                 {"event.0.kind", "fail"},
                                                                 {"event.0.at_ms", "12"},
                                                                 {"event.0.disk", "1"},
                                                                 {"workload.measured_ios", "100"},
                                                                 {"sim.time_limit_s", "2"}}));
            system.initiator(0).fetch_writes_ahead(ahead);
            sim::RunController controller(system);
            const sim::RunResult run = controller.run();
            nlohmann::json out = controller.results();
            out["completed_run"] = run.end == sim::RunEnd::Completed;
            out["violation"] = controller.account_violation();
            return out;
        });
        CHECK(r["completed_run"] == true);
        CHECK(r["failed_ios"] == 1);
        CHECK(r["violation"] == "");
    }
}
