// Loop initialization in the LPSM, word by word without a simulation kernel (docs/loop_init.md,
// "The LPSM in initialization"). Three ports on a ring C -> D1 -> D2 -> C: the controller C (node 0,
// AL_PA 01, the lowest port name) originates; the disks D1 (EF) and D2 (E8) follow. Every word a port
// sends is handed to the next port, followed by the fill word the sender transmits after it; the
// expectations follow from the protocol by hand (docs/loop_init.md, "A three-port
// initialization, by hand"), not from the code.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "fcal/loop/lpsm.hpp"
#include "lpsm_driver.hpp"

using namespace fcal;
using loop::LiId;
using loop::LoopInitFrame;
using loop::LpsmState;
using loop::Word;
using K = loop::Lpsm::Decision::Kind;
using Port = test::DrivenLpsm;

namespace {

constexpr double kProcS = 3e-6;  // p, not the default, so that the test sees it is the port's
const Word kLipF7F7 = Word::sequence(phy::OrderedSet::lip_initializing(std::nullopt));

loop::PortConfig config(phy::AlPa al_pa, unsigned node)
{
    loop::PortConfig c;
    c.al_pa = al_pa;
    c.init.port_name = loop::default_port_name(node);
    c.init_frame_processing_s = kProcS;
    return c;
}

// The loop initialization frame a word carries.
const LoopInitFrame& li(const Word& w)
{
    REQUIRE(w.kind == loop::WordKind::Frame);
    REQUIRE(w.frame->loop_init());
    return static_cast<const LoopInitFrame&>(*w.frame->content);
}

// `to` receives `w` from `from`, then the fill word `from` transmits after it (which completes a
// frame).
void hop(Port& from, Port& to, const Word& w)
{
    to.lpsm.receive(w);
    to.lpsm.receive(from.lpsm.fill());
}

// `p` sends the answer next() gives: the kind and delay expected, then the word.
Word answer(Port& p, K kind, double delay_s)
{
    REQUIRE(p.lpsm.next().kind == kind);
    CHECK(p.lpsm.answer_delay_s() == delay_s);
    return p.act(kind);
}

loop::AlPaBitmap bitmap(std::initializer_list<std::pair<unsigned, std::uint8_t>> bytes)
{
    loop::AlPaBitmap::Bytes b{};
    for (const auto& [i, v] : bytes) b[i] = v;
    return loop::AlPaBitmap(b);
}

// The LISM the controller (node 0, the lowest port name) sends as the originator of an initialization.
Word controller_lism()
{
    Port c(config(0x01, 0));
    c.lpsm.initialize();
    for (int i = 0; i < 3; ++i) c.lpsm.receive(kLipF7F7);
    c.lpsm.minimum_lips_sent();
    return c.act(K::InitFrame);
}

struct Ring {
    Port c{config(0x01, 0)}, d1{config(0xEF, 1)}, d2{config(0xE8, 2)};

    // A frame from the master C goes round: D1 and D2 each forward it p after its end. Returns
    // what C receives back.
    Word round(const Word& from_c)
    {
        hop(c, d1, from_c);
        CHECK(d1.lpsm.state() == LpsmState::OpenInit);
        const Word w1 = answer(d1, K::InitFrame, kProcS);
        hop(d1, d2, w1);
        const Word w2 = answer(d2, K::InitFrame, kProcS);
        hop(d2, c, w2);
        return w2;
    }
};

}  // namespace

