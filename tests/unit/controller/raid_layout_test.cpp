// The RAID layout's plans against the mappings written out by hand from docs/model.md ("The storage
// controller: volumes and RAID").
#include <catch2/catch.hpp>

#include "fcal/controller/raid_layout.hpp"

using namespace fcal::controller;

namespace {

constexpr std::uint64_t kUnit = 128;          // blocks per stripe unit (64 KiB)
constexpr std::uint64_t kDisk = kUnit * 1000;  // blocks per member

RaidLayout layout(RaidLevel level, unsigned disks)
{
    return RaidLayout(VolumeGeometry{level, disks, kUnit, kDisk});
}

std::size_t count(const std::vector<MemberIo>& ios, bool read)
{
    std::size_t n = 0;
    for (const auto& io : ios) n += io.read == read;
    return n;
}

}  // namespace

TEST_CASE("raid0: a 7-unit request over 3 disks becomes one command per disk")
{
    const RaidLayout l = layout(RaidLevel::Raid0, 3);
    const std::vector<std::uint64_t> idle(3, 0);
    // Units 0..6: disk 0 holds units 0, 3, 6 (rows 0-2), disk 1 units 1, 4, disk 2 units 2, 5; on each
    // disk consecutive rows are consecutive blocks.
    const Plan p = l.plan(true, 0, 7 * kUnit, idle);
    REQUIRE(p.second.empty());
    REQUIRE(p.first.size() == 3);
    CHECK(p.first[0] == MemberIo{0, true, 0, 3 * kUnit});
    CHECK(p.first[1] == MemberIo{1, true, 0, 2 * kUnit});
    CHECK(p.first[2] == MemberIo{2, true, 0, 2 * kUnit});

    // Starting half-way into unit 1: unit 1's second half (disk 1, row 0), units 2..7 whole, the
    // first half of unit 8 (disk 2, row 2).
    const std::uint64_t half = kUnit / 2;
    const Plan q = l.plan(false, kUnit + half, 7 * kUnit, idle);
    REQUIRE(q.first.size() == 3);
    CHECK(q.first[0] == MemberIo{1, false, half, kUnit - half + kUnit + kUnit});  // units 1 (half), 4, 7
    CHECK(q.first[1] == MemberIo{2, false, 0, kUnit + kUnit + half});             // units 2, 5, 8 (half)
    CHECK(q.first[2] == MemberIo{0, false, kUnit, 2 * kUnit});                    // units 3, 6
    CHECK(l.blocks() == 3 * kDisk);
}

TEST_CASE("raid0: locate follows unit i -> disk i mod n, row i div n")
{
    const RaidLayout l = layout(RaidLevel::Raid0, 4);
    for (std::uint64_t unit = 0; unit < 40; ++unit) {
        const MemberIo m = l.locate(unit * kUnit + 5);
        CHECK(m.disk == unit % 4);
        CHECK(m.lba == (unit / 4) * kUnit + 5);
    }
}

TEST_CASE("raid1: a read goes to the copy with fewer outstanding commands, ties to the lower index")
{
    const RaidLayout l = layout(RaidLevel::Raid1, 4);  // pairs (0,1) and (2,3)
    CHECK(l.plan(true, 0, 8, {0, 0, 0, 0}).first == std::vector<MemberIo>{{0, true, 0, 8}});
    CHECK(l.plan(true, 0, 8, {2, 1, 0, 0}).first == std::vector<MemberIo>{{1, true, 0, 8}});
    CHECK(l.plan(true, 0, 8, {1, 1, 0, 0}).first == std::vector<MemberIo>{{0, true, 0, 8}});
    // Unit 1 lives on pair (2,3), row 0.
    CHECK(l.plan(true, kUnit, 8, {0, 0, 3, 2}).first == std::vector<MemberIo>{{3, true, 0, 8}});
    // A write goes to both copies.
    const Plan w = l.plan(false, kUnit + 4, 8, {0, 0, 0, 0});
    REQUIRE(w.first.size() == 2);
    CHECK(w.first[0] == MemberIo{2, false, 4, 8});
    CHECK(w.first[1] == MemberIo{3, false, 4, 8});
    CHECK(l.blocks() == 2 * kDisk);
}

TEST_CASE("raid5: left-symmetric placement of parity and data")
{
    const unsigned n = 5;
    const RaidLayout l = layout(RaidLevel::Raid5, n);
    for (std::uint64_t row = 0; row < 12; ++row) {
        const unsigned parity = n - 1 - static_cast<unsigned>(row % n);
        CHECK(l.parity_disk(row) == parity);
        for (unsigned j = 0; j < n - 1; ++j) {
            const MemberIo m = l.locate((row * (n - 1) + j) * kUnit);
            CHECK(m.disk == (parity + 1 + j) % n);
            CHECK(m.disk != parity);
            CHECK(m.lba == row * kUnit);
        }
    }
    CHECK(l.blocks() == (n - 1) * kDisk);
}

