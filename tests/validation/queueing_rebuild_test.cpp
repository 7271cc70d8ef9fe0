// An idle RAID 5 rebuild (docs/controller.md, "Degraded mode and rebuild") with
// real disk models behind the ideal transport, built here without the simulator's parameter table
// (the volume.* rebuild keys come with the simulator's wiring). The rebuild is a pipeline of two
// stages, the survivors' reads (side by side) and the spare's write, each round one command per disk
// of access + size / media rate; with rounds in flight the slower stage never idles, so the rebuild
// takes the used capacity over the bottleneck's rate: the rate cap, or the disks' effective rate
// size / (access + size / media rate). Within 2 %, as the issue asks; the exact figure adds one
// round of the other stage.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "fcal/controller/ideal_transport.hpp"
#include "fcal/controller/kernel_timer.hpp"
#include "fcal/controller/volume_controller.hpp"
#include "fcal/disk/disk.hpp"

using namespace fcal;

namespace {

constexpr unsigned kMembers = 9, kSpares = 1;  // 8+P+S
constexpr std::uint64_t kUnitBlocks = 128;     // 64 KiB
constexpr std::uint64_t kRows = 300;           // 19.7 MB used on each member
constexpr double kMediaRate = 50e6;

// Runs an idle rebuild of member 2 onto the spare; returns the rebuild time in seconds.
double idle_rebuild_s(double access_s, double cap_bytes_per_s)
{
    disk::DiskParams dp;
    dp.model = disk::DiskModel::Fixed;
    dp.queue_slots = 16;
    dp.access_time_s = access_s;
    dp.access_dist = disk::AccessDist::Constant;
    dp.media_rate_bytes_per_s = kMediaRate;
    std::vector<std::unique_ptr<disk::Disk>> disks;
    controller::IdealTransport transport("ideal", kMembers + kSpares);
    for (unsigned d = 0; d < kMembers + kSpares; ++d) {
        dp.seed = d + 1;
        disks.push_back(std::make_unique<disk::Disk>(("disk" + std::to_string(d)).c_str(), dp));
        transport.disk(d).bind(disks.back()->socket);
    }
    controller::KernelTimer timer("volume_timer");
    controller::VolumeParams vp;
    vp.geometry = {controller::RaidLevel::Raid5, kMembers, kUnitBlocks, kUnitBlocks * kRows};
    vp.split_merge = controller::SplitMerge::ForkJoin;
    vp.block_bytes = 512;
    for (unsigned d = 0; d < kMembers + kSpares; ++d) (d < kMembers ? vp.member_al_pas : vp.spare_al_pas).push_back(static_cast<phy::AlPa>(0x10 + d));
    vp.rebuild = {0.0, cap_bytes_per_s, kUnitBlocks * 512, 4};
    controller::VolumeController volume(vp, transport, timer);
    volume.disk_failed(2, "failed");
    sc_core::sc_start();
    REQUIRE(volume.state() == controller::VolumeState::Optimal);
    CHECK(volume.rebuild()->bytes_written() == kRows * kUnitBlocks * 512);
    for (unsigned d = 0; d < kMembers + kSpares; ++d) {
        const auto& s = disks[d]->stats();
        INFO("disk " << d);
        CHECK(s.reads_served == (d == 2 || d == 9 ? 0u : kRows));
        CHECK(s.writes_served == (d == 9 ? kRows : 0u));
    }
    return volume.rebuild()->time_of_completed().to_seconds();
}

const double kRoundBytes = kUnitBlocks * 512.0;
const double kCapacity = kRows * kRoundBytes;

}  // namespace

TEST_CASE("idle rebuild as fast as it goes: capacity over the disks' media rate", "[validation][rebuild]")
{
    const double t = idle_rebuild_s(0.0, 0.0);
    CHECK(t == Approx(kCapacity / kMediaRate).epsilon(0.02));
    CHECK(t == Approx((kRows + 1) * kRoundBytes / kMediaRate).epsilon(1e-9));
}

TEST_CASE("idle rebuild with an access time: capacity over the effective rate", "[validation][rebuild]")
{
    const double access = 2e-3;
    const double per_round = access + kRoundBytes / kMediaRate;
    const double t = idle_rebuild_s(access, 0.0);
    CHECK(t == Approx(kCapacity / (kRoundBytes / per_round)).epsilon(0.02));
    CHECK(t == Approx((kRows + 1) * per_round).epsilon(1e-9));
}

TEST_CASE("idle rebuild under a rate cap below the disks': capacity over the cap", "[validation][rebuild]")
{
    const double cap = 20e6;
    const double t = idle_rebuild_s(0.0, cap);
    CHECK(t == Approx(kCapacity / cap).epsilon(0.02));
    CHECK(t == Approx((kRows - 1) * kRoundBytes / cap + 2 * kRoundBytes / kMediaRate).epsilon(1e-9));
}