TEST_CASE("lpsm init words: LIP, LPB and LPE are loop words with their y and x bytes", "[loop][lpsm][init]")
{
    const Word lip = Word::sequence(phy::OrderedSet::lip_initializing(phy::AlPa{0x01}));
    CHECK(lip.kind == loop::WordKind::Lip);
    CHECK(lip.y == 0xF7);
    CHECK(lip.x == 0x01);
    CHECK(lip.is_sequence());
    CHECK_FALSE(lip.is_fill());
    CHECK(lip.words() == 0);  // continuous, like a fill word
    CHECK(lip.ordered_set() == phy::OrderedSet::lip_initializing(phy::AlPa{0x01}));
    CHECK(loop::name(kLipF7F7) == "LIP(F7,F7)");
    const Word lpb = Word::sequence(phy::OrderedSet::lpb_all(0x01));
    CHECK(lpb.kind == loop::WordKind::Lpb);
    CHECK(lpb.y == 0xFF);
    CHECK(lpb.ordered_set() == phy::OrderedSet::lpb_all(0x01));
    CHECK(Word::sequence(phy::OrderedSet::lpe(0xE8, 0x01)).ordered_set() == phy::OrderedSet::lpe(0xE8, 0x01));
    CHECK_THROWS_AS(Word::sequence(phy::OrderedSet::arb(0x01)), std::invalid_argument);
    CHECK_THROWS_AS(Word::idle().ordered_set(), std::invalid_argument);
}

TEST_CASE("lpsm init words: a port acts on LIP at the third in a row, and the fast path never passes it",
          "[loop][lpsm][init][fast]")
{
    Port d(config(0xEF, 1));
    CHECK(d.lpsm.routine() == loop::Lpsm::Routine::Repeats);
    CHECK_FALSE(d.lpsm.unaffected_by(kLipF7F7));
    d.lpsm.receive(kLipF7F7);
    CHECK(d.lpsm.state() == LpsmState::Monitoring);
    CHECK(d.lpsm.fill() == kLipF7F7);  // repeated while counted
    CHECK(d.lpsm.routine() == loop::Lpsm::Routine::Acts);
    CHECK_FALSE(d.lpsm.unaffected_by(Word::idle()));
    // An IDLE ends the run: two more LIPs are not enough.
    d.lpsm.receive(Word::idle());
    d.lpsm.receive(kLipF7F7);
    d.lpsm.receive(kLipF7F7);
    CHECK(d.lpsm.state() == LpsmState::Monitoring);
    d.lpsm.receive(kLipF7F7);
    CHECK(d.lpsm.state() == LpsmState::OpenInit);
    CHECK(d.lpsm.fill() == kLipF7F7);  // a port that did not originate repeats the LIPs
    CHECK(d.lpsm.next().kind == K::None);
    CHECK(d.lpsm.routine() == loop::Lpsm::Routine::Acts);
    CHECK_FALSE(d.lpsm.unaffected_by(Word::idle()));
    CHECK_FALSE(d.lpsm.may_wait(Word::idle()));
    CHECK(d.rec.states == std::vector<LpsmState>{LpsmState::OpenInit});
    // More of the same run is not a new LIP.
    d.lpsm.receive(kLipF7F7);
    CHECK(d.lpsm.init_procedure().step() == loop::LoopInitProcedure::Step::SelectingMaster);
}

TEST_CASE("lpsm init words: a port in a circuit leaves it for OPEN-INIT on LIP", "[loop][lpsm][init]")
{
    Port a(config(0x10, 1));
    a.queue_for(0x20);
    a.lpsm.receive(Word::arb(0x10));
    a.act(K::Opn);
    CHECK(a.lpsm.state() == LpsmState::Open);
    for (int i = 0; i < 3; ++i) a.lpsm.receive(kLipF7F7);
    CHECK(a.lpsm.state() == LpsmState::OpenInit);
    CHECK_FALSE(a.lpsm.owner());
    CHECK(a.lpsm.fill() == kLipF7F7);
    CHECK_FALSE(a.queue.empty());  // the frame waits for the loop to work again
}

