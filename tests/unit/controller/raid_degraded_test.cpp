// Degraded plans (docs/model.md, "The storage controller: degraded mode and rebuild"): the member I/O
// counts of every case against the table derived there, and, for random requests and random missing
// members, a block-by-block check that a plan never touches a missing member, writes every surviving
// block it must, and reads enough to compute each new parity block and each block it returns.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "fcal/controller/raid_layout.hpp"

using namespace fcal::controller;

namespace {

constexpr std::uint64_t kUnit = 128;
constexpr std::uint64_t kDisk = kUnit * 100;

struct Counts {
    std::size_t reads = 0, writes = 0;
    bool operator==(const Counts& o) const { return reads == o.reads && writes == o.writes; }
};
std::ostream& operator<<(std::ostream& os, const Counts& c) { return os << c.reads << " reads, " << c.writes << " writes"; }

Counts counts(const Plan& p)
{
    Counts c;
    for (const auto* phase : {&p.first, &p.second})
        for (const MemberIo& io : *phase) ++(io.read ? c.reads : c.writes);
    return c;
}

Degradation without(unsigned members, unsigned gone)
{
    Degradation d(members);
    d.set_present_rows(gone, 0);
    return d;
}

// The table (docs/model.md): one row written with u data units touched, k of them covering the
// parity's range R, n members, d = n-1 data units per row.
enum class Gone { None, Parity, WrittenCovering, WrittenPartial, Unwritten };

Counts raid5_write_table(unsigned n, unsigned u, unsigned k, Gone gone)
{
    const std::size_t d = n - 1;
    switch (gone) {
    case Gone::None:
        if (k == d) return {0, n};
        return {std::min<std::size_t>(u + 1, d - k), u + 1};
    case Gone::Parity: return {0, u};
    case Gone::WrittenCovering: return {d - k, u};
    case Gone::WrittenPartial: return {n - 1, u};
    case Gone::Unwritten: return {u + 1, u + 1};
    }
    return {};
}

}  // namespace

TEST_CASE("raid5 degraded: the member I/O count of each write case matches the table")
{
    for (unsigned n : {3u, 4u, 5u, 9u}) {
        const unsigned d = n - 1;
        const RaidLayout l(VolumeGeometry{RaidLevel::Raid5, n, kUnit, kDisk});
        const std::vector<std::uint64_t> idle(n, 0);
        const std::uint64_t row = 3;  // parity on n-1 - 3 mod n; data column j on (parity + 1 + j) mod n
        const unsigned parity = l.parity_disk(row);
        const auto disk_of = [&](unsigned column) { return (parity + 1 + column) % n; };
        const std::uint64_t row_lba = row * d * kUnit;
        INFO("n = " << n);

        // Small writes (8 blocks inside column 0's unit): u = k = 1.
        const std::uint64_t small = row_lba + 16;
        CHECK(counts(l.plan(false, small, 8, idle)) == raid5_write_table(n, 1, 1, Gone::None));
        CHECK(counts(l.plan(false, small, 8, idle, without(n, parity))) == raid5_write_table(n, 1, 1, Gone::Parity));
        CHECK(counts(l.plan(false, small, 8, idle, without(n, disk_of(0)))) == raid5_write_table(n, 1, 1, Gone::WrittenCovering));
        CHECK(counts(l.plan(false, small, 8, idle, without(n, disk_of(d - 1)))) == raid5_write_table(n, 1, 1, Gone::Unwritten));

        // u whole, aligned units from column 0 (u = d: the full row): k = u.
        for (unsigned u = 1; u <= d; ++u) {
            INFO("u = " << u << " whole units");
            const std::uint64_t blocks = u * kUnit;
            CHECK(counts(l.plan(false, row_lba, blocks, idle)) == raid5_write_table(n, u, u, Gone::None));
            CHECK(counts(l.plan(false, row_lba, blocks, idle, without(n, parity))) == raid5_write_table(n, u, u, Gone::Parity));
            CHECK(counts(l.plan(false, row_lba, blocks, idle, without(n, disk_of(u - 1)))) ==
                  raid5_write_table(n, u, u, Gone::WrittenCovering));
            if (u < d)
                CHECK(counts(l.plan(false, row_lba, blocks, idle, without(n, disk_of(d - 1)))) ==
                      raid5_write_table(n, u, u, Gone::Unwritten));
        }

        // Unaligned over two units: the second half of column 0 and the first half of column 1, so
        // R is the whole unit and neither piece covers it (u = 2, k = 0).
        const std::uint64_t half = kUnit / 2;
        const std::uint64_t straddle = row_lba + half;
        CHECK(counts(l.plan(false, straddle, kUnit, idle)) == raid5_write_table(n, 2, 0, Gone::None));
        CHECK(counts(l.plan(false, straddle, kUnit, idle, without(n, parity))) == raid5_write_table(n, 2, 0, Gone::Parity));
        CHECK(counts(l.plan(false, straddle, kUnit, idle, without(n, disk_of(0)))) == raid5_write_table(n, 2, 0, Gone::WrittenPartial));
        CHECK(counts(l.plan(false, straddle, kUnit, idle, without(n, disk_of(1)))) == raid5_write_table(n, 2, 0, Gone::WrittenPartial));
        if (d > 2)
            CHECK(counts(l.plan(false, straddle, kUnit, idle, without(n, disk_of(2)))) == raid5_write_table(n, 2, 0, Gone::Unwritten));

        // Three pieces (end of column 0, column 1 whole, start of column 2) when the row has room:
        // u = 3, k = 1 (column 1 covers R); the lost member is column 1.
        if (d >= 3) {
            const Plan p = l.plan(false, row_lba + half, 2 * kUnit, idle, without(n, disk_of(1)));
            CHECK(counts(p) == raid5_write_table(n, 3, 1, Gone::WrittenCovering));
        }
    }
}

