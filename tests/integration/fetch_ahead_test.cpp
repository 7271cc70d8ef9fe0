// Data fetched ahead (docs/hba.md, "Fetching ahead"): a disk interface whose disk does not stream
// lets its DMA engine fetch a read's frames in one activation, each queued at its port for when its
// transfer ends; the controller's HBA fetches a write burst from host memory so, each frame going
// into its FIFO, or held while the FIFO is full, when due. The twin of each run fetches frame by
// frame (fetch_reads_ahead(false), fetch_writes_ahead(false)); every result must be the same,
// including runs where exchanges are aborted, drives fail and a loop loses its signal while frames
// fetched ahead wait.
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
    std::uint64_t held = 0;    // frames the controller's HBA held for FIFO room
};

// One simulation per process (SystemC elaborates once): each run is made in a child process.
enum class Ahead { Reads, Writes };

Outcome run(const std::vector<std::pair<std::string, std::string>>& sets, bool ahead, Ahead which)
{
    const nlohmann::json doc = test::in_child([&] {
        const sim::SimConfig c = configure(sets);
        sim::StorageSystem system("system", c);
        for (unsigned l = 0; l < system.loop_count(); ++l) {
            if (which == Ahead::Writes) {
                system.initiator(l).fetch_writes_ahead(ahead);
                continue;
            }
            for (unsigned d = 0; d < c.disk_count; ++d) system.target(d, l).fetch_reads_ahead(ahead);
        }
        sim::RunController controller(system);
        controller.run();
        nlohmann::json r = controller.results();
        r.erase("wall_time_s");
        r.erase("kernel");  // how the run was computed (activations), not what was simulated
        std::uint64_t aborts = 0, held = 0;
        for (const hba::TargetHba* t : system.targets()) aborts += t->aborts_received();
        for (unsigned l = 0; l < system.loop_count(); ++l) held += system.initiator(l).frames_held();
        return nlohmann::json{{"results", r}, {"aborts", aborts}, {"held", held}};
    });
    return {doc["results"], doc["aborts"].get<std::uint64_t>(), doc["held"].get<std::uint64_t>()};
}

// The run fetching ahead, once its twin gave the same results.
Outcome same_either_way(const std::vector<std::pair<std::string, std::string>>& sets, bool expect_aborts = false, Ahead which = Ahead::Reads)
{
    const Outcome ahead = run(sets, true, which);
    const Outcome frame_by_frame = run(sets, false, which);
    CHECK(ahead.results == frame_by_frame.results);
    if (expect_aborts) CHECK(ahead.aborts > 0);  // the run took back frames fetched ahead
    CHECK(ahead.results["completed_ios"].get<double>() > 0);
    return ahead;
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

TEST_CASE("fetching writes ahead: the same results as frame by frame", "[hba][integration]")
{
    // All writes to 16 disks: the FIFO is full most of the time, and frames fetched ahead are held
    // when due (as frames fetched one by one were when fetched).
    const Outcome writes = same_either_way({{"workload.measured_ios", "200"}, {"workload.read_fraction", "0"}}, false, Ahead::Writes);
    CHECK(writes.held > 1000);
    // Writes under the normal schedule; a DMA slower than the loop (the frames wait ahead longer
    // than a frame's time on the loop); a mixed workload whose read data share the DMA engine with
    // the bursts.
    CHECK(same_either_way({{"workload.measured_ios", "200"}, {"workload.read_fraction", "0"}, {"schedule", "normal"}}, false, Ahead::Writes)
              .held > 1000);
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "200"}, {"workload.read_fraction", "0"}, {"initiator.dma_mbs", "150"}},
                    false, Ahead::Writes);
    same_either_way({{"disk.count", "8"}, {"workload.measured_ios", "200"}, {"workload.read_fraction", "0.5"}, {"initiator.dma_mbs", "300"}},
                    false, Ahead::Writes);
    // Transfers that take no time (they round to 0 ps): every frame is due as it is handed over, and
    // must still be held while the FIFO is full (it was pushed into the full FIFO: an internal error).
    CHECK(same_either_way({{"workload.measured_ios", "200"}, {"workload.read_fraction", "0"}, {"initiator.dma_sched_us", "0"},
                           {"initiator.dma_mbs", "1e10"}},
                          false, Ahead::Writes)
              .held > 1000);
    // Commands inserted ahead of the data in one FIFO, with held commands going first.
    same_either_way({{"workload.measured_ios", "200"}, {"workload.read_fraction", "0.3"}, {"cmdf.fifo", "reorder"},
                     {"initiator.tx_fifo_frames", "16"}, {"workload.queue_depth", "2"}},
                    false, Ahead::Writes);
}

TEST_CASE("fetching writes ahead: the same results when exchanges are aborted and a loop loses its signal mid-burst", "[hba][integration]")
{
    same_either_way({{"workload.read_fraction", "0"}, {"loop.ber", "1e-6"}, {"loop.al_time_us", "500"}, {"initiator.exchange_timeout_ms", "5"},
                     {"initiator.abts_timeout_ms", "5"}, {"sim.time_limit_s", "100"}, {"workload.measured_ios", "200"}},
                    true, Ahead::Writes);
    // A slow DMA keeps a burst's frames ahead for about 1.6 ms: the failure finds some not yet due.
    for (const char* at : {"30", "45.1"})
        same_either_way({{"disk.count", "3"}, {"loop.count", "2"}, {"workload.read_fraction", "0"}, {"initiator.dma_mbs", "40"},
                         {"workload.measured_ios", "200"}, {"event.1.at_ms", at}, {"event.1.kind", "loop_fail"}, {"event.1.loop", "0"}},
                        false, Ahead::Writes);
    // The loop comes back while frames of the exchanges it ended were still ahead: those must never
    // go out (without LPort::withdraw_ahead in InitiatorHba::drop_exchanges they do, late frames at
    // the targets: checked).
    same_either_way({{"loop.count", "2"}, {"workload.read_fraction", "0"}, {"initiator.dma_mbs", "40"}, {"workload.measured_ios", "400"},
                     {"event.1.at_ms", "30"}, {"event.1.kind", "loop_fail"}, {"event.1.loop", "0"}, {"event.2.at_ms", "30.5"},
                     {"event.2.kind", "loop_restore"}, {"event.2.loop", "0"}},
                    false, Ahead::Writes);
    // With the FIFO full: frames held and frames due when the link goes.
    CHECK(same_either_way({{"loop.count", "2"}, {"workload.read_fraction", "0"}, {"workload.measured_ios", "200"}, {"event.1.at_ms", "40"},
                           {"event.1.kind", "loop_fail"}, {"event.1.loop", "0"}},
                          false, Ahead::Writes)
              .held > 0);
}
