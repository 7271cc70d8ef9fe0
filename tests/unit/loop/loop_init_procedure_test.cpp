// The loop initialization procedure of one port, fed frame by frame (docs/loop_init.md, "The
// procedure at one port", "Master selection", "Address assignment", "Position maps"): every
// expectation follows from the procedure's rules, one received frame at a time.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/loop/loop_init_procedure.hpp"

using namespace fcal;
using loop::AddressSource;
using loop::AlPaBitmap;
using loop::LiId;
using loop::LoopInitFrame;
using loop::LoopInitPortConfig;
using loop::LoopInitProcedure;
using Kind = LoopInitProcedure::Output::Kind;
using Step = LoopInitProcedure::Step;

namespace {

LoopInitPortConfig port(std::uint64_t name, std::optional<phy::AlPa> hard = std::nullopt)
{
    LoopInitPortConfig c;
    c.port_name = name;
    c.hard_al_pa = hard;
    return c;
}

AlPaBitmap bitmap_of(std::initializer_list<phy::AlPa> al_pas)
{
    AlPaBitmap b;
    for (auto a : al_pas) b.claim(a);
    return b;
}

// A non-master that has seen the master's ARB(F0) and awaits LIFA.
LoopInitProcedure after_arb_f0(LoopInitPortConfig c)
{
    LoopInitProcedure p(c);
    p.enter_open_init(false);
    CHECK(p.arb_f0_received().is(Kind::Nothing));
    CHECK(p.awaited() == LiId::Lifa);
    return p;
}

}  // namespace

TEST_CASE("LI procedure: only an originator sends a LISM on entering OPEN-INIT")
{
    LoopInitProcedure quiet(port(5));
    CHECK(quiet.step() == Step::Idle);
    CHECK(quiet.enter_open_init(false).is(Kind::Nothing));
    CHECK(quiet.step() == Step::SelectingMaster);

    LoopInitProcedure originator(port(5));
    const auto out = originator.enter_open_init(true);
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == LoopInitFrame::lism(5));
}

TEST_CASE("LI procedure: LISM forwarded when lower, replaced when higher, ours back makes us master")
{
    LoopInitProcedure p(port(0x3000000000000005ull));
    p.enter_open_init(false);
    const LoopInitFrame lower = LoopInitFrame::lism(0x3000000000000002ull);
    const LoopInitFrame higher = LoopInitFrame::lism(0x3000000000000009ull);
    auto out = p.frame_received(lower);
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == lower);
    out = p.frame_received(higher);
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == LoopInitFrame::lism(0x3000000000000005ull));
    CHECK_FALSE(p.master());
    out = p.frame_received(LoopInitFrame::lism(0x3000000000000005ull));
    CHECK(out.is(Kind::ArbF0));
    CHECK(p.master());
    CHECK(p.step() == Step::MasterAwaitsArbF0);
    // While its ARB(F0) circulates the master absorbs what is left of master selection.
    CHECK(p.frame_received(lower).is(Kind::Nothing));
    CHECK(p.discarded() == 1);
}

TEST_CASE("LI procedure: an FL_Port's LISM (D_ID 000000) beats any NL_Port's port name")
{
    LoopInitProcedure p(port(0x0000000000000001ull));
    p.enter_open_init(false);
    const LoopInitFrame fl = LoopInitFrame::lism(0x5000000000000000ull, loop::kFlPortInitAddress);
    const auto out = p.frame_received(fl);
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == fl);
}

TEST_CASE("LI procedure: before ARB(F0) only LISM counts; after it LISM is discarded")
{
    LoopInitProcedure p(port(5, 0xE8));
    p.enter_open_init(false);
    CHECK(p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {})).is(Kind::Nothing));
    CHECK(p.discarded() == 1);
    CHECK(p.last_discard().find("LIFA") != std::string::npos);
    CHECK(p.arb_f0_received().is(Kind::Nothing));
    CHECK(p.frame_received(LoopInitFrame::lism(1)).is(Kind::Nothing));
    CHECK(p.discarded() == 2);
    CHECK(p.awaited() == LiId::Lifa);
}