TEST_CASE("lpsm init words: three ports initialize, word by word", "[loop][lpsm][init]")
{
    Ring r;
    Port& c = r.c;
    Port& d1 = r.d1;
    Port& d2 = r.d2;

    // C must initialize: INITIALIZING, LIP(F7,F7) (it never had an AL_PA from an initialization).
    c.lpsm.initialize();
    CHECK(c.lpsm.state() == LpsmState::Initializing);
    CHECK(c.lpsm.fill() == kLipF7F7);
    CHECK(c.lpsm.next().kind == K::None);

    // Three LIPs round the ring: D1 and D2 enter OPEN-INIT at their third, repeating them; C at its
    // third back, as originator: it stops its LIPs once 12 are out (the port says when) and answers
    // with its LISM.
    for (int i = 0; i < 3; ++i) {
        CHECK(d1.lpsm.state() == LpsmState::Monitoring);
        d1.lpsm.receive(c.lpsm.fill());
        d2.lpsm.receive(d1.lpsm.fill());
        CHECK(c.lpsm.state() == LpsmState::Initializing);
        c.lpsm.receive(d2.lpsm.fill());
    }
    CHECK(d1.lpsm.state() == LpsmState::OpenInit);
    CHECK(d2.lpsm.state() == LpsmState::OpenInit);
    CHECK(d1.lpsm.fill() == kLipF7F7);
    CHECK(c.lpsm.state() == LpsmState::OpenInit);
    CHECK(c.lpsm.sends_minimum_lips());
    CHECK(c.lpsm.fill() == kLipF7F7);  // fewer than 3 would not be recognised downstream
    c.lpsm.minimum_lips_sent();
    CHECK_FALSE(c.lpsm.sends_minimum_lips());
    CHECK(c.lpsm.fill() == Word::idle());
    REQUIRE(c.lpsm.next().kind == K::InitFrame);
    CHECK(c.lpsm.answer_min_lips() == loop::kLipsBeforeLism);
    const Word lism_c = answer(c, K::InitFrame, 0);
    CHECK(li(lism_c) == LoopInitFrame::lism(loop::default_port_name(0)));
    CHECK(lism_c.frame->sof == loop::Sof::Il);
    CHECK(lism_c.words() == 12);
    CHECK(loop::name(lism_c) == "SOFil(LISM)");
    // D_ID 0000EF is D1's AL_PA too: the mark, not the address, makes D1 store and forward it.
    CHECK(lism_c.frame->destination == 0xEF);
    CHECK(c.lpsm.fill() == Word::idle());

    // LISM: C's name is the lowest, so D1 and D2 forward it p after its end; back at C it makes C
    // master, which answers ARB(F0) p later.
    const Word lism_back = r.round(lism_c);
    CHECK(li(lism_back) == LoopInitFrame::lism(loop::default_port_name(0)));
    CHECK(d1.lpsm.fill() == Word::idle());
    CHECK_FALSE(d1.lpsm.init_procedure().master());
    CHECK(c.lpsm.init_procedure().master());
    CHECK(answer(c, K::InitFill, kProcS) == Word::arb(phy::kArbFairnessFill));
    CHECK(c.lpsm.fill() == Word::arb(phy::kArbFairnessFill));

    // ARB(F0) round the ring, repeated; back at C: LIFA at once, C fills with IDLE again.
    d1.lpsm.receive(c.lpsm.fill());
    CHECK(d1.lpsm.fill() == Word::arb(phy::kArbFairnessFill));
    CHECK(d1.lpsm.init_procedure().awaited() == LiId::Lifa);
    d2.lpsm.receive(d1.lpsm.fill());
    CHECK(d2.lpsm.fill() == Word::arb(phy::kArbFairnessFill));
    c.lpsm.receive(d2.lpsm.fill());
    const Word lifa = answer(c, K::InitFrame, 0);
    CHECK(c.lpsm.fill() == Word::idle());
    CHECK(li(lifa) == LoopInitFrame::with_bitmap(LiId::Lifa, {}));  // no fabric: nobody claims
    CHECK(lifa.words() == 14);

    // LIFA and LIPA go round unchanged (no port had an AL_PA from an earlier initialization).
    CHECK(li(r.round(lifa)) == LoopInitFrame::with_bitmap(LiId::Lifa, {}));
    const Word lipa = answer(c, K::InitFrame, kProcS);
    CHECK(li(lipa) == LoopInitFrame::with_bitmap(LiId::Lipa, {}));
    CHECK(li(r.round(lipa)) == LoopInitFrame::with_bitmap(LiId::Lipa, {}));

    // LIHA: C claims 01 (position 2: 20h in byte 0); D1 EF (position 127: 01h in byte 15); D2 E8
    // (position 126: 02h in byte 15).
    const Word liha = answer(c, K::InitFrame, kProcS);
    CHECK(li(liha) == LoopInitFrame::with_bitmap(LiId::Liha, bitmap({{0, 0x20}})));
    CHECK(li(r.round(liha)) == LoopInitFrame::with_bitmap(LiId::Liha, bitmap({{0, 0x20}, {15, 0x03}})));

    // LISA: every port has an address; the position-map flag goes round set.
    const Word lisa = answer(c, K::InitFrame, kProcS);
    const LoopInitFrame lisa_expected =
        LoopInitFrame::with_bitmap(LiId::Lisa, bitmap({{0, 0x20}, {15, 0x03}}), loop::kLiFlPositionMap);
    CHECK(li(lisa) == lisa_expected);
    CHECK(li(r.round(lisa)) == lisa_expected);

    // LIRP collects the positions in ring order; LILP tells everyone.
    const Word lirp = answer(c, K::InitFrame, kProcS);
    CHECK(li(lirp) == LoopInitFrame::with_positions(LiId::Lirp, {0x01}));
    CHECK(lirp.words() == 42);
    CHECK(li(r.round(lirp)) == LoopInitFrame::with_positions(LiId::Lirp, {0x01, 0xEF, 0xE8}));
    const Word lilp = answer(c, K::InitFrame, kProcS);
    CHECK(li(lilp) == LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0xEF, 0xE8}));
    CHECK(li(r.round(lilp)) == LoopInitFrame::with_positions(LiId::Lilp, {0x01, 0xEF, 0xE8}));
    CHECK(d1.lpsm.init_procedure().position_map() == std::vector<phy::AlPa>{0x01, 0xEF, 0xE8});

    // CLS from the master p after LILP is back; each port passes it on at once and is done.
    const Word cls = answer(c, K::Cls, kProcS);
    CHECK(cls == Word::cls());
    CHECK(c.lpsm.state() == LpsmState::OpenInit);
    d1.lpsm.receive(cls);
    CHECK(d1.lpsm.state() == LpsmState::OpenInit);
    const Word cls1 = answer(d1, K::Cls, 0);
    CHECK(d1.lpsm.state() == LpsmState::Monitoring);
    d2.lpsm.receive(cls1);
    const Word cls2 = answer(d2, K::Cls, 0);
    CHECK(d2.lpsm.state() == LpsmState::Monitoring);
    c.lpsm.receive(cls2);
    CHECK(c.lpsm.state() == LpsmState::Monitoring);

    // Each with its hard AL_PA, back in the steady state: repeating, the fast path allowed again.
    for (Port* p : {&c, &d1, &d2}) {
        CHECK(p->lpsm.participating());
        CHECK(p->lpsm.init_procedure().address_source() == loop::AddressSource::Hard);
        CHECK(p->lpsm.routine() == loop::Lpsm::Routine::Repeats);
        CHECK(p->lpsm.access());
    }
    CHECK(c.lpsm.al_pa() == 0x01);
    CHECK(d1.lpsm.al_pa() == 0xEF);
    CHECK(d2.lpsm.al_pa() == 0xE8);
    CHECK(c.rec.states == std::vector<LpsmState>{LpsmState::Initializing, LpsmState::OpenInit, LpsmState::Monitoring});
    CHECK(d1.rec.states == std::vector<LpsmState>{LpsmState::OpenInit, LpsmState::Monitoring});
    CHECK(d1.lpsm.init_procedure().discarded() == 0);
}

