// AL_PAs: the neutral-disparity data characters (docs/phy.md, "AL_PAs"),
// checked by encoding them.
#include <catch2/catch.hpp>

#include <set>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/encoding_8b10b.hpp"

using namespace fcal::phy;

namespace {

bool neutral(unsigned byte)
{
    const Character c{static_cast<std::uint8_t>(byte), false};
    return encode(c, Disparity::Minus).rd_after == Disparity::Minus && encode(c, Disparity::Plus).rd_after == Disparity::Plus;
}

}  // namespace

TEST_CASE("al_pa: exactly the 127 neutral characters below F0, in priority order")
{
    const auto& list = valid_al_pas();
    REQUIRE(list.size() == 127);
    for (std::size_t i = 1; i < list.size(); ++i) CHECK(list[i - 1] < list[i]);  // highest priority first
    CHECK(list.front() == 0x00);
    CHECK(list.back() == 0xEF);

    std::set<unsigned> expected;
    for (unsigned b = 0; b < 256; ++b)
        if (neutral(b)) expected.insert(b);
    // The neutral characters left out are those the ordered sets use.
    for (unsigned reserved : {0xF0u, 0xF7u, 0xF8u, 0xFBu, 0xFDu, 0xFEu, 0xFFu}) CHECK(expected.erase(reserved) == 1);
    CHECK(std::set<unsigned>(list.begin(), list.end()) == expected);
    for (unsigned v = 0; v < 0x200; ++v) {  // every byte, and beyond one: no wrap-round
        INFO(v);
        CHECK(is_valid_al_pa(v) == (expected.count(v) == 1));
    }

    for (AlPa a : list) {
        INFO(al_pa_hex(a));
        CHECK(neutral(a));
        CHECK(is_valid_al_pa(a));
    }
}

TEST_CASE("al_pa: validity of individual values")
{
    // D2.0: both sub-blocks unbalanced, so the 4b block undoes the 6b block's flip: neutral.
    CHECK(is_valid_al_pa(0x02));
    // D3.0: balanced 6b block, unbalanced 4b block.
    CHECK_FALSE(is_valid_al_pa(0x03));
    CHECK(is_valid_al_pa(0x00));
    CHECK(is_valid_al_pa(0x01));
    CHECK(is_valid_al_pa(0xE8));
    CHECK(is_valid_al_pa(0xEF));
    CHECK_FALSE(is_valid_al_pa(0xF0));
    CHECK_FALSE(is_valid_al_pa(0xF7));
    CHECK_FALSE(is_valid_al_pa(0xFF));
    CHECK_FALSE(is_valid_al_pa(0x100));
    CHECK_FALSE(is_valid_al_pa(0x102));  // must not wrap to 0x02

    CHECK(require_valid_al_pa(0xE8, "port 3") == 0xE8);
    CHECK_THROWS_AS(require_valid_al_pa(0xF0, "port 3"), InvalidAlPa);
    CHECK_THROWS_AS(require_valid_al_pa(0x03, "port 3"), std::invalid_argument);
    CHECK_THROWS_WITH(require_valid_al_pa(0xF0, "port 3"), Catch::Contains("port 3") && Catch::Contains("0xF0"));
}

TEST_CASE("al_pa: loop_ID order")
{
    CHECK(al_pa_of_loop_id(0) == 0xEF);
    CHECK(al_pa_of_loop_id(1) == 0xE8);
    CHECK(al_pa_of_loop_id(2) == 0xE4);
    CHECK(al_pa_of_loop_id(125) == 0x01);
    CHECK(al_pa_of_loop_id(126) == 0x00);
    CHECK(loop_id_of_al_pa(0x00) == 126);
    CHECK(loop_id_of_al_pa(0xEF) == 0);
    CHECK_THROWS_AS(al_pa_of_loop_id(127), std::out_of_range);
    CHECK_THROWS_AS(loop_id_of_al_pa(0x03), InvalidAlPa);
    for (unsigned id = 0; id < 127; ++id) CHECK(loop_id_of_al_pa(al_pa_of_loop_id(id)) == id);
}

TEST_CASE("al_pa: priority and formatting")
{
    CHECK(higher_priority(0x01, 0xE8));
    CHECK_FALSE(higher_priority(0xE8, 0x01));
    CHECK(al_pa_hex(0x01) == "0x01");
    CHECK(al_pa_hex(0xE8) == "0xE8");
}
