// Primitive sequences are acted on after three identical ordered sets in a row (docs/loop_init.md,
// "LIP, LPB and LPE"), fed word by word.
#include <catch2/catch.hpp>

#include "fcal/loop/primitive_sequence_detector.hpp"

using namespace fcal;
using loop::PrimitiveSequenceDetector;
using phy::OrderedSet;
using phy::OrderedSetKind;

TEST_CASE("primitive sequences: recognised at the third identical word, once per run")
{
    PrimitiveSequenceDetector d;
    const OrderedSet lip(OrderedSetKind::LipF7F7);
    CHECK_FALSE(d.receive(lip));
    CHECK_FALSE(d.receive(lip));
    CHECK_FALSE(d.recognised());
    CHECK(d.receive(lip) == lip);
    CHECK(d.recognised());
    for (int i = 0; i < 100; ++i) CHECK_FALSE(d.receive(lip));
    CHECK(d.recognised());
    CHECK(d.current() == lip);
}

TEST_CASE("primitive sequences: a different word restarts the count")
{
    PrimitiveSequenceDetector d;
    const OrderedSet a = OrderedSet::lip_failure(0x01);
    const OrderedSet b = OrderedSet::lip_failure(0x02);
    d.receive(a);
    d.receive(a);
    CHECK_FALSE(d.receive(b));  // another LIP: run of one
    CHECK(d.run() == 1);
    d.receive(b);
    CHECK(d.receive(b) == b);
    // A fill word, a frame's data word or a code violation ends the run.
    d.receive(a);
    d.receive(a);
    CHECK_FALSE(d.receive(OrderedSet(OrderedSetKind::Idle)));
    CHECK_FALSE(d.current().has_value());
    d.receive(a);
    d.receive(a);
    CHECK_FALSE(d.receive(std::nullopt));
    CHECK_FALSE(d.receive(a));
    CHECK_FALSE(d.receive(a));
    CHECK(d.receive(a) == a);
    // LPB and LPE are primitive sequences too; ARB is not.
    PrimitiveSequenceDetector e;
    for (int i = 0; i < 5; ++i) CHECK_FALSE(e.receive(OrderedSet::arb(0x01)));
    e.receive(OrderedSet::lpb(0xE8, 0x01));
    e.receive(OrderedSet::lpb(0xE8, 0x01));
    CHECK(e.receive(OrderedSet::lpb(0xE8, 0x01)) == OrderedSet::lpb(0xE8, 0x01));
}
