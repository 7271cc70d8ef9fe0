// Ordered sets against the table in docs/model.md, "The physical layer: ordered sets" (typed in as
// bytes) and codes worked out by hand from
// the standard's sub-block tables.
#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/ordered_set.hpp"
#include "ordered_set_text.hpp"

using namespace fcal::phy;
using fcal::test::codes_of;
using fcal::test::names_of;

namespace {

const auto& kBoth = fcal::test::kBothDisparities;

struct TableRow {
    OrderedSetKind kind;
    const char* name;
    std::array<std::uint8_t, 3> after_minus;  // characters 2-4 when the word starts at RD-
    std::array<std::uint8_t, 3> after_plus;   // ... at RD+ (differs only for the EOFs)
};

const std::vector<TableRow> kTable = {
    {OrderedSetKind::Idle, "IDLE", {0x95, 0xB5, 0xB5}, {0x95, 0xB5, 0xB5}},
    {OrderedSetKind::RRdy, "R_RDY", {0x95, 0x4A, 0x4A}, {0x95, 0x4A, 0x4A}},
    {OrderedSetKind::ArbF0, "ARB(F0)", {0x94, 0xF0, 0xF0}, {0x94, 0xF0, 0xF0}},
    {OrderedSetKind::ArbFF, "ARBff", {0x94, 0xFF, 0xFF}, {0x94, 0xFF, 0xFF}},
    {OrderedSetKind::Cls, "CLS", {0x85, 0xB5, 0xB5}, {0x85, 0xB5, 0xB5}},
    {OrderedSetKind::SofC1, "SOFc1", {0xB5, 0x17, 0x17}, {0xB5, 0x17, 0x17}},
    {OrderedSetKind::SofI2, "SOFi2", {0xB5, 0x55, 0x55}, {0xB5, 0x55, 0x55}},
    {OrderedSetKind::SofN2, "SOFn2", {0xB5, 0x35, 0x35}, {0xB5, 0x35, 0x35}},
    {OrderedSetKind::SofI3, "SOFi3", {0xB5, 0x56, 0x56}, {0xB5, 0x56, 0x56}},
    {OrderedSetKind::SofN3, "SOFn3", {0xB5, 0x36, 0x36}, {0xB5, 0x36, 0x36}},
    {OrderedSetKind::EofN, "EOFn", {0x95, 0xD5, 0xD5}, {0xB5, 0xD5, 0xD5}},
    {OrderedSetKind::EofT, "EOFt", {0x95, 0x75, 0x75}, {0xB5, 0x75, 0x75}},
    {OrderedSetKind::LipF7F7, "LIP(F7,F7)", {0x15, 0xF7, 0xF7}, {0x15, 0xF7, 0xF7}},
};

TransmissionWord word_of(std::array<std::uint8_t, 3> bytes) { return fcal::test::word_of(bytes[0], bytes[1], bytes[2]); }

}  // namespace

TEST_CASE("ordered sets: characters match the ordered-set table from both disparities")
{
    for (const auto& row : kTable) {
        const OrderedSet set(row.kind);
        INFO(row.name);
        CHECK(set.name() == row.name);
        CHECK(set.characters(Disparity::Minus) == word_of(row.after_minus));
        CHECK(set.characters(Disparity::Plus) == word_of(row.after_plus));
    }
    CHECK(OrderedSet::arb(0xE8).characters(Disparity::Minus) == word_of({0x94, 0xE8, 0xE8}));
    CHECK(OrderedSet::opn_full(0xE8, 0x01).characters(Disparity::Plus) == word_of({0x91, 0xE8, 0x01}));
    CHECK(OrderedSet::opn_half(0xE8).characters(Disparity::Minus) == word_of({0x91, 0xE8, 0xE8}));
}

TEST_CASE("ordered sets: EOF second character follows the running disparity")
{
    const OrderedSet eofn(OrderedSetKind::EofN);
    const OrderedSet eoft(OrderedSetKind::EofT);
    CHECK(names_of(eofn.characters(Disparity::Minus)) == "K28.5 D21.4 D21.6 D21.6");
    CHECK(names_of(eofn.characters(Disparity::Plus)) == "K28.5 D21.5 D21.6 D21.6");
    CHECK(names_of(eoft.characters(Disparity::Minus)) == "K28.5 D21.4 D21.3 D21.3");
    CHECK(names_of(eoft.characters(Disparity::Plus)) == "K28.5 D21.5 D21.3 D21.3");

    // Worked out from the sub-block tables; either way an EOF leaves the line at RD-.
    const EncodedWord n_minus = eofn.encode(Disparity::Minus);
    CHECK(codes_of(n_minus) == "0011111010 1010100010 1010100110 1010100110");
    CHECK(n_minus.rd_after == Disparity::Minus);
    const EncodedWord n_plus = eofn.encode(Disparity::Plus);
    CHECK(codes_of(n_plus) == "1100000101 1010101010 1010100110 1010100110");
    CHECK(n_plus.rd_after == Disparity::Minus);
    const EncodedWord t_minus = eoft.encode(Disparity::Minus);
    CHECK(codes_of(t_minus) == "0011111010 1010100010 1010101100 1010101100");
    CHECK(t_minus.rd_after == Disparity::Minus);
    const EncodedWord t_plus = eoft.encode(Disparity::Plus);
    CHECK(codes_of(t_plus) == "1100000101 1010101010 1010101100 1010101100");
    CHECK(t_plus.rd_after == Disparity::Minus);
}

