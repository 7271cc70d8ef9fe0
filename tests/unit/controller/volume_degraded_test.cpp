// The controller in degraded mode (docs/model.md, "The storage controller: degraded mode and
// rebuild") over fake disks whose timing the test sets: member I/O counts of degraded reads and
// writes as the table says, RAID 1 served by the survivor, commands in flight to a disk that fails
// planned again or left out, never lost or completed twice, and a volume with no redundancy left
// failing every later request with the reason.
#include <catch2/catch.hpp>

#include <set>

#include "volume_bench.hpp"

using namespace fcal;
using namespace fcal::controller;
using namespace fcal::test;
using namespace sc_core;

namespace {

std::set<unsigned> disks_of(const std::vector<FakeDisks::Sent>& sent)
{
    std::set<unsigned> d;
    for (const auto& s : sent) d.insert(s.disk);
    return d;
}

}  // namespace

TEST_CASE("volume degraded: a raid5 read of the failed member costs exactly n-1 reads, one per survivor")
{
    VolumeShape shape;
    shape.members = 9;  // 8+P
    shape.rows = 20;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    const unsigned gone = 4;
    b.volume.disk_failed(gone, "failed");
    CHECK(b.volume.state() == VolumeState::Degraded);
    const auto& layout = b.volume.layout();
    std::uint64_t on_gone = 0;
    for (std::uint64_t unit = 0; unit < 8 * shape.rows; ++unit) {
        const std::uint64_t lba = unit * shape.unit_blocks;
        const controller::MemberIo at = layout.locate(lba);
        const std::size_t from = b.disks.sent.size();
        b.submit(true, lba, 64 * 1024);
        const auto sent = b.sent_since(from);
        INFO("unit " << unit);
        if (at.disk != gone) {
            REQUIRE(sent.size() == 1);
            CHECK(sent[0].disk == at.disk);
            continue;
        }
        ++on_gone;
        REQUIRE(sent.size() == shape.members - 1);
        std::set<unsigned> expected;
        for (unsigned d = 0; d < shape.members; ++d)
            if (d != gone) expected.insert(d);
        CHECK(disks_of(sent) == expected);
        for (const auto& s : sent) CHECK((s.read && s.lba == at.lba && s.bytes == 64 * 1024));
    }
    // Member 4 holds a data unit in every row but those whose parity it holds (n-1 - row mod n = 4).
    std::uint64_t rows_with_data_on_gone = 0;
    for (std::uint64_t row = 0; row < shape.rows; ++row) rows_with_data_on_gone += shape.members - 1 - row % shape.members != gone;
    CHECK(on_gone == rows_with_data_on_gone);
    b.time.run();
    CHECK(b.volume.statistics().degraded_reads() == on_gone);
    // Every read, reconstructed or not, takes one service time: its commands run side by side.
    CHECK(b.volume.statistics().completed(VolumePhase::Degraded) == 8 * shape.rows);
    CHECK(b.volume.statistics().mean_s(VolumePhase::Degraded) == Approx(1e-3).epsilon(1e-12));
    CHECK(b.volume.statistics().p99_s(VolumePhase::Degraded) == Approx(1e-3).epsilon(1e-12));
    b.check_account();
}

