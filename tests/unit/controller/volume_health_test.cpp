// The volume's state machine (docs/model.md, "The storage controller: degraded mode and rebuild"):
// optimal -> degraded -> rebuilding -> optimal, failed when a member goes with no redundancy left;
// spares taken in order, a failed rebuild target sends its member back to the queue, an inserted
// disk becomes a spare.
#include <catch2/catch.hpp>

#include "fcal/controller/volume_health.hpp"

using namespace fcal::controller;

TEST_CASE("volume health: raid5 optimal, degraded, rebuilding onto the first spare, optimal again")
{
    VolumeHealth h(RaidLevel::Raid5, 9, 1);  // 8+P+S: disks 0-8 members, disk 9 the spare
    CHECK(h.state() == VolumeState::Optimal);
    CHECK(h.spares() == 1);
    CHECK_FALSE(h.can_rebuild());
    CHECK(h.disk_failed(4, "failed") == DiskLoss::Member);
    CHECK(h.state() == VolumeState::Degraded);
    CHECK(h.degradation().missing(4, 0));
    CHECK(h.failures() == std::vector<std::string>{"disk 4 (member 4): failed"});
    REQUIRE(h.can_rebuild());
    CHECK(h.start_rebuild() == 4);
    CHECK(h.disk_of(4) == 9);
    CHECK(h.state() == VolumeState::Rebuilding);
    CHECK(h.spares() == 0);
    h.rebuilt_rows(10);
    CHECK_FALSE(h.degradation().missing(4, 9));
    CHECK(h.degradation().missing(4, 10));
    h.rebuild_done();
    CHECK(h.state() == VolumeState::Optimal);
    CHECK_FALSE(h.degradation().any_missing());
    CHECK(h.disk_of(4) == 9);
    // Disk 4 back (a new drive): a spare, and the volume can lose another member and rebuild.
    h.disk_inserted(4);
    CHECK(h.spares() == 1);
    CHECK(h.disk_failed(9, "removed") == DiskLoss::Member);
    CHECK(h.failures().back() == "disk 9 (member 4): removed");
    CHECK(h.start_rebuild() == 4);
    CHECK(h.disk_of(4) == 4);
}

TEST_CASE("volume health: a second raid5 failure before the rebuild ends loses the data, named")
{
    VolumeHealth h(RaidLevel::Raid5, 5, 1);
    h.disk_failed(1, "failed at 1 ms");
    h.start_rebuild();
    h.rebuilt_rows(3);
    CHECK(h.disk_failed(3, "failed at 2 ms") == DiskLoss::DataLost);
    CHECK(h.state() == VolumeState::Failed);
    CHECK(h.data_lost());
    CHECK(h.lost() == "raid5 member 3 (disk 3: failed at 2 ms) failed while member 1 was being rebuilt");
    CHECK(h.failures().size() == 2);
    CHECK_FALSE(h.can_rebuild());
    CHECK_FALSE(h.rebuilding());
    // Without a spare: missing rather than being rebuilt.
    VolumeHealth g(RaidLevel::Raid5, 4, 0);
    g.disk_failed(0, "failed");
    CHECK(g.disk_failed(2, "removed") == DiskLoss::DataLost);
    CHECK(g.lost() == "raid5 member 2 (disk 2: removed) failed while member 0 was missing");
}

TEST_CASE("volume health: raid1 survives one failure per pair, not both copies; raid0 none")
{
    VolumeHealth h(RaidLevel::Raid1, 4, 0);  // pairs (0,1), (2,3)
    CHECK(h.disk_failed(0, "failed") == DiskLoss::Member);
    CHECK(h.disk_failed(3, "failed") == DiskLoss::Member);
    CHECK(h.state() == VolumeState::Degraded);
    CHECK(h.disk_failed(1, "failed") == DiskLoss::DataLost);
    CHECK(h.lost() == "raid1 member 1 (disk 1: failed) failed while member 0 was missing");

    VolumeHealth r0(RaidLevel::Raid0, 3, 0);
    CHECK(r0.disk_failed(2, "removed") == DiskLoss::DataLost);
    CHECK(r0.lost() == "raid0 has no redundancy: member 2 (disk 2: removed) is lost");
}

TEST_CASE("volume health: spares and rebuild targets that fail; the order of rebuilds")
{
    VolumeHealth h(RaidLevel::Raid1, 4, 2);  // spares: disks 4, 5
    CHECK(h.disk_failed(5, "failed") == DiskLoss::Spare);
    CHECK(h.spares() == 1);
    CHECK(h.state() == VolumeState::Optimal);
    h.disk_failed(2, "failed");
    h.disk_failed(1, "failed");
    CHECK(h.start_rebuild() == 2);  // the first to fail
    CHECK(h.disk_of(2) == 4);
    CHECK(h.disk_failed(4, "failed") == DiskLoss::RebuildTarget);
    CHECK(h.failures().back() == "disk 4 (spare being rebuilt as member 2): failed");
    CHECK(h.state() == VolumeState::Degraded);
    CHECK(h.degradation().missing(2, 0));
    CHECK_FALSE(h.can_rebuild());  // no spare left
    h.disk_inserted(5);
    CHECK(h.start_rebuild() == 2);  // still first in line
    CHECK(h.disk_of(2) == 5);
    h.rebuild_abandoned("member disk 3: timeout");
    CHECK(h.rebuild_failure() == "rebuild of member 2 abandoned: member disk 3: timeout");
    CHECK(h.spares() == 1);
    CHECK_FALSE(h.can_rebuild());  // not again until a disk event
    h.disk_inserted(4);
    CHECK(h.can_rebuild());
}

TEST_CASE("volume health: disk events that make no sense are refused")
{
    VolumeHealth h(RaidLevel::Raid5, 3, 1);
    CHECK_THROWS_WITH(h.disk_failed(4, "failed"), "volume: no disk 4");
    h.disk_failed(0, "failed");
    CHECK_THROWS_WITH(h.disk_failed(0, "failed"), "volume: disk 0 is already gone");
    CHECK_THROWS_WITH(h.disk_inserted(1), "volume: disk 1 is in place (only a failed or removed disk can be replaced)");
    CHECK_THROWS_WITH(h.disk_inserted(7), "volume: no disk 7");
    CHECK_THROWS(h.rebuild_done());
}
