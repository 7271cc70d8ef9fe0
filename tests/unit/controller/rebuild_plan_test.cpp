// Rebuild rounds (docs/model.md, "The storage controller: degraded mode and rebuild") and the
// capacity used on each member.
#include <catch2/catch.hpp>

#include "fcal/controller/rebuild_plan.hpp"

using namespace fcal::controller;

TEST_CASE("rebuild plan: raid5 reads the n-1 others and writes the member, round by round to the used capacity")
{
    const VolumeGeometry g{RaidLevel::Raid5, 5, 128, 128 * 10 + 7};  // 10 whole rows; 7 blocks unused
    const RebuildPlan plan(g, 2, 3 * 128);
    CHECK(plan.member_blocks() == 1280);
    REQUIRE(plan.rounds() == 4);  // 3 + 3 + 3 + 1 rows
    std::uint64_t next = 0;
    for (std::uint64_t i = 0; i < plan.rounds(); ++i) {
        const RebuildRound r = plan.round(i);
        CHECK(r.lba == next);
        CHECK(r.write == MemberIo{2, false, r.lba, r.blocks});
        CHECK(r.reads == std::vector<MemberIo>{{0, true, r.lba, r.blocks}, {1, true, r.lba, r.blocks}, {3, true, r.lba, r.blocks},
                                               {4, true, r.lba, r.blocks}});
        CHECK(r.first_row == r.lba / 128);
        CHECK(r.last_row == (r.lba + r.blocks - 1) / 128);
        next += r.blocks;
    }
    CHECK(next == 1280);
    CHECK(plan.round(3).blocks == 128);
    CHECK_THROWS(plan.round(4));
}

TEST_CASE("rebuild plan: raid1 copies from the other member of the pair; a round may be part of a row")
{
    const RebuildPlan plan(VolumeGeometry{RaidLevel::Raid1, 4, 128, 256}, 3, 64);
    REQUIRE(plan.rounds() == 4);
    const RebuildRound r = plan.round(1);
    CHECK(r.reads == std::vector<MemberIo>{{2, true, 64, 64}});
    CHECK(r.write == MemberIo{3, false, 64, 64});
    CHECK((r.first_row == 0 && r.last_row == 0));
    CHECK(RebuildPlan(VolumeGeometry{RaidLevel::Raid1, 4, 128, 256}, 0, 64).round(0).reads.front().disk == 1);
}

TEST_CASE("rebuild plan: no redundancy or no I/O size is refused")
{
    CHECK_THROWS(RebuildPlan(VolumeGeometry{RaidLevel::Raid0, 4, 128, 256}, 0, 64));
    CHECK_THROWS(RebuildPlan(VolumeGeometry{RaidLevel::Raid5, 4, 128, 256}, 0, 0));
    CHECK_THROWS(RebuildPlan(VolumeGeometry{RaidLevel::Raid5, 4, 128, 256}, 4, 64));
}

TEST_CASE("member capacity: the blocks used on each member, from LBA 0, no more than the drive")
{
    const std::uint64_t drive = 1'000'000;  // blocks of 512 bytes
    CHECK(used_member_blocks(drive, 0, 512, 128) == drive);
    CHECK(used_member_blocks(drive, 100'000'000, 512, 128) == 195'312);  // 10^8 / 512, rounded down
    CHECK(used_member_blocks(drive, drive * 512, 512, 128) == drive);
    CHECK_THROWS_WITH(used_member_blocks(drive, drive * 512 + 512, 512, 128),
                      "volume member capacity of 512000512 bytes exceeds the member drive's 512000000 bytes");
    CHECK_THROWS_WITH(used_member_blocks(drive, 60'000, 512, 128),
                      "volume member capacity of 60000 bytes is less than one stripe unit (65536 bytes)");
    // The layout then uses whole rows of it.
    const VolumeGeometry g{RaidLevel::Raid5, 9, 128, used_member_blocks(drive, 100'000'000, 512, 128)};
    CHECK(volume_blocks(g) == 195'312 / 128 * 128 * 8);
}
