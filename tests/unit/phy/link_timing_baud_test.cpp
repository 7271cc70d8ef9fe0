// loop.baud_gbps (docs/model.md, "The physical layer: line rate override"): a baud override
// replaces the speed's standard baud in every duration; expected times are 40 bits per word divided
// by the baud given, written out here.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "fcal/phy/link_timing.hpp"

using namespace fcal::phy;

TEST_CASE("link timing: a baud override sets the word and frame time")
{
    // 2.0 Gbaud: one word 20 ns exactly; a 2048-byte frame is 521 words = 10420 ns.
    const LinkTiming t(LineRate::G2, 5.0, 2.0e9);
    CHECK(t.word_time() == sc_core::sc_time(20000, sc_core::SC_PS));
    CHECK(t.frame_time(2048) == sc_core::sc_time(521 * 20000, sc_core::SC_PS));
    CHECK(t.rate() == LineRate::G2);  // the speed's name is kept
    CHECK(t.nominal_mb_per_s() == Approx(100.0 * 2.0 / 1.0625));
    CHECK(t.character_mb_per_s() == Approx(200.0));

    // The frame time scales as 1 / baud: at 1.0 and 4.0 Gbaud a 2048-byte frame lasts 20840 and 5210 ns.
    CHECK(LinkTiming(LineRate::G2, 5.0, 1.0e9).frame_time(2048) == sc_core::sc_time(20840, sc_core::SC_NS));
    CHECK(LinkTiming(LineRate::G2, 5.0, 4.0e9).frame_time(2048) == sc_core::sc_time(5210, sc_core::SC_NS));
    // Cable delay does not depend on the baud.
    CHECK(t.cable(10.0) == LinkTiming(LineRate::G2).cable(10.0));
}

TEST_CASE("link timing: no override (0) keeps the standard baud, a negative one is refused")
{
    CHECK(LinkTiming(LineRate::G2, 5.0, 0.0).word_time() == LinkTiming(LineRate::G2).word_time());
    // An override equal to another speed's baud gives that speed's timing.
    CHECK(LinkTiming(LineRate::G2, 5.0, 1.0625e9).words(1000) == LinkTiming(LineRate::G1).words(1000));
    CHECK_THROWS_AS(LinkTiming(LineRate::G2, 5.0, -1.0), std::invalid_argument);
}