TEST_CASE("LI procedure: a non-master claims its hard AL_PA in LIHA and forwards every bitmap")
{
    LoopInitProcedure p = after_arb_f0(port(5, 0xE8));
    const AlPaBitmap others = bitmap_of({0x01});
    auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, others));
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lifa, others));
    out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, others));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lipa, others));  // no previous AL_PA
    out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, others));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0x01, 0xE8})));
    // In LISA it claims nothing more, and leaves the position-map flag set: it supports the maps.
    const AlPaBitmap lisa_in = bitmap_of({0x01, 0xE8, 0x02});
    out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, lisa_in, loop::kLiFlPositionMap));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lisa, lisa_in, loop::kLiFlPositionMap));
    CHECK(p.awaited() == LiId::Lirp);
    // The AL_PA counts once the initialization is done.
    CHECK_FALSE(p.al_pa().has_value());

    out = p.frame_received(LoopInitFrame::with_positions(LiId::Lirp, {0x01, 0x02}));
    CHECK(out.frame == LoopInitFrame::with_positions(LiId::Lirp, {0x01, 0x02, 0xE8}));
    out = p.frame_received(LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0x02, 0xE8}));
    CHECK(out.frame == LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0x02, 0xE8}));
    CHECK(p.step() == Step::AwaitsCls);
    CHECK(p.cls_received().is(Kind::Cls));
    CHECK(p.done());
    CHECK(p.al_pa() == phy::AlPa{0xE8});
    CHECK(p.address_source() == AddressSource::Hard);
    CHECK(p.participating());
    CHECK(p.position_map() == std::vector<phy::AlPa>{0x01, 0x02, 0xE8});
    CHECK(p.previous_al_pa() == phy::AlPa{0xE8});
    CHECK(p.discarded() == 0);
}

TEST_CASE("LI procedure: a hard AL_PA taken already falls back to the first free soft one")
{
    LoopInitProcedure p = after_arb_f0(port(5, 0xE8));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, {}));
    auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0xE8})));
    CHECK(out.frame.bitmap == bitmap_of({0xE8}));
    out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0xE8, 0x01, 0x04})));
    CHECK(out.frame.bitmap == bitmap_of({0xE8, 0x01, 0x04, 0x02}));
    // LISA without the flag: some port has no position maps, so CLS comes next.
    CHECK(p.cls_received().is(Kind::Cls));
    CHECK(p.al_pa() == phy::AlPa{0x02});
    CHECK(p.address_source() == AddressSource::Soft);
    CHECK(p.position_map().empty());
}

TEST_CASE("LI procedure: a previously acquired AL_PA is claimed in LIPA, before any hard one")
{
    LoopInitProcedure p(port(5, 0xE8));
    p.set_previous_al_pa(0x73);
    p.enter_open_init(false);
    p.arb_f0_received();
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, bitmap_of({0x01})));
    CHECK(out.frame.bitmap == bitmap_of({0x01, 0x73}));
    out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0x01, 0x73})));
    CHECK(out.frame.bitmap == bitmap_of({0x01, 0x73}));  // one AL_PA per port
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0x01, 0x73})));
    p.cls_received();
    CHECK(p.al_pa() == phy::AlPa{0x73});
    CHECK(p.address_source() == AddressSource::Previous);
    CHECK_THROWS_AS(p.set_previous_al_pa(0xF0), phy::InvalidAlPa);
}

TEST_CASE("LI procedure: a fabric-assigned AL_PA is claimed in LIFA")
{
    LoopInitPortConfig c = port(5, 0xE8);
    c.fabric_al_pa = 0x10;
    LoopInitProcedure p = after_arb_f0(c);
    const auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    CHECK(out.frame.bitmap == bitmap_of({0x10}));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, bitmap_of({0x10})));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0x10})));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0x10})));
    p.cls_received();
    CHECK(p.address_source() == AddressSource::Fabric);
    CHECK(p.al_pa() == phy::AlPa{0x10});
}

TEST_CASE("LI procedure: no free bit in LISA leaves the port non-participating")
{
    AlPaBitmap full;
    for (phy::AlPa a : phy::valid_al_pas())
        if (a != 0x00) full.claim(a);
    LoopInitProcedure p = after_arb_f0(port(5, 0xE8));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, full));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, full));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, full));
    auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, full, loop::kLiFlPositionMap));
    CHECK(out.frame.bitmap == full);
    // A port without an AL_PA passes LIRP on without adding itself.
    out = p.frame_received(LoopInitFrame::with_positions(LiId::Lirp, {0x01}));
    CHECK(out.frame.positions == std::vector<phy::AlPa>{0x01});
    p.frame_received(LoopInitFrame::with_positions(LiId::Lilp, {0x01}));
    CHECK(p.cls_received().is(Kind::Cls));
    CHECK(p.done());
    CHECK_FALSE(p.participating());
    CHECK_FALSE(p.al_pa().has_value());
    CHECK(p.address_source() == AddressSource::None);
    CHECK_FALSE(p.previous_al_pa().has_value());
}