TEST_CASE("lpsm init words: in OPEN-INIT every wait is bounded by E_D_TOV; a lost master starts again",
          "[loop][lpsm][init]")
{
    Port d(config(0xEF, 1));
    for (int i = 0; i < 3; ++i) d.lpsm.receive(kLipF7F7);
    REQUIRE(d.lpsm.state() == LpsmState::OpenInit);
    CHECK(d.lpsm.awaits_init());
    const auto before = d.lpsm.progress();
    d.lpsm.receive(Word::arb(phy::kArbFairnessFill));
    CHECK(d.lpsm.progress() != before);  // the wait restarts
    d.lpsm.e_d_tov_expired();
    CHECK(d.lpsm.state() == LpsmState::Initializing);
    CHECK(d.lpsm.fill() == kLipF7F7);  // no initialization completed: no AL_PA to name
    CHECK_FALSE(d.lpsm.awaits_init());
}

TEST_CASE("lpsm init words: the LIP of its initialization arriving again is no progress for E_D_TOV",
          "[loop][lpsm][init]")
{
    // LIPs whose sender left the loop may go round for ever among other words; only a wait that makes no
    // progress ends in E_D_TOV (docs/loop_init.md, "The LPSM in initialization").
    Port d(config(0xEF, 1));
    const Word orphan = Word::sequence(phy::OrderedSet::lip_failure(phy::AlPa{0xE2}));
    for (int i = 0; i < 3; ++i) d.lpsm.receive(orphan);
    REQUIRE(d.lpsm.state() == LpsmState::OpenInit);
    REQUIRE(d.lpsm.awaits_init());
    const auto before = d.lpsm.progress();
    for (int round = 0; round < 4; ++round) {
        d.lpsm.receive(kLipF7F7);  // too short a run to be recognised
        d.lpsm.receive(Word::idle());
        for (int i = 0; i < 3; ++i) d.lpsm.receive(orphan);
    }
    CHECK(d.lpsm.state() == LpsmState::OpenInit);
    CHECK(d.lpsm.progress() == before);
    for (int i = 0; i < 3; ++i) d.lpsm.receive(kLipF7F7);  // another initialization
    CHECK(d.lpsm.progress() != before);
    // Leaving the loop ends that initialization, and the LPSM forgets its LIP: back in the loop the same
    // LIP is recognised again, a new initialization, which is progress.
    d.lpsm.leave_loop();
    REQUIRE(d.lpsm.state() == LpsmState::Monitoring);
    const auto left = d.lpsm.progress();
    for (int i = 0; i < 3; ++i) d.lpsm.receive(kLipF7F7);
    CHECK(d.lpsm.state() == LpsmState::OpenInit);
    CHECK(d.lpsm.progress() != left);
}

