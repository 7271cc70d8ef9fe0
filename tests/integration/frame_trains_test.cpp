// Frame trains (docs/loop.md, "Frame trains"): a port that opened a circuit sends the frames queued
// for its peer ahead, each at the instant it starts, and takes note of them when it next runs. The
// twin of each run sends every frame from a run of its own (LPort::send_trains(false)); every result
// must be the same, including runs where a LIP, a pulled disk, bit errors, a failed drive, a lost
// loop or a close timer cut trains short.
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

using Sets = std::vector<std::pair<std::string, std::string>>;

struct Outcome {
    nlohmann::json results;
    std::uint64_t activations = 0;  // port activations over the run
};

// One simulation per process (SystemC elaborates once): each run is made in a child process.
Outcome run(const Sets& sets, bool trains)
{
    const nlohmann::json doc = test::in_child([&] {
        const sim::SimConfig c = configure(sets);
        sim::StorageSystem system("system", c);
        for (unsigned l = 0; l < system.loop_count(); ++l)
            for (std::size_t p = 0; p < system.loop(l).port_count(); ++p) system.loop(l).port(p).send_trains(trains);
        sim::RunController controller(system);
        controller.run();
        nlohmann::json r = controller.results();
        std::uint64_t activations = 0;
        for (unsigned l = 0; l < system.loop_count(); ++l) activations += system.loop(l).activations();
        r.erase("wall_time_s");
        r.erase("kernel");  // how the run was computed (activations), not what was simulated
        return nlohmann::json{{"results", r}, {"activations", activations}};
    });
    return {doc["results"], doc["activations"].get<std::uint64_t>()};
}

// The same results either way; `fewer`: the trains spared port activations.
void same_either_way(const Sets& sets, bool fewer = true)
{
    const Outcome trains = run(sets, true);
    const Outcome one_by_one = run(sets, false);
    CHECK(trains.results == one_by_one.results);
    CHECK(trains.results["completed_ios"].get<double>() > 0);
    if (fewer) CHECK(trains.activations < one_by_one.activations);
}

}  // namespace

TEST_CASE("frame trains: the same results as frame by frame, reads, writes and credit", "[loop][integration]")
{
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"workload.read_fraction", "0.66"}});
    same_either_way({{"disk.count", "3"}, {"workload.measured_ios", "300"}, {"target.dma_mbs", "150"}});  // DMA slower than the loop
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"target.login_bb_credit", "2"}, {"target.incoming_buffers", "2"},
                     {"initiator.login_bb_credit", "2"}});
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"initiator.incoming_buffers", "1"}});  // one credit: trains of one
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"initiator.full_duplex", "true"}, {"target.full_duplex", "true"},
                     {"workload.read_fraction", "0.5"}});
}

TEST_CASE("frame trains: the same results with a close timer and long hops", "[loop][integration]")
{
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"target.dma_mbs", "150"}, {"target.circuit_hold_us", "5"},
                     {"initiator.circuit_hold_us", "2"}, {"workload.read_fraction", "0.5"}});
    same_either_way({{"disk.count", "4"}, {"workload.measured_ios", "300"}, {"loop.hop_m", "200"}, {"workload.read_fraction", "0.5"}});
}

TEST_CASE("frame trains: the same results when a LIP, a pulled disk, a failed drive or a lost loop cut them short", "[loop][integration]")
{
    const Sets base = {{"disk.count", "3"}, {"target.dma_mbs", "150"}, {"workload.measured_ios", "300"}};
    for (const char* at : {"30", "45.1"}) {
        Sets lip = base;
        lip.insert(lip.end(), {{"event.1.at_ms", at}, {"event.1.kind", "lip"}, {"event.1.disk", "1"}});
        same_either_way(lip);
        Sets pull = base;
        pull.insert(pull.end(), {{"event.1.at_ms", at}, {"event.1.kind", "remove"}, {"event.1.disk", "1"}});
        same_either_way(pull);
        Sets drive = base;
        drive.insert(drive.end(), {{"event.1.at_ms", at}, {"event.1.kind", "fail"}, {"event.1.disk", "1"}, {"event.1.failure", "drive"}});
        same_either_way(drive);
    }
    Sets lost = base;
    lost.insert(lost.end(), {{"loop.count", "2"}, {"event.1.at_ms", "30"}, {"event.1.kind", "loop_fail"}, {"event.1.loop", "0"}});
    same_either_way(lost);
}

TEST_CASE("frame trains: none under bit errors, and the same results", "[loop][integration]")
{
    // Word errors keep every port on the full path (LPort::plan_own_word_end): no train, as many runs.
    const Sets sets = {{"disk.count", "4"}, {"loop.ber", "1e-6"}, {"loop.al_time_us", "500"}, {"initiator.exchange_timeout_ms", "5"},
                       {"initiator.abts_timeout_ms", "5"}, {"sim.time_limit_s", "100"}, {"workload.measured_ios", "300"}};
    const Outcome trains = run(sets, true);
    const Outcome one_by_one = run(sets, false);
    CHECK(trains.results == one_by_one.results);
    CHECK(trains.activations == one_by_one.activations);
}

TEST_CASE("frame trains: none for fewer than eight frames, and the same results", "[loop][integration]")
{
    // 4 KiB reads: two data frames and the status (LPort::kTrainFrames): every frame from a run of its
    // own, as many runs either way. 16 KiB: eight data frames, and trains.
    const Sets small = {{"disk.count", "4"}, {"workload.io_size", "4K"}, {"workload.queue_depth", "4"}, {"workload.measured_ios", "300"}};
    const Outcome trains = run(small, true);
    const Outcome one_by_one = run(small, false);
    CHECK(trains.results == one_by_one.results);
    CHECK(trains.activations == one_by_one.activations);
    same_either_way({{"disk.count", "4"}, {"workload.io_size", "16K"}, {"workload.measured_ios", "300"}});
}