TEST_CASE("ordered sets: IDLE and ARB codes from both disparities")
{
    const OrderedSet idle(OrderedSetKind::Idle);
    const EncodedWord i_minus = idle.encode(Disparity::Minus);
    CHECK(names_of(idle.characters(Disparity::Minus)) == "K28.5 D21.4 D21.5 D21.5");
    CHECK(codes_of(i_minus) == "0011111010 1010100010 1010101010 1010101010");
    CHECK(i_minus.rd_after == Disparity::Minus);
    const EncodedWord i_plus = idle.encode(Disparity::Plus);
    CHECK(codes_of(i_plus) == "1100000101 1010101101 1010101010 1010101010");
    CHECK(i_plus.rd_after == Disparity::Plus);

    // ARB(E8) = K28.5 D20.4 D8.7 D8.7; D8 is unbalanced, so D8.7 takes P7 (A7 is only for x = 17,
    // 18, 20 at RD- and 11, 13, 14 at RD+).
    const EncodedWord a_plus = OrderedSet::arb(0xE8).encode(Disparity::Plus);
    CHECK(codes_of(a_plus) == "1100000101 0010111101 0001101110 0001101110");
    CHECK(a_plus.rd_after == Disparity::Plus);
}

TEST_CASE("ordered sets: fill words and primitives keep the running disparity")
{
    // Neutral AL_PAs are what makes ARB/OPN words leave RD unchanged.
    std::vector<OrderedSet> sets = {OrderedSet(OrderedSetKind::Idle), OrderedSet(OrderedSetKind::RRdy),
                                    OrderedSet(OrderedSetKind::ArbF0), OrderedSet(OrderedSetKind::ArbFF),
                                    OrderedSet(OrderedSetKind::Cls), OrderedSet(OrderedSetKind::LipF7F7)};
    for (AlPa a : valid_al_pas()) {
        sets.push_back(OrderedSet::arb(a));
        sets.push_back(OrderedSet::opn_half(a));
        if (a != 0xEF) sets.push_back(OrderedSet::opn_full(a, 0xEF));
    }
    for (const auto& set : sets)
        for (Disparity rd : kBoth) {
            INFO(set.name() << " from RD" << disparity_symbol(rd));
            CHECK(set.encode(rd).rd_after == rd);
        }
}

TEST_CASE("ordered sets: encode_word continues the running disparity character by character")
{
    for (const auto& row : kTable)
        for (Disparity rd : kBoth) {
            const OrderedSet set(row.kind);
            const TransmissionWord chars = set.characters(rd);
            const EncodedWord w = encode_word(chars, rd);
            Disparity r = rd;
            for (std::size_t i = 0; i < 4; ++i) {
                const Encoded e = encode(chars[i], r);
                CHECK(w.codes[i] == e.code);
                r = e.rd_after;
            }
            CHECK(w.rd_after == r);
        }
}

TEST_CASE("ordered sets: names round trip")
{
    for (const auto& row : kTable) CHECK(OrderedSet::parse(row.name).name() == row.name);
    for (AlPa a : valid_al_pas()) {
        CHECK(OrderedSet::parse(OrderedSet::arb(a).name()) == OrderedSet::arb(a));
        CHECK(OrderedSet::parse(OrderedSet::opn_half(a).name()) == OrderedSet::opn_half(a));
    }
    CHECK(OrderedSet::arb(0xE8).name() == "ARB(0xE8)");
    CHECK(OrderedSet::opn_full(0xE8, 0x01).name() == "OPN(0xE8,0x01)");
    CHECK(OrderedSet::opn_half(0xE8).name() == "OPN(0xE8)");
    CHECK(OrderedSet::parse("OPN(0xE8,0x01)") == OrderedSet::opn_full(0xE8, 0x01));
    CHECK(OrderedSet::parse("OPN(0xE8,0x01)").y() == 0xE8);
    CHECK(OrderedSet::parse("OPN(0xE8,0x01)").x() == 0x01);
    CHECK(OrderedSet::parse("OPN(0xE8)").kind() == OrderedSetKind::OpnHalf);
    // Lenient spellings of the same sets.
    CHECK(OrderedSet::parse("idle").kind() == OrderedSetKind::Idle);
    CHECK(OrderedSet::parse("arb(e8)") == OrderedSet::arb(0xE8));
    CHECK(OrderedSet::parse("ARB(0xF0)").kind() == OrderedSetKind::ArbF0);
    CHECK(OrderedSet::parse("ARB(0xFF)").kind() == OrderedSetKind::ArbFF);
    CHECK(OrderedSet::parse("ARBFF").kind() == OrderedSetKind::ArbFF);
}

