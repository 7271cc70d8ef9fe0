// The primitive sequences of loop initialization and port bypass (docs/loop_init.md, "LIP, LPB and
// LPE"): characters typed in from the drive manuals' table of FC-AL
// primitive sequences, codes worked out by hand from the standard's 5b/6b and 3b/4b tables, and
// every set decoded back from its codes.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/ordered_set.hpp"
#include "ordered_set_text.hpp"

using namespace fcal::phy;
using fcal::test::codes_of;
using fcal::test::names_of;
using fcal::test::word_of;

namespace {

const auto& kBoth = fcal::test::kBothDisparities;

// Every LIP, LPB and LPE: the parameterless ones and each one with AL_PAs over all valid AL_PAs
// (LIP(y,x), LPB(y,x) and LPE(y,x) over a spread of destinations, to keep the count moderate).
std::vector<OrderedSet> all_sequences()
{
    std::vector<OrderedSet> sets = {OrderedSet(OrderedSetKind::LipF7F7), OrderedSet(OrderedSetKind::LipF8F7)};
    const auto& v = valid_al_pas();
    for (AlPa x : v) {
        sets.push_back(OrderedSet::lip_initializing(x));
        sets.push_back(OrderedSet::lip_failure(x));
        sets.push_back(OrderedSet::lip_reset_all(x));
        sets.push_back(OrderedSet::lpb_all(x));
        sets.push_back(OrderedSet::lpe_all(x));
        for (std::size_t i = 0; i < v.size(); i += 7) {
            sets.push_back(OrderedSet::lip_reset(v[i], x));
            sets.push_back(OrderedSet::lpb(v[i], x));
            sets.push_back(OrderedSet::lpe(v[i], x));
        }
    }
    return sets;
}

}  // namespace

TEST_CASE("primitive sequences: characters follow the FC-AL primitive sequence table")
{
    // K28.5, then 15 (LIP) / 09 (LPB) / 05 (LPE), then y and x.
    CHECK(OrderedSet(OrderedSetKind::LipF7F7).characters(Disparity::Minus) == word_of(0x15, 0xF7, 0xF7));
    CHECK(OrderedSet(OrderedSetKind::LipF8F7).characters(Disparity::Minus) == word_of(0x15, 0xF8, 0xF7));
    CHECK(OrderedSet::lip_initializing(0xE8).characters(Disparity::Minus) == word_of(0x15, 0xF7, 0xE8));
    CHECK(OrderedSet::lip_failure(0xE8).characters(Disparity::Minus) == word_of(0x15, 0xF8, 0xE8));
    CHECK(OrderedSet::lip_reset(0xE8, 0x01).characters(Disparity::Minus) == word_of(0x15, 0xE8, 0x01));
    CHECK(OrderedSet::lip_reset_all(0x01).characters(Disparity::Minus) == word_of(0x15, 0xFF, 0x01));
    CHECK(OrderedSet::lpb(0xE8, 0x01).characters(Disparity::Minus) == word_of(0x09, 0xE8, 0x01));
    CHECK(OrderedSet::lpb_all(0x01).characters(Disparity::Minus) == word_of(0x09, 0xFF, 0x01));
    CHECK(OrderedSet::lpe(0xE8, 0x01).characters(Disparity::Minus) == word_of(0x05, 0xE8, 0x01));
    CHECK(OrderedSet::lpe_all(0x01).characters(Disparity::Minus) == word_of(0x05, 0xFF, 0x01));

    // The manuals write them as transmission characters.
    CHECK(names_of(OrderedSet(OrderedSetKind::LipF7F7).characters(Disparity::Minus)) == "K28.5 D21.0 D23.7 D23.7");
    CHECK(names_of(OrderedSet(OrderedSetKind::LipF8F7).characters(Disparity::Minus)) == "K28.5 D21.0 D24.7 D23.7");
    CHECK(names_of(OrderedSet::lip_reset_all(0x01).characters(Disparity::Minus)) == "K28.5 D21.0 D31.7 D1.0");
    CHECK(names_of(OrderedSet::lpb(0xE8, 0x01).characters(Disparity::Minus)) == "K28.5 D9.0 D8.7 D1.0");
    CHECK(names_of(OrderedSet::lpe_all(0x01).characters(Disparity::Minus)) == "K28.5 D5.0 D31.7 D1.0");

    // No disparity-dependent character: the same from either disparity.
    for (const auto& set : all_sequences()) {
        INFO(set.name());
        CHECK(set.characters(Disparity::Minus) == set.characters(Disparity::Plus));
    }
}

