// TASK SET FULL end to end: a disk with fewer queue slots than the I/Os the controller keeps at it
// refuses the extra commands; the target HBA answers TASK SET FULL, the initiator holds each and
// issues it again, and no I/O is lost (docs/model.md, "The disks", "The HBAs").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

TEST_CASE("A full task set is answered TASK SET FULL and the initiator retries until every I/O is done", "[disk][validation]")
{
    const sim::SimConfig c = configure({{"disk.count", "2"},
                                        {"disk.queue_slots", "1"},
                                        {"workload.queue_depth", "4"},
                                        {"workload.io_size", "4K"},
                                        {"workload.read_fraction", "0.5"},
                                        {"workload.measured_ios", "400"}});
    sim::StorageSystem system("system", c);
    const sim::RunResult run = system.run();
    REQUIRE(run.end == sim::RunEnd::Completed);
    const nlohmann::json r = system.results();
    REQUIRE(r["completed_ios"] == r["issued_ios"]);
    REQUIRE(r["outstanding_ios"] == 0);
    const std::uint64_t retries = r["task_set_full_retries"];
    // Four I/Os per disk and one slot: three of them find it taken at the start alone.
    REQUIRE(retries >= 2 * 3);
    std::uint64_t refused = 0, refused_by_hbas = 0;
    for (unsigned d = 0; d < 2; ++d) {
        refused += system.disk_model(d).stats().commands_rejected;
        refused_by_hbas += system.target(d).task_set_full();
        REQUIRE(system.disk_model(d).stats().max_queue == 1);  // nothing queued beyond the slot
        REQUIRE(system.target(d).open_exchanges() == 0);
    }
    REQUIRE(refused == retries);
    REQUIRE(refused_by_hbas == retries);
    REQUIRE(r["disk_mechanics"]["task_set_full"] == retries);
    // One slot: each disk serves one command at a time, so it completes at most 1 / service per second.
    const double service_s = 2e-3 + 4096 / 50e6;
    REQUIRE(r["iops"].get<double>() <= 2 / service_s);
}

TEST_CASE("Enough queue slots: no TASK SET FULL", "[disk][validation]")
{
    const sim::SimConfig c = configure({{"disk.count", "2"},
                                        {"disk.queue_slots", "4"},
                                        {"workload.queue_depth", "4"},
                                        {"workload.io_size", "4K"},
                                        {"workload.measured_ios", "200"}});
    sim::StorageSystem system("system", c);
    REQUIRE(system.run().end == sim::RunEnd::Completed);
    REQUIRE(system.results()["task_set_full_retries"] == 0);
    REQUIRE(system.disk_model(0).stats().max_queue == 4);
}
