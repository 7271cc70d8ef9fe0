// The LPSM on its own, driven word by word without a simulation kernel (docs/loop.md, "LPSM",
// "Fairness", "Alternative BB credit"): every expectation follows from the
// state machine's rules, one received word at a time.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>
#include <vector>

#include "fcal/loop/lpsm.hpp"
#include "lpsm_driver.hpp"

using namespace fcal;
using loop::LpsmState;
using loop::Word;
using K = loop::Lpsm::Decision::Kind;
using E = loop::LpsmObserver::Event;

namespace {

using Port = test::DrivenLpsm;
const auto frame = test::lpsm_frame;

loop::PortConfig config(phy::AlPa al_pa, unsigned buffers = 1, unsigned login_credit = 0)
{
    loop::PortConfig c;
    c.al_pa = al_pa;
    c.incoming_buffers = buffers;
    c.login_bb_credit = login_credit;
    return c;
}

}  // namespace

TEST_CASE("lpsm words: a monitoring port repeats what it receives and arbitrates only when it has a frame",
          "[loop][lpsm]")
{
    Port p(config(0x10));
    CHECK(p.lpsm.state() == LpsmState::Monitoring);
    p.lpsm.receive(Word::idle());
    CHECK(p.lpsm.fill() == Word::idle());
    p.lpsm.receive(Word::arb(0x20));
    CHECK(p.lpsm.fill() == Word::arb(0x20));  // a monitoring port repeats others' ARBs
    CHECK(p.lpsm.unaffected_by(Word::arb(0x20)));
    CHECK_FALSE(p.lpsm.unaffected_by(Word::arb(0x10)));  // its own ARB it removes
    CHECK(p.lpsm.unaffected_by(Word::r_rdy()));
    CHECK_FALSE(p.lpsm.unaffected_by(Word::opn(0x10, 0x10, false)));

    p.queue_for(0x20);
    CHECK(p.lpsm.state() == LpsmState::Arbitrating);
    CHECK(p.rec.count(E::Requesting) == 1);
    CHECK_FALSE(p.lpsm.unaffected_by(Word::idle()));  // it will replace fill words now
    CHECK(p.lpsm.fill() == Word::arb(0x10));  // ARB(20) has lower priority: replaced by ARB(10)
    p.lpsm.receive(Word::arb(0x05));
    CHECK(p.lpsm.fill() == Word::arb(0x05));  // a higher-priority ARB passes
    p.lpsm.receive(Word::idle());
    CHECK(p.lpsm.fill() == Word::arb(0x10));
    p.lpsm.receive(Word::arb(0x10));  // its own ARB came round: it won
    CHECK(p.lpsm.state() == LpsmState::ArbitrationWon);
    CHECK(p.lpsm.owner());
    CHECK_FALSE(p.lpsm.access());
    CHECK(p.lpsm.fill() == Word::arb(phy::kArbFairnessFill));  // the owner fills with ARB(F0)
}

TEST_CASE("lpsm words: a half-duplex circuit, word by word, on alternative BB credit", "[loop][lpsm][credit]")
{
    Port a(config(0x10)), b(config(0x20, 2));
    a.queue_for(0x20, 2);
    a.lpsm.receive(Word::arb(0x10));
    const Word opn = a.act(K::Opn);
    CHECK(opn == Word::opn(0x20, 0x10, false));
    CHECK(a.lpsm.state() == LpsmState::Open);
    CHECK(a.rec.count(E::CircuitOpened) == 1);
    CHECK(a.lpsm.next().kind == K::None);  // no credit until an R_RDY

    // B receives the OPN and owes one R_RDY per free buffer.
    b.lpsm.receive(opn);
    CHECK(b.lpsm.state() == LpsmState::Opened);
    const Word r1 = b.act(K::RRdy), r2 = b.act(K::RRdy);
    CHECK(r1.kind == loop::WordKind::RRdy);
    CHECK(b.lpsm.next().kind == K::None);  // two buffers, two R_RDYs, then nothing
    CHECK_FALSE(b.lpsm.unaffected_by(Word::r_rdy()));  // in a circuit it absorbs words

    a.lpsm.receive(r1);
    a.lpsm.receive(r2);
    CHECK(a.lpsm.credit().credit() == 2);
    const Word f1 = a.act(K::Frame);
    const Word f2 = a.act(K::Frame);
    CHECK(f1.kind == loop::WordKind::Frame);
    CHECK(a.lpsm.credit().credit() == 0);
    CHECK(a.queue.empty());
    a.lpsm.update_arbitration();
    // Nothing left for the peer: close.
    const auto close = a.lpsm.next();
    REQUIRE(close.kind == K::Cls);
    CHECK_FALSE(close.frames_left);
    CHECK_FALSE(close.idle_close);  // no close timer configured
    a.lpsm.prepare(close);
    a.lpsm.commit(close);
    CHECK(a.lpsm.state() == LpsmState::XmittedClose);

    // B takes both frames; the word after each EOF completes it.
    b.lpsm.receive(f1);
    CHECK(b.rec.received.empty());
    b.lpsm.receive(f2);
    CHECK(b.rec.received.size() == 1);
    CHECK(b.lpsm.credit().free_buffers() == 0);
    b.lpsm.receive(Word::cls());
    CHECK(b.rec.received.size() == 2);
    CHECK(b.lpsm.state() == LpsmState::ReceivedClose);
    b.lpsm.release_buffer();
    CHECK(b.lpsm.next().kind == K::Cls);  // no R_RDY on a closing circuit, just the CLS back
    const Word cls = b.act(K::Cls);
    CHECK(b.lpsm.state() == LpsmState::Monitoring);
    b.lpsm.release_buffer();
    CHECK(b.lpsm.credit().free_buffers() == 2);
    CHECK_THROWS(b.lpsm.release_buffer());  // both buffers are free already

    // A gets the CLS back and leaves the loop.
    a.lpsm.receive(cls);
    a.act(K::Leave);
    CHECK(a.lpsm.state() == LpsmState::Monitoring);
    CHECK_FALSE(a.lpsm.owner());
    CHECK(a.rec.count(E::LeftLoop) == 1);
}