TEST_CASE("raid5: the write shape with the fewest I/Os, writes after reads")
{
    const unsigned n = 5;  // 4 data units per row
    const RaidLayout l = layout(RaidLevel::Raid5, n);
    const std::vector<std::uint64_t> idle(n, 0);
    // u whole units at the start of row 1: read-modify-write costs (u+1) reads, reconstruct-write
    // n-1-u reads; both write u+1 units. The cheaper wins, ties go to read-modify-write.
    for (unsigned u = 1; u <= n - 1; ++u) {
        const std::uint64_t row = 1;
        const Plan p = l.plan(false, row * (n - 1) * kUnit, u * kUnit, idle);
        const std::size_t rmw_reads = u + 1, rcw_reads = n - 1 - u;
        const std::size_t reads = std::min(rmw_reads, rcw_reads);
        INFO("u = " << u);
        if (reads == 0) {
            // A full row: one phase of n writes.
            CHECK(p.full_rows == 1);
            CHECK(p.second.empty());
            CHECK(count(p.first, true) == 0);
            CHECK(count(p.first, false) == n);
        } else {
            CHECK(count(p.first, true) == reads);
            CHECK(count(p.first, false) == 0);
            CHECK(count(p.second, false) == u + 1);
            CHECK(count(p.second, true) == 0);
            CHECK(p.read_modify_writes == (rcw_reads < rmw_reads ? 0u : 1u));
            CHECK(p.reconstruct_writes == (rcw_reads < rmw_reads ? 1u : 0u));
        }
        // Every write of a partial row includes the row's parity disk.
        const auto& writes = reads == 0 ? p.first : p.second;
        bool parity_written = false;
        for (const auto& io : writes) parity_written |= io.disk == l.parity_disk(row) && io.lba == row * kUnit && io.blocks == kUnit;
        CHECK(parity_written);
    }
}

TEST_CASE("raid5: a small write inside one unit reads and writes just its blocks and their parity")
{
    const unsigned n = 4;
    const RaidLayout l = layout(RaidLevel::Raid5, n);
    // 8 blocks at offset 16 of unit 4 (row 1, column 1): parity of row 1 on disk 2, data column 1
    // on disk (2 + 1 + 1) mod 4 = 0.
    const Plan p = l.plan(false, 4 * kUnit + 16, 8, std::vector<std::uint64_t>(n, 0));
    CHECK(p.first == std::vector<MemberIo>{{0, true, kUnit + 16, 8}, {2, true, kUnit + 16, 8}});
    CHECK(p.second == std::vector<MemberIo>{{0, false, kUnit + 16, 8}, {2, false, kUnit + 16, 8}});
    CHECK(p.read_modify_writes == 1);
}

TEST_CASE("raid5: a read spanning rows reads data only, merged per disk")
{
    const unsigned n = 3;  // 2 data units per row
    const RaidLayout l = layout(RaidLevel::Raid5, n);
    // Units 0..3 = rows 0 and 1. Row 0: parity disk 2, data on 0, 1. Row 1: parity disk 1, data on
    // 2, 0. Disk 0 holds unit 0 (row 0) and unit 3 (row 1): contiguous, one command.
    const Plan p = l.plan(true, 0, 4 * kUnit, std::vector<std::uint64_t>(n, 0));
    CHECK(p.first == std::vector<MemberIo>{{0, true, 0, 2 * kUnit}, {1, true, 0, kUnit}, {2, true, kUnit, kUnit}});
}

TEST_CASE("layout: bad geometry and requests outside the volume are refused")
{
    CHECK_THROWS(RaidLayout(VolumeGeometry{RaidLevel::Raid1, 3, kUnit, kDisk}));
    CHECK_THROWS(RaidLayout(VolumeGeometry{RaidLevel::Raid5, 2, kUnit, kDisk}));
    CHECK_THROWS(RaidLayout(VolumeGeometry{RaidLevel::None, 2, kUnit, kDisk}));
    const RaidLayout l = layout(RaidLevel::Raid0, 2);
    CHECK_THROWS_AS(l.plan(true, l.blocks() - 4, 8, {0, 0}), std::out_of_range);
    CHECK_NOTHROW(l.plan(true, l.blocks() - 8, 8, {0, 0}));
}