TEST_CASE("LI procedure: a port without position maps clears LISA's flag and refuses LIRP")
{
    LoopInitPortConfig c = port(5, 0xE8);
    c.position_map = false;
    LoopInitProcedure p = after_arb_f0(c);
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, {}));
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, {}));
    const auto out = p.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0xE8}), loop::kLiFlPositionMap));
    CHECK(out.frame.flags == 0);
    CHECK(p.step() == Step::AwaitsCls);
    CHECK(p.frame_received(LoopInitFrame::with_positions(LiId::Lirp, {})).is(Kind::Nothing));
    CHECK(p.discarded() == 1);
    CHECK(p.cls_received().is(Kind::Cls));
    CHECK(p.al_pa() == phy::AlPa{0xE8});
}

TEST_CASE("LI procedure: frames out of sequence are discarded and change nothing")
{
    LoopInitProcedure p = after_arb_f0(port(5, 0xE8));
    CHECK(p.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, {})).is(Kind::Nothing));
    CHECK(p.awaited() == LiId::Lifa);
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    CHECK(p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {})).is(Kind::Nothing));  // a repeat
    CHECK(p.awaited() == LiId::Lipa);
    CHECK(p.cls_received().is(Kind::Nothing));  // CLS only after LISA or LILP
    CHECK(p.awaited() == LiId::Lipa);
    CHECK(p.discarded() == 2);

    LoopInitProcedure idle(port(6));
    CHECK(idle.frame_received(LoopInitFrame::lism(1)).is(Kind::Nothing));
    CHECK(idle.last_discard().find("not in OPEN-INIT") != std::string::npos);
}

TEST_CASE("LI procedure: the master starts each bitmap from the one that came back and ends with CLS")
{
    LoopInitProcedure m(port(1, 0x01));
    REQUIRE(m.enter_open_init(true).is(Kind::Frame));
    REQUIRE(m.frame_received(LoopInitFrame::lism(1)).is(Kind::ArbF0));
    auto out = m.arb_f0_received();
    REQUIRE(out.is(Kind::Frame));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    out = m.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, bitmap_of({0x10})));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lipa, bitmap_of({0x10})));
    out = m.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, bitmap_of({0x10, 0x1F})));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0x10, 0x1F, 0x01})));
    out = m.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, bitmap_of({0x10, 0x1F, 0x01, 0xE8})));
    CHECK(out.frame == LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0x10, 0x1F, 0x01, 0xE8}), loop::kLiFlPositionMap));
    out = m.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0x10, 0x1F, 0x01, 0xE8, 0x02}), loop::kLiFlPositionMap));
    CHECK(out.frame == LoopInitFrame::with_positions(LiId::Lirp, {0x01}));
    out = m.frame_received(LoopInitFrame::with_positions(LiId::Lirp, {0x01, 0x10, 0x1F, 0xE8, 0x02}));
    CHECK(out.frame == LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0x10, 0x1F, 0xE8, 0x02}));
    CHECK(m.frame_received(LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0x10, 0x1F, 0xE8, 0x02})).is(Kind::Cls));
    CHECK(m.step() == Step::AwaitsCls);
    CHECK_FALSE(m.done());
    // Its own CLS back: done, nothing more to send.
    CHECK(m.cls_received().is(Kind::Nothing));
    CHECK(m.done());
    CHECK(m.master());
    CHECK(m.al_pa() == phy::AlPa{0x01});
    CHECK(m.address_source() == AddressSource::Hard);
    CHECK(m.position_map() == std::vector<phy::AlPa>{0x01, 0x10, 0x1F, 0xE8, 0x02});
}

TEST_CASE("LI procedure: the master closes after LISA when a port cleared the position-map flag")
{
    LoopInitProcedure m(port(1));
    m.enter_open_init(true);
    m.frame_received(LoopInitFrame::lism(1));
    m.arb_f0_received();
    m.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    m.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, {}));
    const auto lisa = m.frame_received(LoopInitFrame::with_bitmap(LiId::Liha, {}));
    CHECK(lisa.frame.bitmap == bitmap_of({0x01}));  // the master, with no other address, is first to take a soft one
    CHECK(m.frame_received(LoopInitFrame::with_bitmap(LiId::Lisa, bitmap_of({0x01, 0x02}), 0)).is(Kind::Cls));
    CHECK(m.cls_received().is(Kind::Nothing));
    CHECK(m.al_pa() == phy::AlPa{0x01});
    CHECK(m.address_source() == AddressSource::Soft);
}

