// The AL_PA bitmap of LIFA..LISA (docs/loop_init.md, "The AL_PA bitmap"): bit positions typed in
// from the drive manuals' bitmap figure (L_bit, then 00 01 02 04 08 0F 10 17 ... EF) and from the
// public word-0 layout (bit 31 the L_bit, bit 30 AL_PA 00, ...), and the bytes they give.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/loop/al_pa_bitmap.hpp"

using namespace fcal;
using loop::AlPaBitmap;

TEST_CASE("AL_PA bitmap: positions follow AL_PA priority after the L_bit")
{
    // Position p holds ... (p = 1..15, then the last).
    const std::vector<phy::AlPa> first = {0x00, 0x01, 0x02, 0x04, 0x08, 0x0F, 0x10, 0x17,
                                          0x18, 0x1B, 0x1D, 0x1E, 0x1F, 0x23, 0x25};
    for (unsigned p = 1; p <= first.size(); ++p) {
        INFO("position " << p);
        CHECK(AlPaBitmap::al_pa_at(p) == first[p - 1]);
        CHECK(AlPaBitmap::position_of(first[p - 1]) == p);
    }
    CHECK(AlPaBitmap::al_pa_at(127) == 0xEF);
    CHECK(AlPaBitmap::al_pa_at(126) == 0xE8);
    // Every valid AL_PA has its own position, in priority (ascending value) order.
    unsigned last = 0;
    for (phy::AlPa a : phy::valid_al_pas()) {
        const unsigned p = AlPaBitmap::position_of(a);
        CHECK(p == last + 1);
        CHECK(AlPaBitmap::al_pa_at(p) == a);
        last = p;
    }
    CHECK(last == 127);
    CHECK_THROWS_AS(AlPaBitmap::position_of(0xF0), phy::InvalidAlPa);
    CHECK_THROWS_AS(AlPaBitmap::position_of(0x03), phy::InvalidAlPa);
    CHECK_THROWS_AS(AlPaBitmap::al_pa_at(0), std::out_of_range);
    CHECK_THROWS_AS(AlPaBitmap::al_pa_at(128), std::out_of_range);
}

TEST_CASE("AL_PA bitmap: bytes, first transmitted bit first")
{
    AlPaBitmap b;
    b.set_l_bit(true);
    CHECK(b.bytes()[0] == 0x80);
    CHECK(b.l_bit());
    b.set_l_bit(false);
    CHECK(b.bytes() == AlPaBitmap::Bytes{});

    // The manuals' example: the port at AL_PA 04 sets position 4.
    CHECK(b.claim(0x04));
    CHECK(b.bytes()[0] == 0x08);
    CHECK(b.claim(0x00));  // position 1
    CHECK(b.claim(0x01));  // position 2
    CHECK(b.bytes()[0] == 0x68);
    CHECK(b.claim(0x25));  // position 15: the last bit of byte 1
    CHECK(b.bytes()[1] == 0x01);
    CHECK(b.claim(0xEF));  // position 127: the last bit of all
    CHECK(b.bytes()[15] == 0x01);
    CHECK(b.claim(0x3C));  // position 32: the first bit of byte 4
    CHECK(b.bytes()[4] == 0x80);
    for (std::size_t i : {2u, 3u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 14u}) CHECK(b.bytes()[i] == 0);
    CHECK_FALSE(b.l_bit());

    const AlPaBitmap copy(b.bytes());
    CHECK(copy == b);
    CHECK(copy.al_pas() == std::vector<phy::AlPa>{0x00, 0x01, 0x04, 0x25, 0x3C, 0xEF});
    CHECK(copy.count() == 6);
}

TEST_CASE("AL_PA bitmap: a claimed bit cannot be claimed again")
{
    AlPaBitmap b;
    CHECK(b.claim(0xE8));
    CHECK_FALSE(b.claim(0xE8));
    CHECK(b.contains(0xE8));
    CHECK_FALSE(b.contains(0xE4));
    CHECK(b.count() == 1);
    CHECK_THROWS_AS(b.claim(0xF7), phy::InvalidAlPa);
}

TEST_CASE("AL_PA bitmap: soft assignment takes the first free bit in priority order, never 00")
{
    AlPaBitmap b;
    CHECK(b.claim_first_free() == phy::AlPa{0x01});
    CHECK(b.claim_first_free() == phy::AlPa{0x02});
    CHECK(b.claim(0x08));
    CHECK(b.claim_first_free() == phy::AlPa{0x04});
    CHECK(b.claim_first_free() == phy::AlPa{0x0F});  // 08 is taken
    CHECK_FALSE(b.contains(0x00));

    // With every AL_PA but 00 taken there is nothing left for an NL_Port.
    AlPaBitmap full;
    for (phy::AlPa a : phy::valid_al_pas())
        if (a != 0x00) CHECK(full.claim(a));
    CHECK_FALSE(full.claim_first_free().has_value());
    CHECK(full.count() == 126);
    // The L_bit is no AL_PA.
    AlPaBitmap l;
    l.set_l_bit(true);
    CHECK(l.claim_first_free() == phy::AlPa{0x01});
    CHECK(l.count() == 1);
}
