// DECODE's volume plans (docs/model.md, "DECODE"): without free slots exactly RAID 0's plans, reads
// following the map, partial units written in place, and the controller's service estimates and loads
// from the drive's data sheet.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "fcal/controller/decode_layout.hpp"
#include "fcal/controller/disk_loads.hpp"

using namespace fcal::controller;

namespace {

constexpr std::uint64_t kUnit = 8;  // blocks per stripe unit

DriveSheet fixed_drive()
{
    DriveSheet s;
    s.zoned = false;
    s.block_bytes = 512;
    s.access_s = 0.004;
    s.media_bytes_per_s = 10e6;
    return s;
}

// DECODE's 5 400 rpm disk: 2 048 cylinders x 25 heads, 100 sectors per track everywhere.
DriveSheet decode_drive()
{
    DriveSheet s;
    s.zoned = true;
    s.block_bytes = 512;
    s.geometry.cylinders = 2048;
    s.geometry.heads = 25;
    s.geometry.sector_bytes = 512;
    s.geometry.revolution_s = 60.0 / 5400;
    s.geometry.sector_time_inner_s = s.geometry.revolution_s / 100;
    s.geometry.sector_time_outer_s = s.geometry.revolution_s / 100;
    s.seek_read_min_s = 0.002;
    s.seek_read_max_s = 0.02113;
    s.seek_write_min_s = 0.003;
    s.seek_write_max_s = 0.025;
    return s;
}

DecodeParams params(double free_fraction, unsigned area)
{
    DecodeParams p;
    p.free_fraction = free_fraction;
    p.area_units = area;
    p.threshold = 0.5;
    p.own_write = true;
    p.drive = fixed_drive();
    return p;
}

const VolumeGeometry kGeometry{RaidLevel::Raid0, 6, kUnit, kUnit * 500};

}  // namespace

TEST_CASE("decode layout: without free slots every plan is RAID 0's (random reads and writes)")
{
    DecodeLayout decode(kGeometry, params(0.0, 10));
    const RaidLayout raid0(kGeometry);
    REQUIRE(decode.blocks() == raid0.blocks());
    DiskLoads loads(6, fixed_drive());
    std::mt19937_64 random(3);
    const std::vector<std::uint64_t> idle(6, 0);
    for (int i = 0; i < 2000; ++i) {
        const bool read = random() % 4 != 0;
        const std::uint64_t blocks = 1 + random() % 64;
        const std::uint64_t lba = random() % (raid0.blocks() - blocks + 1);
        const Plan a = decode.plan(read, lba, blocks, loads);
        const Plan b = raid0.plan(read, lba, blocks, idle);
        REQUIRE(a.first == b.first);
        REQUIRE(a.second.empty());
    }
    CHECK(decode.relocations() == 0);
    CHECK(decode.in_place_writes() > 0);
    CHECK_THROWS_AS(decode.plan(true, decode.blocks() - 1, 2, loads), std::out_of_range);
}

TEST_CASE("decode layout: whole units move to the idle disk, partial units stay, reads follow the map")
{
    // 6 disks, 1/6 free: row 0's free slot is on disk 5; units 0-4 on disks 0-4.
    DecodeLayout decode(kGeometry, params(1.0 / 6, 1));
    REQUIRE(decode.map().is_free(Slot{5, 0}));
    DiskLoads loads(6, fixed_drive());
    // Load disk 2 with three outstanding commands (an own write then weighs one of them); the others
    // are idle.
    for (std::uint64_t id = 97; id < 100; ++id) loads.sent(id, MemberIo{2, true, 800, 8});
    // A write of 3 blocks inside unit 2 (partial): in place on disk 2.
    Plan p = decode.plan(false, 2 * kUnit + 1, 3, loads);
    REQUIRE(p.first.size() == 1);
    CHECK(p.first[0] == MemberIo{2, false, 1, 3});
    CHECK(decode.in_place_writes() == 1);
    // A whole-unit write of unit 2: disk 5 (idle, free slot in row 0) takes it.
    p = decode.plan(false, 2 * kUnit, kUnit, loads);
    REQUIRE(p.first.size() == 1);
    CHECK(p.first[0] == MemberIo{5, false, 0, kUnit});
    CHECK(decode.relocations() == 1);
    CHECK(decode.map().is_free(Slot{2, 0}));
    // A read of units 1-3 now touches disks 1, 5 and 3.
    p = decode.plan(true, kUnit, 3 * kUnit, loads);
    REQUIRE(p.first.size() == 3);
    CHECK(p.first[0] == MemberIo{1, true, 0, kUnit});
    CHECK(p.first[1] == MemberIo{5, true, 0, kUnit});
    CHECK(p.first[2] == MemberIo{3, true, 0, kUnit});
}