TEST_CASE("ordered sets: bad names and addresses are rejected")
{
    for (const char* bad : {"", "FOO", "IDLE2", "ARB", "ARB()", "ARB(0xE8", "ARB(0x1E8)", "ARB(0xE8,0xE8)",
                            "OPN()", "OPN(0xE8,)", "OPN(,0x01)", "LIP(F8,F8)", "ARB(zz)"}) {
        INFO(bad);
        CHECK_THROWS_AS(OrderedSet::parse(bad), std::invalid_argument);
    }
    CHECK_THROWS_WITH(OrderedSet::parse("FOO"), Catch::Contains("unknown ordered set 'FOO'"));
    // 0x03 is D3.0: balanced 6b block, unbalanced 4b block, so not neutral.
    CHECK_THROWS_AS(OrderedSet::parse("ARB(0x03)"), InvalidAlPa);
    CHECK_THROWS_WITH(OrderedSet::parse("ARB(0x03)"), Catch::Contains("ARB(0x03)"));
    CHECK_THROWS_AS(OrderedSet::parse("OPN(0xF7)"), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet::parse("OPN(0xE8,0xF0)"), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet::parse("OPN(0xE8,0xE8)"), std::invalid_argument);
    CHECK_THROWS_AS(OrderedSet::arb(0xF0), InvalidAlPa);
    CHECK_THROWS_AS(OrderedSet::opn_full(0x01, 0x01), std::invalid_argument);
    CHECK_THROWS_AS(OrderedSet(OrderedSetKind::Arb), std::invalid_argument);
    CHECK_THROWS_AS(OrderedSet(OrderedSetKind::OpnFull), std::invalid_argument);
}

TEST_CASE("ordered sets: every set is recognised from both disparities")
{
    std::vector<OrderedSet> sets;
    for (const auto& row : kTable) sets.push_back(OrderedSet(row.kind));
    for (AlPa y : valid_al_pas()) {
        sets.push_back(OrderedSet::arb(y));
        sets.push_back(OrderedSet::opn_half(y));
        for (AlPa x : valid_al_pas())
            if (x != y) sets.push_back(OrderedSet::opn_full(y, x));
    }
    for (const auto& set : sets)
        for (Disparity rd : kBoth) {
            const auto got = OrderedSet::recognise(set.characters(rd), rd);
            if (!got || *got != set) FAIL(set.name() << " from RD" << disparity_symbol(rd) << " not recognised");
        }
    SUCCEED();
}

TEST_CASE("ordered sets: near misses are not recognised")
{
    // An EOF whose second character contradicts the running disparity at its start.
    const OrderedSet eofn(OrderedSetKind::EofN);
    CHECK_FALSE(OrderedSet::recognise(eofn.characters(Disparity::Minus), Disparity::Plus));
    CHECK_FALSE(OrderedSet::recognise(eofn.characters(Disparity::Plus), Disparity::Minus));
    CHECK_FALSE(OrderedSet::recognise(word_of({0x95, 0xB5, 0x4A}), Disparity::Minus));  // mixed IDLE/R_RDY
    CHECK_FALSE(OrderedSet::recognise(word_of({0x94, 0x03, 0x03}), Disparity::Minus));  // ARB of no AL_PA
    CHECK_FALSE(OrderedSet::recognise(word_of({0x94, 0xE8, 0xE4}), Disparity::Minus));
    CHECK_FALSE(OrderedSet::recognise(word_of({0x91, 0xE8, 0xF0}), Disparity::Minus));  // OPN to no AL_PA
    CHECK_FALSE(OrderedSet::recognise(word_of({0x42, 0x42, 0x42}), Disparity::Minus));
    TransmissionWord not_k = word_of({0x95, 0xB5, 0xB5});
    not_k[0] = data_character(0xBC);
    CHECK_FALSE(OrderedSet::recognise(not_k, Disparity::Minus));
    TransmissionWord k_inside = word_of({0x95, 0xB5, 0xB5});
    k_inside[3] = kK28_5;
    CHECK_FALSE(OrderedSet::recognise(k_inside, Disparity::Minus));
}