TEST_CASE("lpsm words: login credit is spent first and the R_RDYs that repay it are discarded", "[loop][lpsm][credit]")
{
    Port a(config(0x10));
    a.dir.login_credit[0x20] = 2;
    a.queue_for(0x20, 3);
    a.lpsm.receive(Word::arb(0x10));
    a.act(K::Opn);
    CHECK(a.lpsm.credit().credit() == 2);
    a.act(K::Frame);
    a.act(K::Frame);
    CHECK(a.lpsm.credit().login_credit_used() == 2);
    CHECK(a.lpsm.next().kind == K::None);
    a.lpsm.receive(Word::r_rdy());  // repays login credit
    a.lpsm.receive(Word::r_rdy());
    CHECK(a.lpsm.next().kind == K::None);
    a.lpsm.receive(Word::r_rdy());  // a fresh buffer
    CHECK(a.lpsm.credit().credit() == 1);
    a.act(K::Frame);
    CHECK(a.rec.count(E::RRdyReceived) == 3);
}

TEST_CASE("lpsm words: fairness holds a port back until IDLEs reopen the access window", "[loop][lpsm][fairness]")
{
    Port p(config(0x10));
    p.queue_for(0x20);
    p.lpsm.receive(Word::arb(0x10));
    p.act(K::Opn);
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    p.lpsm.update_arbitration();
    p.act(K::Cls);
    p.lpsm.receive(Word::cls());
    p.act(K::Leave);
    REQUIRE(p.lpsm.state() == LpsmState::Monitoring);
    CHECK_FALSE(p.lpsm.access());

    // Its ARB(F0) comes back unreplaced: it was the last owner, so it removes it.
    p.lpsm.receive(Word::arb(phy::kArbFairnessFill));
    CHECK(p.lpsm.fill() == Word::idle());
    CHECK_FALSE(p.lpsm.unaffected_by(Word::arb(phy::kArbFairnessFill)));

    p.queue_for(0x20);
    CHECK(p.lpsm.state() == LpsmState::Monitoring);  // ACCESS clear: it waits
    CHECK(p.rec.count(E::Requesting) == 2);
    p.lpsm.receive(Word::arb(0x30));
    p.lpsm.update_arbitration();
    CHECK(p.lpsm.state() == LpsmState::Monitoring);
    p.lpsm.receive(Word::idle());  // IDLE: the access window reopens
    CHECK(p.lpsm.access());
    p.lpsm.update_arbitration();
    CHECK(p.lpsm.state() == LpsmState::Arbitrating);
    CHECK(p.rec.count(E::ArbitrationWithoutAccess) == 0);
}

TEST_CASE("lpsm words: the owner switches its fill to IDLE when its ARB(F0) returns, and opens the next "
          "destination through TRANSFER when nobody waits",
          "[loop][lpsm][fairness]")
{
    Port p(config(0x10));
    p.queue_for(0x20);
    p.queue_for(0x30);
    p.lpsm.receive(Word::arb(0x10));
    CHECK(p.lpsm.fill() == Word::arb(phy::kArbFairnessFill));
    p.lpsm.receive(Word::arb(phy::kArbFairnessFill));
    CHECK(p.lpsm.fill() == Word::idle());  // nobody replaced it: nobody else wants the loop
    p.act(K::Opn);
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    p.act(K::Cls);  // the frame for 0x30 cannot go in this circuit
    p.lpsm.receive(Word::cls());
    p.act(K::Leave);
    CHECK(p.lpsm.state() == LpsmState::Transfer);
    CHECK(p.rec.count(E::Transfer) == 1);
    CHECK(p.act(K::Opn) == Word::opn(0x30, 0x10, false));
}

