// initiator.sft_engine / target.sft_engine (docs/hba.md, "Single-frame transfers"): with
// `own`, the single-frame transfers leave the DMA engines, whose busy time per I/O falls by exactly
// one single-frame transfer; the rest of each engine's work is computed here from the constants.
#include <catch2/catch.hpp>

#include <string>

#include "fcal/fcp/information_unit_sizes.hpp"
#include "fcal/sim/run_controller.hpp"
#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

// The defaults: DMA 1064 MB/s, scheduler overhead 15.5 us per transfer, single-frame transfer 20.2 us;
// 4 KiB reads in 2048-byte frames.
constexpr double kSched = 15.5e-6, kSft = 20.2e-6, kBandwidth = 1064e6, kBytes = 4096;

struct Busy {
    double ios = 0;
    double initiator_dma = 0, initiator_sft = 0;
    double target_dma = 0, target_sft = 0;  // over the disks
};

Busy run(const std::string& engine)
{
    const sim::SimConfig c = configure({{"disk.count", "2"}, {"workload.io_size", "4K"}, {"workload.measured_ios", "200"},
                                        {"initiator.sft_engine", engine}, {"target.sft_engine", engine}});
    sim::StorageSystem system("system", c);
    sim::RunController controller(system);
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    const nlohmann::json r = controller.results();
    REQUIRE(r["completed_ios"] == r["issued_ios"]);
    Busy b;
    b.ios = r["issued_ios"].get<double>();
    b.initiator_dma = system.initiator().dma().busy_s();
    b.initiator_sft = system.initiator().single_frame_transfers().busy_s();
    for (unsigned d = 0; d < 2; ++d) {
        b.target_dma += system.target(d).dma().busy_s();
        b.target_sft += system.target(d).single_frame_transfers().busy_s();
    }
    return b;
}

}  // namespace

// Initiator, per read: fetch of the FCP_CMND payload (a transfer: overhead + 32 B), the read data (one
// transfer: overhead once + 4096 B), and with `dma` the FCP_RSP's single-frame transfer.
const double kInitiatorData = 2 * kSched + (fcp::kCommandPayloadBytes + kBytes) / kBandwidth;
// Target, per read: the read data (one transfer), and with `dma` the FCP_CMND's single-frame transfer.
const double kTargetData = kSched + kBytes / kBandwidth;

TEST_CASE("sft_engine=dma: every single-frame transfer is a job of the DMA engines", "[hba][integration]")
{
    const Busy dma = run("dma");
    REQUIRE(dma.initiator_sft == 0);
    REQUIRE(dma.target_sft == 0);
    REQUIRE(dma.initiator_dma / dma.ios == Approx(kInitiatorData + kSft).epsilon(1e-6));
    REQUIRE(dma.target_dma / dma.ios == Approx(kTargetData + kSft).epsilon(1e-6));
}

TEST_CASE("sft_engine=own takes the single-frame transfers off the DMA engines", "[hba][integration]")
{
    const Busy own = run("own");
    REQUIRE(own.initiator_dma / own.ios == Approx(kInitiatorData).epsilon(1e-6));
    REQUIRE(own.initiator_sft / own.ios == Approx(kSft).epsilon(1e-6));
    REQUIRE(own.target_dma / own.ios == Approx(kTargetData).epsilon(1e-6));
    REQUIRE(own.target_sft / own.ios == Approx(kSft).epsilon(1e-6));
}