TEST_CASE("lpsm init words: a second initialization names the AL_PA in LIP(F7,x) and claims it in LIPA",
          "[loop][lpsm][init]")
{
    Ring r;
    // A first initialization, as above but quickly: the ring's rounds.
    r.c.lpsm.initialize();
    for (int i = 0; i < 3; ++i) {
        r.d1.lpsm.receive(r.c.lpsm.fill());
        r.d2.lpsm.receive(r.d1.lpsm.fill());
        r.c.lpsm.receive(r.d2.lpsm.fill());
    }
    r.round(answer(r.c, K::InitFrame, 0));
    r.c.act(K::InitFill);
    r.d1.lpsm.receive(r.c.lpsm.fill());
    r.d2.lpsm.receive(r.d1.lpsm.fill());
    r.c.lpsm.receive(r.d2.lpsm.fill());
    Word w = r.c.act(K::InitFrame);
    while (li(w).id != LiId::Lilp) {
        r.round(w);
        w = r.c.act(K::InitFrame);
    }
    r.round(w);
    r.d1.lpsm.receive(r.c.act(K::Cls));
    r.d2.lpsm.receive(r.d1.act(K::Cls));
    r.c.lpsm.receive(r.d2.act(K::Cls));
    REQUIRE(r.d2.lpsm.state() == LpsmState::Monitoring);

    // D2 initializes again: LIP(F7,E8).
    r.d2.lpsm.initialize();
    CHECK(r.d2.lpsm.fill() == Word::sequence(phy::OrderedSet::lip_initializing(phy::AlPa{0xE8})));
}