TEST_CASE("raid5 degraded: a read of the missing member costs n-1 reads, one per survivor")
{
    for (unsigned n : {3u, 5u, 9u}) {
        const unsigned d = n - 1;
        const RaidLayout l(VolumeGeometry{RaidLevel::Raid5, n, kUnit, kDisk});
        const std::vector<std::uint64_t> idle(n, 0);
        for (std::uint64_t row = 0; row < 2 * n; ++row)
            for (unsigned column = 0; column < d; ++column) {
                const std::uint64_t lba = (row * d + column) * kUnit + 8;
                const unsigned gone = l.locate(lba).disk;
                const Plan p = l.plan(true, lba, 16, idle, without(n, gone));
                REQUIRE(p.second.empty());
                REQUIRE(p.first.size() == n - 1);
                std::set<unsigned> disks;
                for (const MemberIo& io : p.first) {
                    CHECK((io.read && io.lba == row * kUnit + 8 && io.blocks == 16));
                    disks.insert(io.disk);
                }
                CHECK(disks.size() == n - 1);
                CHECK(disks.count(gone) == 0);
                CHECK(p.degraded == 1);
                // A member that is not the one read is no concern.
                const Plan q = l.plan(true, lba, 16, idle, without(n, (gone + 1) % n));
                CHECK(q.first == std::vector<MemberIo>{{gone, true, row * kUnit + 8, 16}});
                CHECK(q.degraded == 0);
            }
        // A whole row read with one member missing: each survivor read once, the whole unit.
        const Plan row = l.plan(true, 0, d * kUnit, idle, without(n, 0));
        CHECK(counts(row) == Counts{n - 1, 0});
    }
}

