// DECODE's map: the layout written out by hand from docs/model.md ("DECODE"), and the bijection between
// live units and occupied slots kept over many random moves.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "fcal/controller/decode_map.hpp"

using namespace fcal::controller;

namespace {

// Every unit sits where the map says and every occupied slot names the unit that says it is there;
// the free slots are the ones the layout started with in number.
void require_bijection(const DecodeMap& map)
{
    std::set<std::pair<unsigned, std::uint64_t>> seen;
    for (std::uint64_t u = 0; u < map.units(); ++u) {
        const Slot s = map.location(u);
        REQUIRE(map.occupant(s) == u);
        REQUIRE(seen.insert({s.disk, s.row}).second);
    }
    std::uint64_t free = 0;
    for (std::uint64_t r = 0; r < map.rows(); ++r)
        for (unsigned d = 0; d < map.disks(); ++d) {
            const auto who = map.occupant(Slot{d, r});
            if (!who) ++free;
            else REQUIRE(map.location(*who) == Slot{d, r});
        }
    REQUIRE(free == map.rows() * map.disks() - map.units());
}

}  // namespace

TEST_CASE("decode map: without free slots the original positions are RAID 0's")
{
    const DecodeMap map(5, 40, 0.0);
    REQUIRE(map.units() == 200);
    for (std::uint64_t u = 0; u < 200; ++u) REQUIRE(map.original(u) == Slot{static_cast<unsigned>(u % 5), u / 5});
    CHECK_THROWS_AS(map.original(200), std::out_of_range);
}

TEST_CASE("decode map: one free slot per stripe group of 8 rotates like RAID 5's parity")
{
    const DecodeMap map(8, 24, 0.125);
    REQUIRE(map.units() == 24 * 7);
    for (std::uint64_t r = 0; r < 24; ++r) {
        const unsigned free_disk = 7 - static_cast<unsigned>(r % 8);
        for (unsigned d = 0; d < 8; ++d) REQUIRE(map.is_free(Slot{d, r}) == (d == free_disk));
    }
    // Row 0: units 0-6 on disks 0-6; row 1 (disk 6 free): units 7-12 on disks 0-5, unit 13 on disk 7.
    CHECK(map.original(0) == Slot{0, 0});
    CHECK(map.original(6) == Slot{6, 0});
    CHECK(map.original(7) == Slot{0, 1});
    CHECK(map.original(12) == Slot{5, 1});
    CHECK(map.original(13) == Slot{7, 1});
    CHECK(map.original(14) == Slot{0, 2});
    require_bijection(map);
}

TEST_CASE("decode map: fractional free slots per row add up to floor(rows x fraction x disks)")
{
    // 0.1 x 8 = 0.8 free slots per row: rows 0-9 hold floor(10 x 0.8) = 8, none in row 0 (floor 0.8 = 0),
    // one in row 1 (floor 1.6 - floor 0.8) on disk 7 (the 0th free slot), and rows 4 and 5 hold
    // floor(4) - floor(3.2) = 1 and floor(4.8) - floor(4) = 0.
    const DecodeMap map(8, 10, 0.1);
    CHECK(map.free_below(10) == 8);
    CHECK(map.units() == 80 - 8);
    for (unsigned d = 0; d < 8; ++d) CHECK_FALSE(map.is_free(Slot{d, 0}));
    CHECK(map.is_free(Slot{7, 1}));
    CHECK(map.free_below(5) == 4);
    CHECK(map.free_below(6) == 4);
    require_bijection(map);
    // Two per row with 0.25: row 0 disks 7 and 6, row 1 disks 5 and 4.
    const DecodeMap two(8, 4, 0.25);
    CHECK(two.is_free(Slot{7, 0}));
    CHECK(two.is_free(Slot{6, 0}));
    CHECK(two.is_free(Slot{5, 1}));
    CHECK(two.is_free(Slot{4, 1}));
    CHECK(two.units() == 4 * 6);
    require_bijection(two);
}

TEST_CASE("decode map: moves keep a bijection between live units and slots (random property test)")
{
    std::mt19937_64 random(12345);
    for (double fraction : {0.125, 0.25, 0.1}) {
        DecodeMap map(8, 30, fraction);
        std::vector<Slot> free;
        for (std::uint64_t r = 0; r < map.rows(); ++r)
            for (unsigned d = 0; d < 8; ++d)
                if (map.is_free(Slot{d, r})) free.push_back(Slot{d, r});
        for (int step = 0; step < 3000; ++step) {
            const std::uint64_t unit = random() % map.units();
            const std::size_t pick = random() % free.size();
            const Slot from = map.location(unit), to = free[pick];
            map.move(unit, to);
            REQUIRE(map.location(unit) == to);
            REQUIRE(map.is_free(from));
            free[pick] = from;
            if (step % 300 == 0) require_bijection(map);
        }
        require_bijection(map);
        // Moving onto an occupied slot is refused.
        CHECK_THROWS_AS(map.move(0, map.location(1)), std::logic_error);
    }
}