TEST_CASE("lpsm init words: a port that leaves the loop drops its circuit or initialization and repeats", "[loop][lpsm][init]")
{
    // docs/loop_init.md, "Port bypass circuits": pulled, failed or bypassed, the port's LPSM is done
    // with whatever it did; its frames stay queued for when it is back.
    Port a(config(0x10, 1));
    a.queue_for(0x20);
    a.lpsm.receive(Word::arb(0x10));
    a.act(K::Opn);
    REQUIRE(a.lpsm.state() == LpsmState::Open);
    a.lpsm.leave_loop();
    CHECK(a.lpsm.state() == LpsmState::Monitoring);
    CHECK_FALSE(a.lpsm.owner());
    CHECK_FALSE(a.queue.empty());

    Port b(config(0x20, 2));
    b.lpsm.initialize();
    for (int i = 0; i < 3; ++i) b.lpsm.receive(kLipF7F7);
    REQUIRE(b.lpsm.state() == LpsmState::OpenInit);
    REQUIRE(b.lpsm.answer_pending());
    b.lpsm.leave_loop();
    CHECK(b.lpsm.state() == LpsmState::Monitoring);
    CHECK_FALSE(b.lpsm.in_initialization());
    CHECK_FALSE(b.lpsm.answer_pending());
    CHECK(b.lpsm.next().kind == K::None);
    // Back in the loop it initializes as a port new to it would.
    b.lpsm.initialize(phy::OrderedSet::lip_initializing(std::nullopt));
    CHECK(b.lpsm.state() == LpsmState::Initializing);
    CHECK(b.lpsm.fill() == kLipF7F7);
}

TEST_CASE("lpsm init words: a port that must initialize while another port's LIPs arrive joins that initialization",
          "[loop][lpsm][init]")
{
    // docs/loop_init.md, "The LPSM in initialization": in INITIALIZING a port that receives LIP enters
    // OPEN-INIT. The LIP(F8,E2) run it already recognised goes on and never begins again; it is another
    // port's, which removes it once it is back, so the port repeats it (its own LIPs would replace it).
    const Word lip_f8 = Word::sequence(phy::OrderedSet::lip_failure(0xE2));
    Port d(config(0xEF, 1));
    for (int i = 0; i < 4; ++i) d.lpsm.receive(lip_f8);
    REQUIRE(d.lpsm.state() == LpsmState::OpenInit);
    d.lpsm.initialize();
    CHECK(d.rec.states == std::vector<LpsmState>{LpsmState::OpenInit, LpsmState::Initializing, LpsmState::OpenInit});
    CHECK(d.lpsm.fill() == lip_f8);
    CHECK(d.lpsm.next().kind == K::None);  // no LISM: it did not originate
    CHECK(d.lpsm.awaits_init());
    // Once that port's IDLE and LISM come, the procedure goes on as usual.
    d.lpsm.receive(Word::idle());
    CHECK(d.lpsm.fill() == Word::idle());
}