TEST_CASE("lpsm words: with a close timer, an opener that has sent everything asks to hold the circuit",
          "[loop][lpsm][hold]")
{
    auto c = config(0x10);
    c.circuit_hold_s = 5e-6;
    Port p(c);
    p.queue_for(0x20);
    p.lpsm.receive(Word::arb(0x10));
    p.act(K::Opn);
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    auto d = p.lpsm.next();
    CHECK(d.kind == K::Cls);
    CHECK(d.idle_close);  // the port may wait (its timer) before the CLS
    // Another frame for the peer arrives meanwhile: it goes in the same circuit once credit allows.
    p.queue_for(0x20);
    CHECK(p.lpsm.next().kind == K::None);  // frame waiting, no credit: hold
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    // A frame for somebody else: close at once, it needs a circuit of its own.
    p.queue_for(0x30);
    d = p.lpsm.next();
    CHECK(d.kind == K::Cls);
    CHECK_FALSE(d.idle_close);
    CHECK(p.rec.count(E::CircuitOpened) == 1);
}

TEST_CASE("lpsm words: what a port can pass on without processing it (the fast path's question)", "[loop][lpsm][fast]")
{
    Port p(config(0x10));
    // Arbitrating: fill words are replaced (a higher-priority ARB passes), its own ARB it must
    // process (it wins), frames and primitives pass as they are.
    p.queue_for(0x20);
    REQUIRE(p.lpsm.state() == LpsmState::Arbitrating);
    CHECK(p.lpsm.fill_replacement(Word::idle()) == Word::arb(0x10));
    CHECK(p.lpsm.fill_replacement(Word::arb(phy::kArbFairnessFill)) == Word::arb(0x10));
    CHECK(p.lpsm.fill_replacement(Word::arb(0x20)) == Word::arb(0x10));
    CHECK(p.lpsm.fill_replacement(Word::arb(0x05)) == Word::arb(0x05));
    CHECK_FALSE(p.lpsm.fill_replacement(Word::arb(0x10)).has_value());
    CHECK(p.lpsm.unaffected_by(Word::frame_of(frame(0x01, 0x02))));
    CHECK_FALSE(p.lpsm.unaffected_by(Word::opn(0x10, 0x10, false)));

    // After its tenancy, with another frame queued, it waits for the access window: fill words
    // pass unchanged, except IDLE (it would start arbitrating) and ARB(F0) while it is the fill
    // originator (it removes it).
    p.lpsm.receive(Word::arb(0x10));
    p.act(K::Opn);
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    p.act(K::Cls);
    p.lpsm.receive(Word::cls());
    p.queue_for(0x20);
    p.act(K::Leave);
    REQUIRE(p.lpsm.state() == LpsmState::Monitoring);
    REQUIRE_FALSE(p.lpsm.access());
    CHECK_FALSE(p.lpsm.unaffected_by(Word::arb(phy::kArbFairnessFill)));  // the fill originator
    CHECK_FALSE(p.lpsm.fill_replacement(Word::idle()).has_value());  // replacement is for arbitrating ports only
    p.lpsm.receive(Word::arb(0x30));  // another port replaced it: no longer the originator
    CHECK(p.lpsm.unaffected_by(Word::arb(0x30)));
    CHECK(p.lpsm.unaffected_by(Word::arb(phy::kArbFairnessFill)));
    CHECK_FALSE(p.lpsm.unaffected_by(Word::idle()));
    p.lpsm.receive(Word::idle());
    p.lpsm.update_arbitration();
    CHECK(p.lpsm.state() == LpsmState::Arbitrating);
}