TEST_CASE("decode layout: units of one write see the loads of the pieces already placed")
{
    // Row 0 of 6 disks with 2/6 free: disks 5 and 4 free; units 0-3 on disks 0-3. Disks 0-3 busy.
    DecodeLayout decode(kGeometry, params(2.0 / 6, 1));
    DiskLoads loads(6, fixed_drive());
    for (unsigned d = 0; d < 4; ++d)
        for (unsigned k = 0; k < 3; ++k) loads.sent(100 + 10 * d + k, MemberIo{d, true, 4000, 8});
    // Units 0 and 1 written together: the first goes to disk 4 (lower of two idle disks), the second
    // then sees disk 4 loaded by it and goes to disk 5. Alone, an idle disk keeps its data in place.
    const Plan p = decode.plan(false, 0, 2 * kUnit, loads);
    REQUIRE(p.first.size() == 2);
    CHECK(p.first[0].disk == 4);
    CHECK(p.first[1].disk == 5);
    // Unit 4 is in row 1 (disks 3 and 2 free there) on disk 0.
    const Plan idle = decode.plan(false, 4 * kUnit, kUnit, DiskLoads(6, fixed_drive()));
    CHECK(idle.first == std::vector<MemberIo>{MemberIo{0, false, kUnit, kUnit}});
    // With the bare loads (own_write off) 0 <= 0.5 x 0, and the same write moves to a free slot of row
    // 1: disks 3 and 2 are free there and tie, so the lower, disk 2.
    DecodeParams bare = params(2.0 / 6, 1);
    bare.own_write = false;
    DecodeLayout moving(kGeometry, bare);
    const Plan moved = moving.plan(false, 4 * kUnit, kUnit, DiskLoads(6, fixed_drive()));
    CHECK(moved.first == std::vector<MemberIo>{MemberIo{2, false, kUnit, kUnit}});
    CHECK(moving.relocations() == 1);
}

TEST_CASE("service estimate: seek over the cylinders from the previous command, half a revolution, transfer")
{
    const DriveSheet sheet = decode_drive();
    const ServiceEstimate estimate(sheet);
    const double rev = 60.0 / 5400;
    // 2 500 sectors per cylinder (25 x 100): LBA 7 500 starts cylinder 3.
    const double r = std::sqrt(2047.0);
    const double a = (0.002 * r - 0.02113) / (r - 1), b = (0.02113 - 0.002) / (r - 1);
    const double transfer8 = 8 * rev / 100;
    CHECK(estimate.seconds(0, MemberIo{0, true, 7500, 8}) == Approx(a + b * std::sqrt(3.0) + rev / 2 + transfer8));
    CHECK(estimate.seconds(7500, MemberIo{0, true, 7600, 8}) == Approx(rev / 2 + transfer8));  // same cylinder
    const double aw = (0.003 * r - 0.025) / (r - 1), bw = (0.025 - 0.003) / (r - 1);
    CHECK(estimate.seconds(2500 * 10, MemberIo{0, false, 0, 64}) == Approx(aw + bw * std::sqrt(10.0) + rev / 2 + 64 * rev / 100));
    const ServiceEstimate fixed(fixed_drive());
    CHECK(fixed.seconds(12345, MemberIo{1, true, 0, 20}) == Approx(0.004 + 20 * 512 / 10e6));
}

TEST_CASE("service estimate: stochastic positioning takes the drive's average seek, whatever the LBAs")
{
    DriveSheet sheet = decode_drive();
    sheet.stochastic = true;
    const ServiceEstimate estimate(sheet);
    // No zoning: the distance between two uniformly random sectors has the triangular density
    // 2 (L - x) / L^2 on [0, L], L = C - 1, so E[sqrt(D)] = (8/15) sqrt(L) and the mean seek is
    // a + b (8/15) sqrt(L) (12.0 ms for this drive's reads).
    const double rev = 60.0 / 5400, r = std::sqrt(2047.0);
    const double a = (0.002 * r - 0.02113) / (r - 1), b = (0.02113 - 0.002) / (r - 1);
    const double mean_seek = a + b * 8.0 / 15.0 * r;
    CHECK(mean_seek == Approx(0.012).epsilon(0.001));
    for (std::uint64_t lba : {0ull, 7500ull, 5000000ull})
        CHECK(estimate.seconds(0, MemberIo{0, true, lba, 8}) == Approx(mean_seek + rev / 2 + 8 * rev / 100).epsilon(0.001));
}

TEST_CASE("disk loads: sums of the outstanding commands' estimates, exactly zero when idle")
{
    DiskLoads loads(2, fixed_drive());
    const double one = 0.004 + 8 * 512 / 10e6;
    loads.sent(1, MemberIo{0, true, 0, 8});
    loads.sent(2, MemberIo{0, false, 8, 8});
    loads.sent(3, MemberIo{1, true, 0, 8});
    CHECK(loads.seconds()[0] == Approx(2 * one));
    CHECK(loads.seconds()[1] == Approx(one));
    loads.completed(1);
    CHECK(loads.seconds()[0] == Approx(one));
    loads.completed(2);
    CHECK(loads.seconds()[0] == 0.0);
    CHECK_THROWS_AS(loads.completed(2), std::logic_error);
    CHECK_THROWS_AS(loads.sent(3, MemberIo{1, true, 0, 8}), std::logic_error);
}
