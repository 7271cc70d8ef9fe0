// Read data fetched ahead (docs/hba.md, "Fetching ahead"): a disk interface whose disk does not
// stream lets its DMA engine fetch a read's frames in one activation, each queued at its port for
// when its transfer ends. The twin of each run fetches frame by frame (fetch_reads_ahead(false));
// every result must be the same, including runs where exchanges are aborted, drives fail and a loop
// loses its signal while frames fetched ahead wait.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "fcal/sim/run_controller.hpp"
#include "fcal/sim/storage_system.hpp"
#include "child_run.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

struct Outcome {
    nlohmann::json results;
    std::uint64_t aborts = 0;  // ABTS the targets received
};

// One simulation per process (SystemC elaborates once): each run is made in a child process.
Outcome run(const std::vector<std::pair<std::string, std::string>>& sets, bool ahead)
{
    const nlohmann::json doc = test::in_child([&] {
        const sim::SimConfig c = configure(sets);
        sim::StorageSystem system("system", c);
        for (unsigned l = 0; l < system.loop_count(); ++l)
            for (unsigned d = 0; d < c.disk_count; ++d) system.target(d, l).fetch_reads_ahead(ahead);
        sim::RunController controller(system);
        controller.run();
        nlohmann::json r = controller.results();
        r.erase("wall_time_s");
        r.erase("kernel");  // how the run was computed (activations), not what was simulated
        std::uint64_t aborts = 0;
        for (const hba::TargetHba* t : system.targets()) aborts += t->aborts_received();
        return nlohmann::json{{"results", r}, {"aborts", aborts}};
    });
    return {doc["results"], doc["aborts"].get<std::uint64_t>()};
}

void same_either_way(const std::vector<std::pair<std::string, std::string>>& sets, bool expect_aborts = false)
{
    const Outcome ahead = run(sets, true);
    const Outcome frame_by_frame = run(sets, false);
    CHECK(ahead.results == frame_by_frame.results);
    if (expect_aborts) CHECK(ahead.aborts > 0);  // the run took back frames fetched ahead
    CHECK(ahead.results["completed_ios"].get<double>() > 0);
}

}  // namespace

TEST_CASE("fetching ahead: the same results as frame by frame, reads and writes", "[hba][integration]")
{
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"workload.read_fraction", "0.66"}});
    same_either_way({{"disk.count", "3"}, {"workload.measured_ios", "300"}, {"target.dma_mbs", "150"}});  // DMA slower than the loop
}

TEST_CASE("fetching ahead: the same results when exchanges are aborted mid-read", "[hba][integration]")
{
    same_either_way({{"disk.count", "4"}, {"loop.ber", "1e-6"}, {"loop.al_time_us", "500"}, {"initiator.exchange_timeout_ms", "5"},
                     {"initiator.abts_timeout_ms", "5"}, {"sim.time_limit_s", "100"}, {"workload.measured_ios", "300"}},
                    true);
}

TEST_CASE("fetching ahead: the same results when a drive fails and a loop loses its signal", "[hba][integration]")
{
    // A DMA slower than the loop keeps a read's frames ahead for about 1.6 ms: the failure finds
    // some of them not yet due, and the port must drop those (LPort::withdraw_ahead: without that call
    // in TargetHba::drop, one of these runs differs from its twin).
    for (const char* at : {"30", "45.1"})
        same_either_way({{"disk.count", "3"}, {"target.dma_mbs", "40"}, {"workload.measured_ios", "300"}, {"event.1.at_ms", at},
                         {"event.1.kind", "fail"}, {"event.1.disk", "1"}, {"event.1.failure", "drive"}});
    same_either_way({{"disk.count", "3"}, {"loop.count", "2"}, {"target.dma_mbs", "40"}, {"workload.measured_ios", "300"},
                     {"event.1.at_ms", "30"}, {"event.1.kind", "loop_fail"}, {"event.1.loop", "0"}});
}
