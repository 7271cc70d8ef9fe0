// Faults on the loop (docs/faults.md, "Faults and recovery", "Bit errors on the loop"): a frame that fails its
// CRC is discarded and still earns its R_RDY; a lost R_RDY, OPN or CLS ends in the documented
// recovery within AL_TIME, and the loop goes on working. A test hook hits exactly the word it names
// instead of random bit errors.
#include <catch2/catch.hpp>

#include "loop_fixture.hpp"

using namespace fcal;
using loop::LpsmState;
using loop::WordKind;

namespace {

constexpr double kAlTimeUs = 10.0;
constexpr double kAlTimeNs = kAlTimeUs * 1e3;

// Hits the `nth` (1-based) word of `kind` its port consumes, and nothing else.
struct HitNth : loop::WordErrors {
    HitNth(WordKind k, unsigned n) : kind(k), nth(n) {}
    std::uint64_t hits(const loop::Word& w, unsigned) override { return w.kind == kind && ++seen == nth ? 1 : 0; }
    WordKind kind;
    unsigned nth;
    unsigned seen = 0;
};

// Two ports, A (0x01) and B (0xE8, one buffer, no login credit), with a passive node between them;
// every port watches AL_TIME, and B's or A's words are hit as the test says.
struct TwoPorts {
    explicit TwoPorts(const char* name, unsigned b_login_credit = 0, bool b_consumes_at_once = true)
    {
        loop::LoopConfig cfg;
        cfg.hop_m = {2.0};
        cfg.nodes = {test::active_node(0x01), test::passive_node(), test::active_node(0xE8, 1, b_login_credit)};
        cfg.al_time_s = kAlTimeUs * 1e-6;
        l = std::make_unique<loop::Loop>(name, cfg);
        a = std::make_unique<test::Endpoint>(*l->find(0x01));
        b = std::make_unique<test::Endpoint>(*l->find(0xE8), b_consumes_at_once);
        a->port_.set_word_errors(&none_a);
        b->port_.set_word_errors(&none_b);
    }
    loop::LPort& pa() { return a->port_; }
    loop::LPort& pb() { return b->port_; }
    HitNth none_a{WordKind::Idle, 1}, none_b{WordKind::Idle, 1};  // fill words are never asked about
    std::unique_ptr<loop::Loop> l;
    std::unique_ptr<test::Endpoint> a, b;
};

bool all_monitoring(TwoPorts& t) { return t.pa().state() == LpsmState::Monitoring && t.pb().state() == LpsmState::Monitoring; }

}  // namespace

TEST_CASE("a frame that fails its CRC is discarded, frees its buffer and still earns its R_RDY", "[loop][faults]")
{
    // B has a single buffer and no login credit: every frame after the first needs the R_RDY of the
    // buffer the frame before it took. Frame 1 is hit: if its buffer were not freed, or its R_RDY
    // not returned, frame 2 could not be sent and A would have to wait for AL_TIME.
    TwoPorts hit("hit"), clean("clean");
    HitNth first_frame(WordKind::Frame, 1);
    hit.pb().set_word_errors(&first_frame);
    hit.a->send(0xE8, 3, 64);
    clean.a->send(0xE8, 3, 64);
    sc_core::sc_start(200, sc_core::SC_US);

    CHECK(hit.a->sent.size() == 3);
    CHECK(hit.b->received.size() == 2);  // the PortUser never sees the discarded frame
    CHECK(hit.pb().stats().frames_discarded == 1);
    CHECK(hit.pb().stats().code_violations == 1);
    CHECK(hit.pa().stats().al_timeouts == 0);
    CHECK(hit.pb().free_buffers() == 1);
    // Credit stays as consistent as without the error: the same R_RDYs both ways, same circuits.
    CHECK(hit.pb().stats().r_rdys_sent == clean.pb().stats().r_rdys_sent);
    CHECK(hit.pa().stats().r_rdys_received == clean.pa().stats().r_rdys_received);
    CHECK(hit.pa().stats().circuits_opened == 1);
    CHECK(all_monitoring(hit));
}

// The first word of `kind` arriving at `at` is lost, with two frames from A to B queued: A, OPEN, gets
// no R_RDY, waits AL_TIME after its OPN and closes; both frames go on a second circuit, nothing is
// lost. Returns when A opened the first circuit.
double first_circuit_times_out(TwoPorts& t, loop::LPort& at, WordKind kind)
{
    HitNth first(kind, 1);
    at.set_word_errors(&first);
    t.a->send(0xE8, 2, 64);
    sc_core::sc_start(100, sc_core::SC_US);

    // AL_TIME runs from the end of A's last word of the circuit, its one-word OPN.
    const double open = t.a->entered(LpsmState::Open);
    CHECK(t.a->entered(LpsmState::XmittedClose) == Approx(open + test::word_ns(*t.l) + kAlTimeNs).margin(0.01));
    CHECK(t.pa().stats().al_timeouts == 1);
    CHECK(at.stats().code_violations == 1);
    CHECK(t.pa().stats().circuits_opened == 2);
    CHECK(t.b->received.size() == 2);
    CHECK(t.b->received.front().t_ns > open + kAlTimeNs);
    CHECK(all_monitoring(t));
    return open;
}