TEST_CASE("volume degraded: raid5 small writes cost what the table says, the phases in order")
{
    VolumeShape shape;
    shape.members = 5;
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    const auto& layout = b.volume.layout();
    const std::uint64_t row = 2;
    const unsigned parity = layout.parity_disk(row);  // 5-1 - 2 = 2
    const std::uint64_t lba0 = row * 4 * shape.unit_blocks;  // column 0 of row 2: disk (parity + 1) mod 5
    const unsigned column0 = layout.locate(lba0).disk;
    REQUIRE(parity == 2);
    REQUIRE(column0 == 3);
    b.volume.disk_failed(column0, "removed");

    // The written member is gone: read the n-2 other data units, then write the parity alone.
    std::size_t from = b.disks.sent.size();
    b.submit(false, lba0 + 8, 4096);
    auto sent = b.sent_since(from);
    REQUIRE(sent.size() == 3);
    for (const auto& s : sent) CHECK((s.read && s.disk != parity && s.disk != column0));
    b.time.run_until(sc_time(1, SC_MS));
    sent = b.sent_since(from + 3);
    REQUIRE(sent.size() == 1);
    CHECK((!sent[0].read && sent[0].disk == parity && sent[0].at == sc_time(1, SC_MS)));
    b.time.run();
    CHECK(b.time.now() == sc_time(2, SC_MS));  // two phases of one service time

    // Another member's unit in the same row: read-modify-write as usual (2 reads, 2 writes).
    from = b.disks.sent.size();
    b.submit(false, lba0 + shape.unit_blocks, 4096);
    b.time.run();
    sent = b.sent_since(from);
    CHECK(sent.size() == 4);
    // A row whose parity member is gone (row 1: parity on disk 3): the data alone, one phase.
    from = b.disks.sent.size();
    b.submit(false, 1 * 4 * shape.unit_blocks, 4096);
    sent = b.sent_since(from);
    REQUIRE(sent.size() == 1);
    CHECK(!sent[0].read);
    b.time.run();
    CHECK(b.volume.statistics().degraded_writes() == 3);  // every write to a row with a member missing
    b.check_account();
}

TEST_CASE("volume degraded: raid1 reads and writes go to the survivor, however busy it is")
{
    VolumeShape shape;
    shape.level = RaidLevel::Raid1;
    shape.members = 4;  // pairs (0,1), (2,3)
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    b.volume.disk_failed(0, "failed");
    for (int i = 0; i < 6; ++i) b.submit(true, 8 * i, 4096);  // unit 0: pair (0,1)
    b.submit(false, 0, 4096);
    for (int i = 0; i < 4; ++i) b.submit(true, shape.unit_blocks, 4096);  // unit 1: pair (2,3)
    REQUIRE(b.disks.sent.size() == 11);
    for (int i = 0; i < 7; ++i) CHECK(b.disks.sent[i].disk == 1);
    CHECK(!b.disks.sent[6].read);
    // The healthy pair still balances its reads.
    CHECK(b.disks.sent[7].disk == 2);
    CHECK(b.disks.sent[8].disk == 3);
    b.time.run();
    CHECK(b.volume.statistics().degraded_reads() == 6);
    CHECK(b.volume.statistics().degraded_writes() == 1);
    b.check_account();
}

TEST_CASE("volume degraded: a read in flight to a disk that fails is planned again at once; the lost command is awaited and ignored")
{
    VolumeShape shape;  // raid5, 5 members
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    const controller::MemberIo at = b.volume.layout().locate(0);
    b.disks.kill(at.disk, sc_time(30, SC_MS));  // it holds what it gets, failing it after 30 ms
    hba::IoRequest& r = b.submit(true, 0, 4096);
    b.time.run_until(sc_time(500, SC_US));
    CHECK(b.disks.sent.size() == 1);
    b.volume.disk_failed(at.disk, "failed");
    CHECK(b.volume.lost_commands_out() == 1);
    const auto sent = b.sent_since(1);
    REQUIRE(sent.size() == 4);  // the row's XOR
    for (const auto& s : sent) CHECK((s.disk != at.disk && s.at == sc_time(500, SC_US)));
    b.time.run_until(sc_time(2, SC_MS));
    CHECK(b.completions.at(r.id) == 1);
    CHECK_FALSE(r.failed());
    CHECK(r.completed == sc_time(1500, SC_US));
    b.time.run();  // the dead disk's answer at 30 ms changes nothing
    CHECK(b.time.now() == sc_time(30, SC_MS));
    CHECK(b.completions.at(r.id) == 1);
    b.check_account();
}

