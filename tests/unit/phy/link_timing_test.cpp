// Link timing: word times from 40 bits / baud, frame lengths (docs/phy.md, "Line rates and word
// time", docs/fcp.md, "Frames and information units").
#include <catch2/catch.hpp>

#include <cstdint>

#include "fcal/phy/link_timing.hpp"

using namespace fcal::phy;
using sc_core::sc_time;
using sc_core::SC_NS;
using sc_core::SC_PS;

namespace {

const LineRate kRates[] = {LineRate::G1, LineRate::G2, LineRate::G4, LineRate::G8};

// n words at 1.0625e9 * m baud = n * 40 / (17/16 * 1e9 * m) s = n * 640000 / (17 m) ps, rounded
// to the nearest ps in integer arithmetic.
std::uint64_t reference_ps(std::uint64_t n, unsigned m) { return (2 * n * 640000 + 17 * m) / (2 * 17 * m); }

unsigned multiplier(LineRate r)
{
    switch (r) {
    case LineRate::G1: return 1;
    case LineRate::G2: return 2;
    case LineRate::G4: return 4;
    case LineRate::G8: return 8;
    }
    return 0;
}

}  // namespace

TEST_CASE("link timing: word time at every line rate to the picosecond")
{
    CHECK(LinkTiming(LineRate::G1).word_time() == sc_time(37647, SC_PS));
    CHECK(LinkTiming(LineRate::G2).word_time() == sc_time(18824, SC_PS));
    CHECK(LinkTiming(LineRate::G4).word_time() == sc_time(9412, SC_PS));
    CHECK(LinkTiming(LineRate::G8).word_time() == sc_time(4706, SC_PS));
    CHECK(baud(LineRate::G1) == 1.0625e9);
    CHECK(baud(LineRate::G8) == 8.5e9);
    CHECK(LinkTiming(LineRate::G2).word_seconds() == Approx(18.8235294e-9));
}

TEST_CASE("link timing: word counts do not accumulate rounding")
{
    for (LineRate r : kRates) {
        const LinkTiming t(r);
        INFO(to_string(r));
        for (std::uint64_t n : {0ull, 1ull, 17ull, 521ull, 1000ull, 123457ull, 10000000ull, 1000000007ull})
            CHECK(t.words(n) == sc_time(static_cast<double>(reference_ps(n, multiplier(r))), SC_PS));
    }
    // 17 words at 1GFC are exactly 640 ns.
    CHECK(LinkTiming(LineRate::G1).words(17) == sc_time(640, SC_NS));
}

TEST_CASE("link timing: a word count asked again, or after another that shares its slot, keeps its time")
{
    // words() remembers its last results (0-7 words each in a slot, a larger count in slot n mod 8):
    // repeats, counts that take each other's slot (1 and 17; 521, 1025 and 9) and a zero in between.
    const std::uint64_t asked[] = {1, 521, 17, 1, 2, 6, 521, 1025, 521, 9, 17, 0, 1, 10000000, 521, 2, 6, 1};
    for (LineRate r : kRates) {
        const LinkTiming t(r);
        INFO(to_string(r));
        for (std::uint64_t n : asked) {
            INFO(n << " words");
            CHECK(t.words(n) == sc_time(static_cast<double>(reference_ps(n, multiplier(r))), SC_PS));
        }
        const LinkTiming copy = t;  // a copy carries what it has remembered, still exact
        for (std::uint64_t n : asked) CHECK(copy.words(n) == t.words(n));
    }
}

TEST_CASE("link timing: frame lengths in words")
{
    CHECK(LinkTiming::frame_words(2048) == 521);  // full data frame
    CHECK(LinkTiming::frame_words(32) == 17);     // FCP_CMND
    CHECK(LinkTiming::frame_words(12) == 12);     // FCP_XFER_RDY
    CHECK(LinkTiming::frame_words(24) == 15);     // FCP_RSP
    CHECK(LinkTiming::frame_words(0) == 9);
    CHECK(LinkTiming::frame_words(2112) == 537);
    CHECK(LinkTiming::frame_words(1) == 10);  // payload padded to a whole word
    CHECK(LinkTiming::words_for_bytes(4) == 1);
    CHECK(LinkTiming::words_for_bytes(5) == 2);
    const LinkTiming t(LineRate::G2);
    CHECK(t.frame_time(2048) == t.words(521));
    CHECK(t.port_delay(6) == t.words(6));
}

TEST_CASE("link timing: cable propagation")
{
    const LinkTiming t(LineRate::G2);
    CHECK(t.cable(1.0) == sc_time(5, SC_NS));
    CHECK(t.cable(10.0) == sc_time(50, SC_NS));
    CHECK(t.cable(0.0) == sc_time(0, SC_NS));
    CHECK(t.cable(0.3) == sc_time(1500, SC_PS));
    CHECK(LinkTiming(LineRate::G8, 4.2).cable(2.0) == sc_time(8400, SC_PS));
    CHECK_THROWS_AS(t.cable(-1.0), std::invalid_argument);
    CHECK_THROWS_AS(LinkTiming(LineRate::G1, -5.0), std::invalid_argument);
}

TEST_CASE("link timing: rate names and bandwidth")
{
    for (LineRate r : kRates) CHECK(parse_line_rate(to_string(r)) == r);
    CHECK(to_string(LineRate::G2) == "2GFC");
    CHECK_THROWS_AS(parse_line_rate("3GFC"), std::invalid_argument);
    CHECK_THROWS_AS(parse_line_rate("2gfc"), std::invalid_argument);
    // 8 data bits per 10-bit character: 1GFC carries 106.25 MB/s (marketed as 100 MB/s).
    CHECK(LinkTiming(LineRate::G1).character_mb_per_s() == Approx(106.25));  // 1.0625e9 / 10 bits
    CHECK(LinkTiming(LineRate::G8).character_mb_per_s() == Approx(850.0));
    CHECK(LinkTiming(LineRate::G1).nominal_mb_per_s() == Approx(100.0));  // 100/200/400/800 MB/s nominal
    CHECK(LinkTiming(LineRate::G2).nominal_mb_per_s() == Approx(200.0));
    CHECK(LinkTiming(LineRate::G8).nominal_mb_per_s() == Approx(800.0));
}