TEST_CASE("a lost R_RDY: the opener closes after AL_TIME and sends the rest on a new circuit", "[loop][faults]")
{
    TwoPorts t("loop");
    first_circuit_times_out(t, t.pa(), WordKind::RRdy);  // the R_RDY B returns on opening
    CHECK(t.pb().stats().circuits_abandoned == 0);       // B answered A's CLS as usual
}

TEST_CASE("a lost OPN: the opener closes after AL_TIME, its CLS comes round, and it opens again", "[loop][faults]")
{
    TwoPorts t("loop");
    const double open = first_circuit_times_out(t, t.pb(), WordKind::Opn);
    // B never knew: it went on repeating, so A's CLS came back to A round the loop.
    CHECK(t.b->entered(LpsmState::Opened) > open + kAlTimeNs);  // only the second OPN
}

TEST_CASE("a lost OPN with login credit: the frame sent on it comes back to its sender, which discards it", "[loop][faults]")
{
    TwoPorts t("loop", 1);
    HitNth first_opn(WordKind::Opn, 1);
    t.pb().set_word_errors(&first_opn);
    t.a->send(0xE8, 2, 64);
    sc_core::sc_start(100, sc_core::SC_US);

    // Frame 1 went on B's login credit right after the OPN B never recognised: it passed B, came
    // round to A and was dropped there; AL_TIME closed the circuit and frame 2 went on the next.
    CHECK(t.pa().stats().frames_discarded == 1);
    CHECK(t.pa().stats().al_timeouts == 1);
    CHECK(t.a->sent.size() == 2);
    REQUIRE(t.b->received.size() == 1);
    CHECK(t.b->received.front().t_ns > t.a->entered(LpsmState::Open) + kAlTimeNs);
    CHECK(all_monitoring(t));
}

TEST_CASE("a CLS that finds its circuit gone comes round to its sender, which removes it", "[loop][faults]")
{
    // B (login credit 1) holds A's frame's buffer for 3 AL_TIME: in RECEIVED_CLOSE it may not send
    // its CLS before the buffer is free. A stops waiting in XMITTED_CLOSE after AL_TIME and repeats
    // again, so B's late CLS passes A and comes back to B.
    TwoPorts t("loop", 1, false);
    struct LateRelease : sc_core::sc_module {
        SC_HAS_PROCESS(LateRelease);
        loop::LPort& p;
        LateRelease(sc_core::sc_module_name n, loop::LPort& port) : sc_module(n), p(port) { SC_THREAD(run); }
        void run()
        {
            wait(3 * kAlTimeUs, sc_core::SC_US);
            p.release_buffer();
        }
    } late("late", t.pb());
    t.a->send(0xE8, 1, 64);
    sc_core::sc_start(50, sc_core::SC_US);

    CHECK(t.b->received.size() == 1);
    CHECK(t.pa().stats().al_timeouts == 1);
    CHECK(t.b->entered(LpsmState::Monitoring) >= 3 * kAlTimeNs);
    CHECK(all_monitoring(t));
    // Nothing circulates: the loop is quiet, no port runs any more.
    const auto activations = t.l->activations();
    sc_core::sc_start(20, sc_core::SC_US);
    CHECK(t.l->activations() == activations);
}

TEST_CASE("a lost CLS: both ends give the circuit up within AL_TIME and the loop works again", "[loop][faults]")
{
    TwoPorts t("loop");
    HitNth first_cls(WordKind::Cls, 1);
    t.pb().set_word_errors(&first_cls);
    t.a->send(0xE8, 1, 64);
    // Later traffic both ways, after the recovery.
    struct Later : sc_core::sc_module {
        SC_HAS_PROCESS(Later);
        TwoPorts& t;
        Later(sc_core::sc_module_name n, TwoPorts& tp) : sc_module(n), t(tp) { SC_THREAD(run); }
        void run()
        {
            wait(50, sc_core::SC_US);
            t.a->send(0xE8, 2, 64);
            t.b->send(0x01, 2, 64);
        }
    } later("later", t);
    sc_core::sc_start(40, sc_core::SC_US);

    // A's CLS is lost: A waits in XMITTED_CLOSE for a CLS that never comes, B stays OPENED.
    const double closed = t.a->entered(LpsmState::XmittedClose);
    REQUIRE(closed > 0);
    CHECK(t.pb().stats().code_violations == 1);
    // Each end gives the circuit up AL_TIME after the last word of it it sent or received: A after
    // its CLS or B's last R_RDY (which arrives within a round trip), B after that R_RDY.
    const double rt = test::rt_ns(*t.l);
    double a_back = -1, b_back = -1;
    for (const auto& c : t.a->states)
        if (c.from == LpsmState::XmittedClose) a_back = c.t_ns;
    for (const auto& c : t.b->states)
        if (c.from == LpsmState::Opened) b_back = c.t_ns;
    CHECK(a_back >= closed + kAlTimeNs);
    CHECK(a_back <= closed + kAlTimeNs + rt);
    CHECK(b_back >= closed + kAlTimeNs);
    CHECK(b_back <= closed + kAlTimeNs + rt);
    CHECK(t.pa().stats().al_timeouts + t.pb().stats().al_timeouts == 2);
    CHECK(t.pb().stats().circuits_abandoned == 1);
    CHECK(all_monitoring(t));

    sc_core::sc_start(60, sc_core::SC_US);
    CHECK(t.b->received.size() == 3);
    CHECK(t.a->received.size() == 2);
    CHECK(all_monitoring(t));
}
