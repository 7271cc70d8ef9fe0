// DECODE's placement rule with hand-built loads (docs/model.md, "DECODE"): a written unit goes only
// to another disk with a free slot inside the equivalent area, the least loaded one, and only when
// its load is at most threshold x the load of the disk holding the unit.
#include <catch2/catch.hpp>

#include <random>

#include "fcal/controller/decode_policy.hpp"

using namespace fcal::controller;

namespace {

// 4 disks, one free slot per row (fraction 1/4): row r's free slot is on disk 3 - (r mod 4).
//   row 0: free disk 3   row 1: free disk 2   row 2: free disk 1   row 3: free disk 0   row 4: free disk 3 ...
// Unit 15 (row 5: live rows hold 3 units) is in row 5 at the first live disk: row 5 has disk 2 free, so
// units 15, 16, 17 are on disks 0, 1, 3.
DecodeMap map4() { return DecodeMap(4, 12, 0.25); }

}  // namespace

TEST_CASE("decode policy: the hand-built layout is as the comment says")
{
    const DecodeMap m = map4();
    REQUIRE(m.original(15) == Slot{0, 5});
    REQUIRE(m.original(16) == Slot{1, 5});
    REQUIRE(m.original(17) == Slot{3, 5});
    REQUIRE(m.is_free(Slot{2, 5}));
    REQUIRE(m.is_free(Slot{3, 4}));
    REQUIRE(m.is_free(Slot{1, 6}));
}

TEST_CASE("decode policy: moves to the area's free slot only when its load is at most threshold x the original's")
{
    const DecodeMap m = map4();
    const DecodePolicy same_group(1, 0.5);  // area 1: row 5 only, where disk 2 is free
    CHECK(same_group.place(m, 15, {10, 9, 4, 9}) == Slot{2, 5});
    CHECK(same_group.place(m, 15, {10, 9, 5, 9}) == Slot{2, 5});   // 5 <= 0.5 x 10: equal still moves
    CHECK(same_group.place(m, 15, {10, 9, 5.01, 9}) == Slot{0, 5});  // just above: in place
    // The write's own service time counts on both sides: 4 + 2 <= 0.5 x (10 + 2), but not 4.5 + 2.
    CHECK(same_group.place(m, 15, {10, 9, 4, 9}, 2) == Slot{2, 5});
    CHECK(same_group.place(m, 15, {10, 9, 4.5, 9}, 2) == Slot{0, 5});
    // Idle disks: 0 + own > 0.5 x (0 + own), so an idle system keeps data in place; without an own
    // time 0 <= 0.5 x 0 would move it.
    CHECK(same_group.place(m, 15, {0, 0, 0, 0}, 1) == Slot{0, 5});
    CHECK(same_group.place(m, 15, {0, 0, 0, 0}) == Slot{2, 5});
    // The threshold scales the original's load.
    CHECK(DecodePolicy(1, 0.8).place(m, 15, {10, 9, 8, 9}) == Slot{2, 5});
    CHECK(DecodePolicy(1, 0.2).place(m, 15, {10, 9, 2.5, 9}) == Slot{0, 5});
}

TEST_CASE("decode policy: only disks with a free slot inside the equivalent area are candidates")
{
    const DecodeMap m = map4();
    // Area 1 (row 5): disk 3 is idle but has no free slot in row 5, so the loaded disk 2 is the only
    // candidate and too loaded: in place.
    CHECK(DecodePolicy(1, 0.5).place(m, 15, {10, 9, 8, 0}) == Slot{0, 5});
    // Area 3 (rows 4-6): disk 3 is free in row 4, disk 1 in row 6: the idle disk 3 wins.
    CHECK(DecodePolicy(3, 0.5).place(m, 15, {10, 9, 8, 0}) == Slot{3, 4});
    // The least loaded candidate wins even when farther: disk 1 (row 6) over disk 2 (row 5).
    CHECK(DecodePolicy(3, 0.5).place(m, 15, {10, 1, 2, 3}) == Slot{1, 6});
    // Area 2 covers rows 5-6 only (below: (2-1)/2 = 0 rows, above: 2/2 = 1): disk 3's row 4 is out.
    CHECK(DecodePolicy(2, 0.5).place(m, 15, {10, 9, 8, 0}) == Slot{0, 5});
    // Unit 16 (disk 1, row 5): disk 0 is free only in rows 3 and 7, two rows away; area 5 (rows 3-7)
    // reaches both and the lower row wins the tie.
    CHECK(DecodePolicy(5, 0.5).place(m, 16, {0, 10, 9, 9}) == Slot{0, 3});  // area 5: rows 3-7
    // Area 0: never moves.
    CHECK(DecodePolicy(0, 0.5).place(m, 15, {10, 0, 0, 0}) == Slot{0, 5});
}

TEST_CASE("decode policy: ties go to the nearer slot, then the lower disk")
{
    const DecodeMap m = map4();
    // Rows 4-6 (area 3): disk 3 free in row 4 (distance 1), disk 2 in row 5 (distance 0), disk 1 in row 6
    // (distance 1); all equally loaded: disk 2.
    CHECK(DecodePolicy(3, 0.5).place(m, 15, {10, 1, 1, 1}) == Slot{2, 5});
    // Without disk 2 in the running (loaded), disks 1 and 3 tie at distance 1: the lower, disk 1.
    CHECK(DecodePolicy(3, 0.5).place(m, 15, {10, 1, 5, 1}) == Slot{1, 6});
}

TEST_CASE("decode policy: a redirected write always lands in the area on a disk loaded at most threshold x the original (random loads)")
{
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    DecodeMap m(8, 40, 0.125);
    const DecodePolicy policy(10, 0.5);
    std::uint64_t moves = 0;
    for (int step = 0; step < 4000; ++step) {
        const std::uint64_t unit = random() % m.units();
        std::vector<double> load(8);
        for (double& l : load) l = u(random) < 0.2 ? 0.0 : u(random) * 0.1;
        const Slot now = m.location(unit), op = m.original(unit);
        const double own = u(random) * 0.01;
        const Slot to = policy.place(m, unit, load, own);
        if (to == now) continue;
        ++moves;
        REQUIRE(to.disk != now.disk);
        REQUIRE(m.is_free(to));
        REQUIRE(to.row + 4 >= op.row);  // rows op-4 .. op+5
        REQUIRE(to.row <= op.row + 5);
        REQUIRE(load[to.disk] + own <= 0.5 * (load[now.disk] + own));
        // No candidate in the area was less loaded.
        for (unsigned d = 0; d < 8; ++d)
            if (d != now.disk && policy.nearest_free(m, op, d)) REQUIRE(load[d] >= load[to.disk]);
        m.move(unit, to);
    }
    CHECK(moves > 100);
}