TEST_CASE("lpsm words: the IDLE that sets ACCESS is repeated unchanged; arbitration replaces the words after it",
          "[loop][lpsm][fairness]")
{
    // A fair port that won once and waits, with a frame queued, for the next access window.
    Port p(config(0x10));
    p.one_circuit(0x20, true);
    p.lpsm.receive(Word::arb(0x30));  // another port's ARB: not the fill originator any more
    p.lpsm.update_arbitration();
    REQUIRE(p.lpsm.state() == LpsmState::Monitoring);
    REQUIRE_FALSE(p.lpsm.access());
    CHECK(p.lpsm.fill() == Word::arb(0x30));
    CHECK_FALSE(p.lpsm.repeats_access_word());

    // Word 1: an IDLE. It sets ACCESS and the port starts arbitrating, but that IDLE is the word
    // the port is repeating: it goes out unchanged, so the ports downstream see it too.
    p.lpsm.receive(Word::idle());
    p.lpsm.update_arbitration();
    CHECK(p.lpsm.access());
    CHECK(p.lpsm.state() == LpsmState::Arbitrating);
    CHECK(p.lpsm.repeats_access_word());
    CHECK(p.lpsm.fill() == Word::idle());
    // Whatever arrives next is processed, not passed on: the port's fill changes one word later.
    CHECK_FALSE(p.lpsm.unaffected_by(Word::idle()));
    CHECK_FALSE(p.lpsm.unaffected_by(Word::r_rdy()));
    CHECK_FALSE(p.lpsm.fill_replacement(Word::idle()).has_value());

    // Word 2: another IDLE. Arbitration acts on it: ARB(own) replaces it.
    p.lpsm.receive(Word::idle());
    p.lpsm.update_arbitration();
    CHECK_FALSE(p.lpsm.repeats_access_word());
    CHECK(p.lpsm.fill() == Word::arb(0x10));
    CHECK(p.lpsm.fill_replacement(Word::idle()) == Word::arb(0x10));

    // Word 3: a higher-priority ARB passes, then its own ARB comes back and it wins.
    p.lpsm.receive(Word::arb(0x05));
    CHECK(p.lpsm.fill() == Word::arb(0x05));
    p.lpsm.receive(Word::arb(0x10));
    CHECK(p.lpsm.state() == LpsmState::ArbitrationWon);
}

TEST_CASE("lpsm words: the access word ends after one word even when the IDLEs go on (the port's timer)",
          "[loop][lpsm][fairness]")
{
    Port p(config(0x10));
    p.one_circuit(0x20, true);
    p.lpsm.receive(Word::arb(0x30));
    p.lpsm.update_arbitration();
    p.lpsm.receive(Word::idle());
    p.lpsm.update_arbitration();
    REQUIRE(p.lpsm.fill() == Word::idle());
    // The loop only signals changes: an IDLE that goes on brings no new word, so the port says
    // when one word has gone by.
    p.lpsm.access_word_repeated();
    CHECK(p.lpsm.fill() == Word::arb(0x10));
    CHECK(p.lpsm.unaffected_by(Word::r_rdy()));
}

TEST_CASE("lpsm words: a port that is not waiting for ACCESS replaces IDLE at once", "[loop][lpsm][fairness]")
{
    // ACCESS already set (a fresh port): an IDLE arriving while it arbitrates is a fill word to
    // replace, as before.
    Port p(config(0x10));
    p.lpsm.receive(Word::idle());
    p.queue_for(0x20);
    REQUIRE(p.lpsm.state() == LpsmState::Arbitrating);
    p.lpsm.receive(Word::idle());
    CHECK_FALSE(p.lpsm.repeats_access_word());
    CHECK(p.lpsm.fill() == Word::arb(0x10));
    // A quiet port that repeated an IDLE on the fast path does not repeat it again later when a
    // frame arrives from above.
    Port q(config(0x10));
    q.one_circuit(0x20, false);
    q.lpsm.receive(Word::arb(0x30));
    REQUIRE_FALSE(q.lpsm.access());
    q.lpsm.repeated(Word::idle());
    CHECK(q.lpsm.access());
    q.queue_for(0x20);
    REQUIRE(q.lpsm.state() == LpsmState::Arbitrating);
    CHECK_FALSE(q.lpsm.repeats_access_word());
    CHECK(q.lpsm.fill() == Word::arb(0x10));
}

TEST_CASE("lpsm words: the owner whose ARB(F0) comes back unreplaced has ACCESS in the window its IDLEs open",
          "[loop][lpsm][fairness]")
{
    Port p(config(0x10));
    p.queue_for(0x20);
    p.queue_for(0x30);  // something for another port after this circuit
    p.lpsm.receive(Word::arb(0x10));
    REQUIRE(p.lpsm.owner());
    REQUIRE_FALSE(p.lpsm.access());  // winning cleared it
    p.act(K::Opn);
    p.lpsm.receive(Word::arb(0x30));  // another port arbitrates: the window stays open
    CHECK_FALSE(p.lpsm.access());
    p.lpsm.receive(Word::arb(phy::kArbFairnessFill));  // later nobody replaces it: the window ends
    CHECK(p.lpsm.fill() == Word::idle());
    CHECK(p.lpsm.access());
    // Others start arbitrating in the new window before it gives the loop up: it still may, too.
    p.lpsm.receive(Word::arb(0x30));
    p.lpsm.receive(Word::r_rdy());
    p.act(K::Frame);
    p.act(K::Cls);
    p.lpsm.receive(Word::cls());
    p.act(K::Leave);  // somebody waits: it gives the loop up...
    CHECK_FALSE(p.lpsm.owner());
    CHECK(p.lpsm.state() == LpsmState::Arbitrating);  // ...and arbitrates in the new window at once
    CHECK(p.rec.count(E::ArbitrationWithoutAccess) == 0);
}