TEST_CASE("lpsm init words: an originator that must initialize while its own LIPs are still coming back originates again",
          "[loop][lpsm][init]")
{
    Port c(config(0x01, 0));
    c.lpsm.initialize();
    for (int i = 0; i < 3; ++i) c.lpsm.receive(kLipF7F7);
    REQUIRE(c.lpsm.state() == LpsmState::OpenInit);
    c.lpsm.minimum_lips_sent();
    REQUIRE(c.lpsm.fill() == Word::idle());
    c.lpsm.initialize();
    CHECK(c.lpsm.state() == LpsmState::OpenInit);
    CHECK(c.lpsm.fill() == kLipF7F7);  // it sends its minimum of LIPs again
    c.lpsm.minimum_lips_sent();
    CHECK(c.lpsm.fill() == Word::idle());  // then removes its LIPs
    CHECK(c.lpsm.next().kind == K::InitFrame);  // and sends its LISM
    CHECK(li(c.act(K::InitFrame)).id == LiId::Lism);
}

TEST_CASE("lpsm init words: a port whose receiver lost the signal, or that left the loop, sends its own LIPs",
          "[loop][lpsm][init]")
{
    // A LIP run it recognised before is over: nothing arrives any more (docs/loop_init.md, "Port bypass
    // circuits").
    const Word lip_f8 = Word::sequence(phy::OrderedSet::lip_failure(0xE2));
    for (const bool leaves : {false, true}) {
        Port d(config(0xEF, 1));
        for (int i = 0; i < 3; ++i) d.lpsm.receive(kLipF7F7);
        REQUIRE(d.lpsm.state() == LpsmState::OpenInit);
        if (leaves) d.lpsm.leave_loop();
        else d.lpsm.lose_signal();
        d.lpsm.initialize(lip_f8.ordered_set());
        CHECK(d.lpsm.state() == LpsmState::Initializing);
        CHECK(d.lpsm.fill().ordered_set() == lip_f8.ordered_set());
    }
}

TEST_CASE("lpsm init words: an originator removes a LIP of its own that comes back after the one that made it originate",
          "[loop][lpsm][init]")
{
    // The port downstream of a closing bypass (docs/loop_init.md, "Port bypass circuits") had filled the
    // loop with LIP(F8,x) and, in the instant the bypass closes, switches to LIP(F7,x): its LIP(F8,x) back
    // makes it the originator, and its LIP(F7,x) come back behind them, before its IDLEs.
    Port c(config(0x01, 0));
    const Word f8 = Word::sequence(phy::OrderedSet::lip_failure(0x01));
    const Word f7 = Word::sequence(phy::OrderedSet::lip_initializing(0x01));
    c.lpsm.initialize(f8.ordered_set());
    c.lpsm.initialize(f7.ordered_set());
    for (int i = 0; i < 3; ++i) c.lpsm.receive(f8);
    REQUIRE(c.lpsm.state() == LpsmState::OpenInit);
    c.lpsm.minimum_lips_sent();
    REQUIRE(c.lpsm.fill() == Word::idle());
    REQUIRE(c.lpsm.next().kind == K::InitFrame);  // its LISM
    for (int i = 0; i < 4; ++i) c.lpsm.receive(f7);
    CHECK(c.lpsm.fill() == Word::idle());  // removed, not repeated round the loop for ever
    CHECK(c.lpsm.next().kind == K::InitFrame);  // the procedure goes on: no new initialization
    CHECK(c.rec.states == std::vector<LpsmState>{LpsmState::Initializing, LpsmState::OpenInit});
    // Once its IDLEs are back it repeats, and a LIP after that starts a new initialization.
    c.lpsm.receive(Word::idle());
    CHECK(c.lpsm.fill() == Word::idle());
    for (int i = 0; i < 3; ++i) c.lpsm.receive(f7);
    CHECK(c.lpsm.fill() == f7);
}