TEST_CASE("LI procedure: a timeout abandons the initialization; the LIP to send names the last AL_PA")
{
    LoopInitProcedure p(port(5, 0xE8));
    CHECK(p.initializing_lip() == phy::OrderedSet(phy::OrderedSetKind::LipF7F7));
    CHECK(p.failure_lip() == phy::OrderedSet(phy::OrderedSetKind::LipF8F7));
    p = after_arb_f0(port(5, 0xE8));
    for (LiId id : {LiId::Lifa, LiId::Lipa, LiId::Liha, LiId::Lisa}) p.frame_received(LoopInitFrame::with_bitmap(id, {}));
    p.cls_received();
    REQUIRE(p.al_pa() == phy::AlPa{0xE8});

    // The next initialization loses its master midway.
    p.enter_open_init(false);
    p.arb_f0_received();
    p.frame_received(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    p.timed_out();
    CHECK(p.step() == Step::TimedOut);
    CHECK_FALSE(p.al_pa().has_value());
    CHECK(p.initializing_lip() == phy::OrderedSet::lip_initializing(0xE8));
    CHECK(p.failure_lip() == phy::OrderedSet::lip_failure(0xE8));
    CHECK(p.frame_received(LoopInitFrame::with_bitmap(LiId::Lipa, {})).is(Kind::Nothing));
}

TEST_CASE("LI procedure: LIP(y,x) resets port y, LIP(FF,x) every port but x")
{
    LoopInitProcedure p(port(5));
    p.set_previous_al_pa(0xE8);
    CHECK(p.reset_requested(phy::OrderedSet::lip_reset(0xE8, 0x01)));
    CHECK_FALSE(p.reset_requested(phy::OrderedSet::lip_reset(0xE4, 0x01)));
    CHECK(p.reset_requested(phy::OrderedSet::lip_reset_all(0x01)));
    CHECK_FALSE(p.reset_requested(phy::OrderedSet::lip_reset_all(0xE8)));
    CHECK_FALSE(p.reset_requested(phy::OrderedSet::lip_initializing(0x01)));
    CHECK_FALSE(p.reset_requested(phy::OrderedSet(phy::OrderedSetKind::LipF8F7)));
    LoopInitProcedure fresh(port(6));
    CHECK_FALSE(fresh.reset_requested(phy::OrderedSet::lip_reset(0xE8, 0x01)));
    CHECK(fresh.reset_requested(phy::OrderedSet::lip_reset_all(0x01)));
}

TEST_CASE("LI procedure: configuration errors and default port names")
{
    CHECK_THROWS_AS(LoopInitProcedure(port(1, 0xF0)), phy::InvalidAlPa);
    LoopInitPortConfig c = port(1);
    c.init_address = 0x0000E8;
    CHECK_THROWS_AS(LoopInitProcedure(c), std::invalid_argument);
    // Distinct per node, lowest for the controller (node 0), NAA 3 (locally assigned).
    CHECK(loop::default_port_name(0) < loop::default_port_name(1));
    CHECK(loop::default_port_name(1) != loop::default_port_name(2));
    CHECK((loop::default_port_name(7) >> 60) == 3);
}

TEST_CASE("LI procedure: of two answers in master selection one is sent: the lower LISM, or ARB(F0) over its own")
{
    // Several originators at once: a port may give an answer while the last one is still to be sent
    // (docs/loop_init.md, "Simplifications").
    using Output = LoopInitProcedure::Output;
    LoopInitProcedure p(port(0x20));
    const Output low = Output::of(LoopInitFrame::lism(0x10));
    const Output own = Output::of(LoopInitFrame::lism(0x20));
    const Output high = Output::of(LoopInitFrame::lism(0x30));
    CHECK(p.one_of(high, low)->frame == low.frame);
    CHECK(p.one_of(low, high)->frame == low.frame);
    CHECK(p.one_of(own, high)->frame == own.frame);
    CHECK(p.one_of(low, low)->frame == low.frame);
    // Its own LISM back made it master: ARB(F0) in place of its own LISM still to be sent. A lower port's
    // LISM still to pass on is not a pair the model chooses between (the LPSM reports it).
    CHECK(p.one_of(own, Output::arb_f0())->is(Kind::ArbF0));
    CHECK_FALSE(p.one_of(low, Output::arb_f0()));
    // Outside master selection one frame circulates at a time: no pair to choose from.
    const Output lifa = Output::of(LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    CHECK_FALSE(p.one_of(lifa, high));
    CHECK_FALSE(p.one_of(high, lifa));
    CHECK_FALSE(p.one_of(Output::arb_f0(), high));
    CHECK_FALSE(p.one_of(high, Output::cls()));
}