TEST_CASE("raid1 degraded: reads and writes go to the survivor; both copies gone is unavailable")
{
    const RaidLayout l(VolumeGeometry{RaidLevel::Raid1, 4, kUnit, kDisk});  // pairs (0,1), (2,3)
    Degradation d(4);
    d.set_present_rows(0, 0);
    // However busy the survivor, reads go there.
    CHECK(l.plan(true, 0, 8, {0, 9, 0, 0}, d).first == std::vector<MemberIo>{{1, true, 0, 8}});
    CHECK(l.plan(false, 0, 8, {0, 0, 0, 0}, d).first == std::vector<MemberIo>{{1, false, 0, 8}});
    CHECK(l.plan(false, 0, 8, {0, 0, 0, 0}, d).degraded == 1);
    // The other pair is untouched.
    CHECK(counts(l.plan(false, kUnit, 8, {0, 0, 0, 0}, d)) == Counts{0, 2});
    // Rows rebuilt onto member 0's spare: member 0 holds rows below 5 again.
    d.set_present_rows(0, 5);
    CHECK(counts(l.plan(false, 4 * 2 * kUnit, 8, {0, 0, 0, 0}, d)) == Counts{0, 2});  // row 4
    CHECK(counts(l.plan(false, 5 * 2 * kUnit, 8, {0, 0, 0, 0}, d)) == Counts{0, 1});  // row 5
    d.set_present_rows(1, 0);
    const Plan lost = l.plan(true, 5 * 2 * kUnit, 8, {0, 0, 0, 0}, d);
    CHECK(lost.unavailable == "raid1 row 5: members 0 and 1 missing");
    CHECK(lost.first.empty());
    CHECK(l.plan(true, 4 * 2 * kUnit, 8, {0, 0, 0, 0}, d).unavailable.empty());  // row 4 has member 0
}

TEST_CASE("raid0 and raid5 with no redundancy left: the plan names the missing members")
{
    const RaidLayout r0(VolumeGeometry{RaidLevel::Raid0, 3, kUnit, kDisk});
    const Plan p = r0.plan(true, kUnit, 8, {0, 0, 0}, without(3, 1));
    CHECK(p.unavailable == "raid0 row 0: member 1 missing");
    CHECK(p.first.empty());
    CHECK(r0.plan(true, 0, 8, {0, 0, 0}, without(3, 1)).unavailable.empty());  // unit 0 is on disk 0

    const RaidLayout r5(VolumeGeometry{RaidLevel::Raid5, 5, kUnit, kDisk});
    Degradation two(5);
    two.set_present_rows(1, 0);
    two.set_present_rows(3, 0);
    CHECK(r5.plan(false, 0, 8, {0, 0, 0, 0, 0}, two).unavailable == "raid5 row 0: members 1 and 3 missing");
    const MemberIo at = r5.locate(0);
    Degradation other(5);
    other.set_present_rows(at.disk, 0);
    other.set_present_rows((at.disk + 1) % 5, 0);
    CHECK_FALSE(r5.plan(true, 0, 8, {0, 0, 0, 0, 0}, other).unavailable.empty());
}

namespace {

// Block-level view of a plan: which (member, member LBA) each phase reads and writes.
using Block = std::pair<unsigned, std::uint64_t>;
struct Blocks {
    std::set<Block> reads, writes;
    bool reads_after_writes = false;
};

Blocks blocks_of(const Plan& p)
{
    Blocks b;
    for (const MemberIo& io : p.first)
        for (std::uint64_t x = io.lba; x < io.lba + io.blocks; ++x) (io.read ? b.reads : b.writes).insert({io.disk, x});
    for (const MemberIo& io : p.second)
        for (std::uint64_t x = io.lba; x < io.lba + io.blocks; ++x) {
            if (io.read) b.reads_after_writes = true;
            b.writes.insert({io.disk, x});
        }
    return b;
}

}  // namespace

