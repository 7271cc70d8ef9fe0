// Port bypass circuits (docs/loop_init.md, "Port bypass circuits"): which ports form the loop given
// LPB/LPE from the controller, failures, removals and insertions.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/loop/port_bypass_circuits.hpp"

using namespace fcal;
using loop::PortBypassCircuits;
using State = PortBypassCircuits::State;
using Slots = std::vector<std::size_t>;

namespace {

// Slot 0 the controller at 01, slots 1..4 disks at EF, E8, E4, E2.
PortBypassCircuits enclosure()
{
    PortBypassCircuits p(5);
    const phy::AlPa al_pas[] = {0x01, 0xEF, 0xE8, 0xE4, 0xE2};
    for (std::size_t i = 0; i < 5; ++i) p.set_al_pa(i, al_pas[i]);
    return p;
}

}  // namespace

TEST_CASE("bypass: LPB(y,x) bypasses port y and LPE(y,x) brings it back")
{
    auto p = enclosure();
    CHECK(p.loop_slots() == Slots{0, 1, 2, 3, 4});
    CHECK(p.apply(phy::OrderedSet::lpb(0xE8, 0x01)) == Slots{2});
    CHECK(p.state(2) == State::Bypassed);
    CHECK(p.loop_slots() == Slots{0, 1, 3, 4});
    CHECK_FALSE(p.loop_broken());
    CHECK(p.apply(phy::OrderedSet::lpb(0xE8, 0x01)).empty());  // already bypassed
    CHECK(p.apply(phy::OrderedSet::lpb(0x73, 0x01)).empty());  // nobody there
    CHECK(p.apply(phy::OrderedSet::lpe(0xE4, 0x01)).empty());  // not bypassed
    CHECK(p.apply(phy::OrderedSet::lpe(0xE8, 0x01)) == Slots{2});
    CHECK(p.loop_slots() == Slots{0, 1, 2, 3, 4});
}

TEST_CASE("bypass: LPB(FF,x) bypasses every port but x; LPE(FF,x) re-enables them all")
{
    auto p = enclosure();
    CHECK(p.apply(phy::OrderedSet::lpb_all(0x01)) == Slots{1, 2, 3, 4});
    CHECK(p.loop_slots() == Slots{0});
    CHECK(p.apply(phy::OrderedSet::lpe_all(0x01)) == Slots{1, 2, 3, 4});
    CHECK(p.loop_slots() == Slots{0, 1, 2, 3, 4});
    CHECK_THROWS_AS(p.apply(phy::OrderedSet(phy::OrderedSetKind::Idle)), std::invalid_argument);
    CHECK_THROWS_AS(p.apply(phy::OrderedSet::lip_reset_all(0x01)), std::invalid_argument);
}

TEST_CASE("bypass: a failed port breaks the loop until the enclosure closes its bypass")
{
    auto p = enclosure();
    p.fail(3);
    CHECK(p.state(3) == State::Broken);
    CHECK(p.loop_broken());
    CHECK(p.loop_slots() == Slots{0, 1, 2, 4});
    p.bypass_detected(3);
    CHECK(p.state(3) == State::AutoBypassed);
    CHECK_FALSE(p.loop_broken());
    // LPE does not bring a failed port back: only LPB's bypasses are undone.
    CHECK(p.apply(phy::OrderedSet::lpe_all(0x01)).empty());
    // The failed drive is pulled and a new one inserted: it joins (and will send LIP(F7,F7)).
    p.remove(3);
    CHECK(p.state(3) == State::Empty);
    p.insert(3);
    CHECK(p.state(3) == State::Inserted);
    CHECK(p.loop_slots() == Slots{0, 1, 2, 3, 4});
    // Its AL_PA is unknown until it has one.
    CHECK(p.apply(phy::OrderedSet::lpb(0xE4, 0x01)).empty());
    p.set_al_pa(3, 0xE4);
    CHECK(p.apply(phy::OrderedSet::lpb(0xE4, 0x01)) == Slots{3});
}

TEST_CASE("bypass: pulling an inserted port breaks the loop; pulling a bypassed one does not")
{
    auto p = enclosure();
    p.remove(1);
    CHECK(p.state(1) == State::Broken);
    CHECK(p.loop_broken());
    p.bypass_detected(1);
    CHECK(p.state(1) == State::Empty);
    CHECK_FALSE(p.loop_broken());
    CHECK_THROWS_AS(p.insert(2), std::logic_error);

    p.apply(phy::OrderedSet::lpb(0xE4, 0x01));
    p.remove(3);
    CHECK(p.state(3) == State::Empty);
    CHECK_FALSE(p.loop_broken());
    // A bypassed port that fails stays out and breaks nothing.
    p.apply(phy::OrderedSet::lpb(0xE2, 0x01));
    p.fail(4);
    CHECK(p.state(4) == State::AutoBypassed);
    CHECK_FALSE(p.loop_broken());
    // A failed port pulled before the enclosure noticed: the slot ends empty.
    p.fail(2);
    p.remove(2);
    CHECK(p.state(2) == State::Broken);
    p.bypass_detected(2);
    CHECK(p.state(2) == State::Empty);
    CHECK(p.loop_slots() == Slots{0});
    CHECK_THROWS_AS(p.state(5), std::out_of_range);
    CHECK_THROWS_AS(p.set_al_pa(0, 0xF0), phy::InvalidAlPa);
}

TEST_CASE("bypass: a slot tells whether its port is present and the AL_PA LPB and LPE address it by")
{
    auto p = enclosure();
    CHECK(p.present(3));
    CHECK(p.al_pa(3) == phy::AlPa{0xE4});
    p.fail(3);
    CHECK(p.state(3) == State::Broken);
    CHECK(p.present(3));  // failed, still in its slot
    p.remove(3);
    CHECK(p.state(3) == State::Broken);
    CHECK_FALSE(p.present(3));
    CHECK_FALSE(p.al_pa(3));  // pulled out: LPB/LPE no longer find it
    p.bypass_detected(3);
    CHECK(p.state(3) == State::Empty);
    p.insert(3);
    CHECK(p.present(3));
    CHECK_FALSE(p.al_pa(3));  // until its initialization gives it one
}
