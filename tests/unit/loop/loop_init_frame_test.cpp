// Loop initialization frames byte by byte (docs/loop_init.md, "Loop initialization frames"): the
// payloads and header as the drive manuals draw them (LI_ID words 11010000h..11070000h, LISA
// 11050100h with position maps, the 128-byte map as an offset then AL_PAs then FF; header 22 0000EF,
// 00 0000EF, 01 380000, 00000000, FFFFFFFF, 00000000).
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/loop/loop_init_frame.hpp"

using namespace fcal;
using loop::AlPaBitmap;
using loop::LiId;
using loop::LoopInitFrame;
using Bytes = std::vector<std::uint8_t>;

namespace {

Bytes concat(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST_CASE("LI frames: LISM carries the port name after its LI_ID")
{
    const LoopInitFrame f = LoopInitFrame::lism(0x2000002037123456ull);
    CHECK(f.payload() == Bytes{0x11, 0x01, 0x00, 0x00, 0x20, 0x00, 0x00, 0x20, 0x37, 0x12, 0x34, 0x56});
    CHECK(f.payload_bytes() == 12);
    // SOF + 6 header words + 3 payload words + CRC + EOF.
    CHECK(f.words() == 12);
}

TEST_CASE("LI frames: LIFA..LISA carry the 16-byte bitmap, LISA its position-map flag")
{
    AlPaBitmap b;
    b.claim(0x01);
    b.claim(0xEF);
    const Bytes map = {0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
    CHECK(LoopInitFrame::with_bitmap(LiId::Lifa, b).payload() == concat({0x11, 0x02, 0x00, 0x00}, map));
    CHECK(LoopInitFrame::with_bitmap(LiId::Lipa, b).payload() == concat({0x11, 0x03, 0x00, 0x00}, map));
    CHECK(LoopInitFrame::with_bitmap(LiId::Liha, b).payload() == concat({0x11, 0x04, 0x00, 0x00}, map));
    CHECK(LoopInitFrame::with_bitmap(LiId::Lisa, b).payload() == concat({0x11, 0x05, 0x00, 0x00}, map));
    const LoopInitFrame lisa = LoopInitFrame::with_bitmap(LiId::Lisa, b, loop::kLiFlPositionMap);
    CHECK(lisa.payload() == concat({0x11, 0x05, 0x01, 0x00}, map));
    CHECK(lisa.payload_bytes() == 20);
    CHECK(lisa.words() == 14);
    CHECK_THROWS_AS(LoopInitFrame::with_bitmap(LiId::Lism, b), std::invalid_argument);
    CHECK_THROWS_AS(LoopInitFrame::with_bitmap(LiId::Lirp, b), std::invalid_argument);
}

TEST_CASE("LI frames: LIRP and LILP carry an offset, the AL_PAs in loop order, then FF")
{
    const LoopInitFrame lirp = LoopInitFrame::with_positions(LiId::Lirp, {0x01, 0xE8, 0x02});
    Bytes expected = {0x11, 0x06, 0x00, 0x00, 0x03, 0x01, 0xE8, 0x02};
    expected.resize(132, 0xFF);
    CHECK(lirp.payload() == expected);
    CHECK(lirp.words() == 42);

    // A port without an AL_PA originates an empty map: 00 then FF.
    Bytes empty = {0x11, 0x07, 0x00, 0x00, 0x00};
    empty.resize(132, 0xFF);
    CHECK(LoopInitFrame::with_positions(LiId::Lilp, {}).payload() == empty);

    std::vector<phy::AlPa> all(phy::valid_al_pas().begin(), phy::valid_al_pas().end());
    const LoopInitFrame full = LoopInitFrame::with_positions(LiId::Lilp, all);
    CHECK(full.payload()[4] == 127);
    CHECK(full.payload()[131] == 0xEF);
    all.push_back(0x01);
    CHECK_THROWS_AS(LoopInitFrame::with_positions(LiId::Lilp, all), std::invalid_argument);
    CHECK_THROWS_AS(LoopInitFrame::with_positions(LiId::Lilp, {0xF0}), phy::InvalidAlPa);
    CHECK_THROWS_AS(LoopInitFrame::with_positions(LiId::Lisa, {}), std::invalid_argument);
}

TEST_CASE("LI frames: payloads decode back to the frames they came from")
{
    AlPaBitmap b;
    b.set_l_bit(true);
    b.claim(0x00);
    b.claim(0x73);
    const std::vector<LoopInitFrame> frames = {
        LoopInitFrame::lism(0x3000000000000005ull),
        LoopInitFrame::lism(0x1ull, loop::kFlPortInitAddress),
        LoopInitFrame::with_bitmap(LiId::Lifa, b),
        LoopInitFrame::with_bitmap(LiId::Lipa, b),
        LoopInitFrame::with_bitmap(LiId::Liha, b),
        LoopInitFrame::with_bitmap(LiId::Lisa, b, loop::kLiFlPositionMap),
        LoopInitFrame::with_positions(LiId::Lirp, {0x01}),
        LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0x02, 0xE8, 0x00}),
        LoopInitFrame::with_positions(LiId::Lilp, {}),
    };
    for (const auto& f : frames) {
        INFO(f.describe());
        const LoopInitFrame back = LoopInitFrame::decode(f.payload(), LoopInitFrame::address_of_header(f.header()));
        CHECK(back == f);
    }
}

TEST_CASE("LI frames: the header of an NL_Port's and an FL_Port's frames")
{
    const LoopInitFrame f = LoopInitFrame::lism(7);
    const std::array<std::uint8_t, 24> nl = {0x22, 0x00, 0x00, 0xEF, 0x00, 0x00, 0x00, 0xEF, 0x01, 0x38, 0x00, 0x00,
                                             0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00};
    CHECK(f.header() == nl);
    CHECK(LoopInitFrame::address_of_header(nl) == 0x0000EF);
    auto fl = nl;
    fl[3] = fl[7] = 0x00;
    CHECK(LoopInitFrame::lism(7, loop::kFlPortInitAddress).header() == fl);
    CHECK(LoopInitFrame::address_of_header(fl) == 0x000000);

    // One byte changed at a time; the error names the field.
    struct Corruption {
        std::size_t byte;
        std::uint8_t value;
        const char* field;
    };
    for (const Corruption& c : {Corruption{0, 0x23, "R_CTL"}, Corruption{7, 0xE8, "S_ID"}, Corruption{8, 0x08, "TYPE"},
                                Corruption{9, 0x29, "F_CTL"}, Corruption{17, 0x00, "OX_ID"},
                                Corruption{23, 0x01, "header byte 23"}, Corruption{4, 0x01, "header byte 4"}}) {
        auto bad = nl;
        bad[c.byte] = c.value;
        INFO("byte " << c.byte);
        CHECK_THROWS_WITH(LoopInitFrame::address_of_header(bad), Catch::Contains(c.field));
    }
    // D_ID = S_ID, but no loop initialization address.
    auto bad = nl;
    bad[3] = bad[7] = 0xE8;
    CHECK_THROWS_WITH(LoopInitFrame::address_of_header(bad), Catch::Contains("neither"));
}

TEST_CASE("LI frames: malformed payloads are refused with the reason")
{
    CHECK_THROWS_WITH(LoopInitFrame::decode({0x11, 0x01}), Catch::Contains("no LI_ID"));
    CHECK_THROWS_WITH(LoopInitFrame::decode({0x11, 0x08, 0x00, 0x00}), Catch::Contains("unknown LI_ID 0x1108"));
    CHECK_THROWS_WITH(LoopInitFrame::decode({0x12, 0x01, 0x00, 0x00}), Catch::Contains("unknown LI_ID"));
    CHECK_THROWS_WITH(LoopInitFrame::decode({0x11, 0x01, 0x00, 0x00, 1, 2, 3}), Catch::Contains("LISM payload is 7 bytes, not 12"));
    Bytes lilp = {0x11, 0x07, 0x00, 0x00, 0x80};
    lilp.resize(132, 0xFF);
    CHECK_THROWS_WITH(LoopInitFrame::decode(lilp), Catch::Contains("offset 128"));
    lilp[4] = 2;
    lilp[5] = 0x01;
    lilp[6] = 0xF0;
    CHECK_THROWS_WITH(LoopInitFrame::decode(lilp), Catch::Contains("position 2 holds 0xF0"));
    lilp[6] = 0x02;
    lilp[7] = 0x04;
    CHECK_THROWS_WITH(LoopInitFrame::decode(lilp), Catch::Contains("not FF"));
    lilp[7] = 0xFF;
    CHECK(LoopInitFrame::decode(lilp).positions == std::vector<phy::AlPa>{0x01, 0x02});
}