TEST_CASE("primitive sequences: codes worked out by hand from the sub-block tables")
{
    // LIP(F8,F7) = K28.5 D21.0 D24.7 D23.7. From RD-: K28.5 001111 1010 leaves RD+; D21's 101010 is
    // balanced, D.x.0 at RD+ is 0100 and leaves RD-; D24 at RD- is 110011 (RD+), D.x.7 at RD+ is
    // P7 0001 (A7 only for x = 11, 13, 14 at RD+), back to RD-; D23 at RD- 111010, then 0001.
    const OrderedSet f8f7(OrderedSetKind::LipF8F7);
    const EncodedWord m = f8f7.encode(Disparity::Minus);
    CHECK(codes_of(m) == "0011111010 1010100100 1100110001 1110100001");
    CHECK(m.rd_after == Disparity::Minus);
    // From RD+: K28.5 110000 0101 leaves RD-; D21.0 takes 1011 (RD+); D24 at RD+ 001100 (RD-) then
    // P7 at RD- 1110 (A7 only for x = 17, 18, 20 at RD-), RD+; D23 at RD+ 000101, then 1110.
    const EncodedWord p = f8f7.encode(Disparity::Plus);
    CHECK(codes_of(p) == "1100000101 1010101011 0011001110 0001011110");
    CHECK(p.rd_after == Disparity::Plus);

    // LIP(F7,E8) = K28.5 D21.0 D23.7 D8.7 from RD-; D8 at RD- is 111001.
    CHECK(codes_of(OrderedSet::lip_initializing(0xE8).encode(Disparity::Minus)) ==
          "0011111010 1010100100 1110100001 1110010001");

    // LPB(E8,01) = K28.5 D9.0 D8.7 D1.0 from RD-: D9 100101 is balanced; D1 at RD- is 011101.
    const EncodedWord lpb = OrderedSet::lpb(0xE8, 0x01).encode(Disparity::Minus);
    CHECK(codes_of(lpb) == "0011111010 1001010100 1110010001 0111010100");
    CHECK(lpb.rd_after == Disparity::Minus);

    // LPE(FF,01) = K28.5 D5.0 D31.7 D1.0 from RD+: D5 101001 balanced, D.x.0 at RD- 1011 (RD+);
    // D31 at RD+ 010100 (RD-), P7 at RD- 1110 (RD+); D1 at RD+ 100010 (RD-), 1011 (RD+).
    const EncodedWord lpe = OrderedSet::lpe_all(0x01).encode(Disparity::Plus);
    CHECK(codes_of(lpe) == "1100000101 1010011011 0101001110 1000101011");
    CHECK(lpe.rd_after == Disparity::Plus);
}

TEST_CASE("primitive sequences: every word leaves the running disparity where it found it")
{
    // K28.5 and the family character each flip RD once; F7, F8, FF and the AL_PAs are neutral.
    for (const auto& set : all_sequences())
        for (Disparity rd : kBoth) {
            INFO(set.name() << " from RD" << disparity_symbol(rd));
            CHECK(set.encode(rd).rd_after == rd);
        }
}

TEST_CASE("primitive sequences: decoded from their codes and recognised, from both disparities")
{
    for (const auto& set : all_sequences())
        for (Disparity start : kBoth) {
            const EncodedWord enc = set.encode(start);
            TransmissionWord chars{};
            Disparity rd = start;
            bool clean = true;
            for (std::size_t i = 0; i < 4; ++i) {
                const Decoded d = decode(enc.codes[i], rd);
                clean = clean && d.valid && !d.disparity_error;
                chars[i] = d.character;
                rd = d.rd_after;
            }
            const auto got = OrderedSet::recognise(chars, start);
            if (!clean || !got || *got != set || rd != enc.rd_after)
                FAIL(set.name() << " from RD" << disparity_symbol(start) << " does not decode back");
        }
    SUCCEED();
}

TEST_CASE("primitive sequences: what is not a LIP, LPB or LPE is not recognised")
{
    CHECK_FALSE(OrderedSet::recognise(word_of(0x15, 0xF8, 0xF8), Disparity::Minus));  // F8 needs F7 or an AL_PA
    CHECK_FALSE(OrderedSet::recognise(word_of(0x15, 0xF7, 0xF0), Disparity::Minus));  // F0 is no AL_PA
    CHECK_FALSE(OrderedSet::recognise(word_of(0x15, 0xFF, 0xF7), Disparity::Minus));  // reset all needs a source
    CHECK_FALSE(OrderedSet::recognise(word_of(0x15, 0x03, 0x01), Disparity::Minus));  // 03 is no AL_PA
    CHECK_FALSE(OrderedSet::recognise(word_of(0x09, 0xF7, 0x01), Disparity::Minus));  // LPB has no F7 form
    CHECK_FALSE(OrderedSet::recognise(word_of(0x05, 0xE8, 0xFF), Disparity::Minus));
    CHECK_FALSE(OrderedSet::recognise(word_of(0x05, 0xF8, 0x01), Disparity::Minus));
}