TEST_CASE("lpsm init words: a LISM answer given while another is still to be sent leaves one LISM to send",
          "[loop][lpsm][init]")
{
    // The controller originates and its LISM is not out yet (its minimum of LIPs) when two higher LISMs
    // arrive from other originators: each would be replaced by its own; it sends its own once. The
    // recorder fails the test on a protocol error.
    Port c(config(0x01, 0));
    Port d1(config(0xEF, 1));
    Port d2(config(0xE8, 2));
    for (Port* p : {&c, &d1, &d2}) {
        p->lpsm.initialize();
        for (int i = 0; i < 3; ++i) p->lpsm.receive(kLipF7F7);
        REQUIRE(p->lpsm.sends_minimum_lips());
    }
    d1.lpsm.minimum_lips_sent();
    d2.lpsm.minimum_lips_sent();
    const Word lism_d1 = d1.act(K::InitFrame);
    const Word lism_d2 = d2.act(K::InitFrame);
    for (const Word& w : {lism_d1, lism_d2}) {
        c.lpsm.receive(w);
        c.lpsm.receive(Word::idle());
        CHECK(c.lpsm.answer_pending());
    }
    c.lpsm.minimum_lips_sent();
    const Word lism_c = c.act(K::InitFrame);
    CHECK(li(lism_c) == LoopInitFrame::lism(loop::default_port_name(0)));
    CHECK_FALSE(c.lpsm.answer_pending());  // once
    // A higher LISM again (its own to send), then its own back before that is out: it is the master, and
    // ARB(F0) is what it sends.
    c.lpsm.receive(lism_d2);
    c.lpsm.receive(Word::idle());
    REQUIRE(c.lpsm.answer_pending());
    c.lpsm.receive(lism_c);
    c.lpsm.receive(Word::idle());
    CHECK(c.lpsm.init_procedure().master());
    CHECK(answer(c, K::InitFill, kProcS) == Word::arb(phy::kArbFairnessFill));
    CHECK_FALSE(c.lpsm.answer_pending());
}

TEST_CASE("lpsm init words: a lower LISM in place of an originator's own still waits for its minimum of LIPs",
          "[loop][lpsm][init]")
{
    // The originator's LISM waits for its 12 LIPs (a run of fewer might not be recognised downstream); the lower
    // LISM it forwards in its place waits for them too, and it keeps sending LIPs until the port says they are out.
    const Word lism_c = controller_lism();
    Port d(config(0xEF, 1));
    d.lpsm.initialize();
    for (int i = 0; i < 3; ++i) d.lpsm.receive(kLipF7F7);
    REQUIRE(d.lpsm.sends_minimum_lips());
    REQUIRE(d.lpsm.answer_min_lips() == loop::kLipsBeforeLism);
    d.lpsm.receive(lism_c);
    d.lpsm.receive(d.lpsm.fill());
    CHECK(d.lpsm.answer_min_lips() == loop::kLipsBeforeLism);
    CHECK(d.lpsm.sends_minimum_lips());
    CHECK(d.lpsm.fill() == kLipF7F7);
    d.lpsm.minimum_lips_sent();
    CHECK(li(answer(d, K::InitFrame, kProcS)) == LoopInitFrame::lism(loop::default_port_name(0)));
}

TEST_CASE("lpsm init words: a port in a circuit discards a loop initialization frame", "[loop][lpsm][init]")
{
    // It did not recognise the LIPs before it (a run cut short): the frame's D_ID 0000EF is a mark, not the
    // address of the port at AL_PA EF, and nothing for its user (docs/loop_init.md, "The LPSM in
    // initialization").
    const Word lism_c = controller_lism();
    Port d(config(0xEF, 1));
    d.lpsm.receive(Word::opn(0xEF, 0x01, false));
    REQUIRE(d.lpsm.state() == LpsmState::Opened);
    d.lpsm.receive(lism_c);
    d.lpsm.receive(Word::idle());
    CHECK(d.rec.received.empty());
    CHECK(d.rec.count(test::LpsmRecorder::E::FrameDiscarded) == 1);
    CHECK(d.lpsm.state() == LpsmState::Opened);
}