TEST_CASE("volume degraded: a write whose write to a failing member is lost completes from the other members")
{
    VolumeShape shape;
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    const controller::MemberIo at = b.volume.layout().locate(0);  // row 0: parity on disk 4, unit 0 on disk 0
    REQUIRE(at.disk == 0);
    hba::IoRequest& w = b.submit(false, 0, 4096);  // read-modify-write: reads at 0, writes at 1 ms
    // The disk dies after the reads were served, before the writes arrive.
    b.time.at(sc_time(900, SC_US), [&] { b.disks.kill(0, sc_time(30, SC_MS)); });
    b.time.at(sc_time(1500, SC_US), [&] { b.volume.disk_failed(0, "failed"); });
    b.time.run_until(sc_time(2, SC_MS));
    REQUIRE(b.disks.sent.size() == 4);
    CHECK(b.completions.at(w.id) == 1);
    CHECK_FALSE(w.failed());
    CHECK(w.completed == sc_time(2, SC_MS));  // the parity's write: the new data is in the parity
    b.time.run();
    b.check_account();
}

TEST_CASE("volume degraded: a write whose read is lost is planned again as a degraded write")
{
    VolumeShape shape;
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    b.disks.kill(0, sc_time(30, SC_MS));
    hba::IoRequest& w = b.submit(false, 0, 4096);  // reads disk 0 (held) and the parity, disk 4
    b.time.run_until(sc_time(500, SC_US));
    b.volume.disk_failed(0, "failed");  // the parity read is still out: wait for it
    CHECK(b.disks.sent.size() == 2);
    b.time.run_until(sc_time(1, SC_MS));
    // Planned again at 1 ms: the other data units of the row (disks 1, 2, 3), then the parity.
    auto sent = b.sent_since(2);
    REQUIRE(sent.size() == 3);
    CHECK(disks_of(sent) == std::set<unsigned>{1, 2, 3});
    b.time.run_until(sc_time(3, SC_MS));
    sent = b.sent_since(5);
    REQUIRE(sent.size() == 1);
    CHECK((!sent[0].read && sent[0].disk == 4 && sent[0].at == sc_time(2, SC_MS)));
    CHECK(w.completed == sc_time(3, SC_MS));
    CHECK_FALSE(w.failed());
    b.time.run();
    b.check_account();
}

TEST_CASE("volume degraded: raid0 loses its data with a member; every later request fails naming it")
{
    VolumeShape shape;
    shape.level = RaidLevel::Raid0;
    shape.members = 3;
    shape.rows = 10;
    VolumeBench b(shape, sc_time(1, SC_MS), true);
    b.disks.kill(1, sc_time(30, SC_MS));
    hba::IoRequest& on_failed = b.submit(true, shape.unit_blocks, 4096);  // unit 1: disk 1
    hba::IoRequest& elsewhere = b.submit(true, 0, 4096);                  // unit 0: disk 0
    b.time.run_until(sc_time(500, SC_US));
    b.volume.disk_failed(1, "failed");
    CHECK(b.volume.state() == VolumeState::Failed);
    const std::string reason = "volume failed: raid0 has no redundancy: member 1 (disk 1: failed at 500 us) is lost";
    CHECK(on_failed.failure == reason);
    b.time.run_until(sc_time(2, SC_MS));
    CHECK_FALSE(elsewhere.failed());  // it needed nothing of the lost member
    for (int i = 0; i < 3; ++i) {
        hba::IoRequest& later = b.submit(i % 2 == 0, 0, 4096);
        CHECK(later.failure == reason);
    }
    b.time.run();
    CHECK(b.volume.statistics().failed(VolumePhase::Failed) == 3);
    CHECK(b.volume.statistics().failed(VolumePhase::Before) == 1);
    nlohmann::json j;
    b.volume.report(j);
    CHECK(j["state"] == "failed");
    CHECK(j["data_lost"] == true);
    CHECK(j["failures"] == nlohmann::json::array({"disk 1 (member 1): failed at 500 us"}));
    CHECK(j["requests_failed"] == 4);
    b.check_account();
}