TEST_CASE("primitive sequences: names round trip and are parsed leniently")
{
    CHECK(OrderedSet(OrderedSetKind::LipF7F7).name() == "LIP(F7,F7)");
    CHECK(OrderedSet(OrderedSetKind::LipF8F7).name() == "LIP(F8,F7)");
    CHECK(OrderedSet::lip_initializing(0x01).name() == "LIP(F7,0x01)");
    CHECK(OrderedSet::lip_failure(0x01).name() == "LIP(F8,0x01)");
    CHECK(OrderedSet::lip_reset(0xE8, 0x01).name() == "LIP(0xE8,0x01)");
    CHECK(OrderedSet::lip_reset_all(0x01).name() == "LIP(FF,0x01)");
    CHECK(OrderedSet::lpb(0xE8, 0x01).name() == "LPB(0xE8,0x01)");
    CHECK(OrderedSet::lpb_all(0x01).name() == "LPB(FF,0x01)");
    CHECK(OrderedSet::lpe(0xE8, 0x01).name() == "LPE(0xE8,0x01)");
    CHECK(OrderedSet::lpe_all(0x01).name() == "LPE(FF,0x01)");
    for (const auto& set : all_sequences()) {
        INFO(set.name());
        CHECK(OrderedSet::parse(set.name()) == set);
    }
    CHECK(OrderedSet::parse("lip(f7,f7)").kind() == OrderedSetKind::LipF7F7);
    CHECK(OrderedSet::parse("LIP(0xF8,0xF7)").kind() == OrderedSetKind::LipF8F7);
    CHECK(OrderedSet::parse("lip(f7,e8)") == OrderedSet::lip_initializing(0xE8));
    CHECK(OrderedSet::parse("lpb(ff,01)") == OrderedSet::lpb_all(0x01));
    CHECK(OrderedSet::parse("LPE(E8,0x01)") == OrderedSet::lpe(0xE8, 0x01));
    // The loop initialization frames' SOFil is SOFi3's characters under another name.
    CHECK(OrderedSet::parse("SOFil").kind() == OrderedSetKind::SofI3);
    CHECK(OrderedSet::parse("sofil").characters(Disparity::Minus) == word_of(0xB5, 0x56, 0x56));
}

TEST_CASE("primitive sequences: bad names and addresses are rejected")
{
    for (const char* bad : {"LIP", "LIP()", "LIP(F7)", "LIP(F8,F8)", "LIP(F7,F0)", "LIP(FF,F7)", "LIP(0x03,0x01)",
                            "LIP(F7,F7,F7)", "LPB(0xE8)", "LPB(F7,0x01)", "LPB(0xE8,FF)", "LPE(F8,0x01)", "LPE()"}) {
        INFO(bad);
        CHECK_THROWS_AS(OrderedSet::parse(bad), std::invalid_argument);
    }
    CHECK_THROWS_WITH(OrderedSet::parse("LIP(F8,F8)"), Catch::Contains("LIP(F8,F8)"));
    // The list of names the error gives (and fcal-codec's help may show) has the new families.
    const std::string names = ordered_set_names();
    for (const char* n : {"LIP(F7,F7)", "LIP(F8,x)", "LIP(FF,x)", "LPB(y,x)", "LPE(FF,x)", "SOFil"})
        CHECK(names.find(n) != std::string::npos);
    CHECK_THROWS_AS(OrderedSet::lip_initializing(0xF0), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet::lip_reset(0x03, 0x01), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet::lpb(0xE8, 0xF7), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet(OrderedSetKind::LipF7), std::invalid_argument);
    CHECK_THROWS_AS(OrderedSet(OrderedSetKind::LpbYx), std::invalid_argument);
}

TEST_CASE("primitive sequences: families and addresses")
{
    const OrderedSet reset = OrderedSet::lip_reset(0xE8, 0x01);
    CHECK(reset.is_lip());
    CHECK_FALSE(reset.is_port_bypass());
    CHECK(reset.is_primitive_sequence());
    CHECK(reset.y() == 0xE8);
    CHECK(reset.x() == 0x01);
    const OrderedSet lpb = OrderedSet::lpb(0xE8, 0x01);
    CHECK(lpb.is_port_bypass());
    CHECK_FALSE(lpb.is_lip());
    CHECK(lpb.y() == 0xE8);
    CHECK(lpb.x() == 0x01);
    CHECK(OrderedSet::lip_failure(0x01).x() == 0x01);
    CHECK(OrderedSet::lip_initializing(std::nullopt) == OrderedSet(OrderedSetKind::LipF7F7));
    CHECK(OrderedSet::lip_failure(std::nullopt) == OrderedSet(OrderedSetKind::LipF8F7));
    CHECK_FALSE(OrderedSet(OrderedSetKind::Idle).is_primitive_sequence());
    CHECK_FALSE(OrderedSet::arb(0x01).is_primitive_sequence());
}