TEST_CASE("raid5 degraded: random requests, block by block, never touch the missing member and read enough")
{
    constexpr std::uint64_t unit = 8;
    std::mt19937_64 rng(23);
    for (unsigned n : {3u, 4u, 6u}) {
        const unsigned d = n - 1;
        const RaidLayout l(VolumeGeometry{RaidLevel::Raid5, n, unit, unit * 6});
        const std::vector<std::uint64_t> idle(n, 0);
        for (int trial = 0; trial < 3000; ++trial) {
            const std::uint64_t lba = rng() % l.blocks();
            const std::uint64_t blocks = 1 + rng() % std::min<std::uint64_t>(l.blocks() - lba, 3 * d * unit);
            const bool read = rng() % 2;
            const unsigned gone = static_cast<unsigned>(rng() % (n + 1));  // n: none
            // Rows below `rebuilt` have the member back (a spare rebuilt so far).
            const std::uint64_t rebuilt = rng() % 7;
            Degradation missing(n);
            if (gone < n) missing.set_present_rows(gone, rebuilt);
            INFO("n " << n << " read " << read << " lba " << lba << " blocks " << blocks << " gone " << gone << " rebuilt " << rebuilt);
            const Plan p = l.plan(read, lba, blocks, idle, missing);
            REQUIRE(p.unavailable.empty());
            const Blocks b = blocks_of(p);
            CHECK_FALSE(b.reads_after_writes);
            for (const auto* set : {&b.reads, &b.writes})
                for (const Block& x : *set) CHECK_FALSE(missing.missing(x.first, x.second / unit));
            // What the request touches: data blocks (member, member LBA) by row.
            std::map<std::uint64_t, std::set<Block>> data;
            for (std::uint64_t v = lba; v < lba + blocks; ++v) {
                const MemberIo at = l.locate(v);
                data[at.lba / unit].insert({at.disk, at.lba});
            }
            if (read) {
                CHECK(b.writes.empty());
                for (const auto& [row, set] : data)
                    for (const Block& x : set) {
                        if (!missing.missing(x.first, row)) {
                            CHECK(b.reads.count(x) == 1);
                            continue;
                        }
                        for (unsigned m = 0; m < n; ++m)
                            if (m != x.first) CHECK(b.reads.count({m, x.second}) == 1);  // the row's XOR
                    }
                continue;
            }
            for (const auto& [row, set] : data) {
                const unsigned parity = l.parity_disk(row);
                // Every surviving written block is written, and nothing else of the data.
                for (const Block& x : set) CHECK(b.writes.count(x) == (missing.missing(x.first, row) ? 0u : 1u));
                // The parity covers the hull of the row's written offsets (docs/model.md: the range
                // of unit offsets the write covers).
                std::uint64_t low = UINT64_MAX, high = 0;
                for (const Block& x : set) {
                    low = std::min(low, x.second);
                    high = std::max(high, x.second);
                }
                for (std::uint64_t x = low; x <= high; ++x) {
                    const bool parity_here = !missing.missing(parity, row);
                    CHECK(b.writes.count({parity, x}) == (parity_here ? 1u : 0u));
                    if (!parity_here) continue;
                    // The new parity is the XOR of every column's new contents: the unwritten
                    // columns' old data must be read, or (through the old parity) the old parity and
                    // the written columns' old data.
                    bool unwritten_read = true, written_and_parity_read = b.reads.count({parity, x}) == 1;
                    for (unsigned m = 0; m < n; ++m) {
                        if (m == parity) continue;
                        const bool written = set.count({m, x}) == 1;
                        const bool was_read = b.reads.count({m, x}) == 1;
                        if (written)
                            written_and_parity_read = written_and_parity_read && was_read;
                        else
                            unwritten_read = unwritten_read && was_read;
                    }
                    CHECK((unwritten_read || written_and_parity_read));
                }
            }
            // Writes only where the request writes data or its parity.
            for (const Block& x : b.writes) {
                const std::uint64_t row = x.second / unit;
                bool data_block = data.count(row) && data.at(row).count(x);
                bool below = false, above = false;  // inside the hull of the row's written offsets
                if (data.count(row) && x.first == l.parity_disk(row))
                    for (const Block& y : data.at(row)) {
                        below = below || y.second <= x.second;
                        above = above || y.second >= x.second;
                    }
                CHECK((data_block || (below && above)));
            }
        }
    }
}
