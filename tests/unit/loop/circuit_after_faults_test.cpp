// Circuits around a port that leaves the loop (docs/loop_init.md, "Port bypass circuits"):
// - a frame on its way through a slot when it is bypassed reaches its destination at most once: what
//   follows of a word the port upstream of the slot was sending when the ring was rewired has no
//   start, and the port downstream must not be handed that word again (splicing); it was, whole, and
//   on the fast path its destination took it a second time;
// - an opener that closed before its own OPN came back (Command-First preemption: frames left for the
//   peer) takes the OPN, back in XMITTED_CLOSE, for what it is: its destination is absent. It took it for
//   another port's ("received OPN while in a circuit");
// - a port that leaves the loop while a frame for it is arriving never gets that frame's EOF: the
//   frame is lost with what followed it, and the buffer it took is free again, so that the port,
//   back in the loop, takes the frames its Login_BB_Credit promises. It kept the buffer, and the
//   opener's second frame on login credit found none ("received a frame without credit").
// Any SystemC error fails the test (the test main), so each checks the loop's protocol checks too.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "loop_init_ring.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

// The loop initialization tests' ring (loop_init_ring.hpp): ports with initialization's names and
// processing time, so that an LPB, which addresses a port by its AL_PA, follows an initialization at the start.
loop::LoopConfig ring(const std::vector<phy::AlPa>& al_pas)
{
    loop::LoopConfig cfg = test::init_ring(al_pas);
    cfg.bypass_detect_s = 50e-6;
    return cfg;
}

void run_until_initialized(loop::Loop& l, std::size_t inits)
{
    for (int i = 0; i < 1000 && !(l.initializations().size() == inits && !l.initializing()); ++i) sc_core::sc_start(sc_time(20, SC_US));
    REQUIRE(l.initializations().size() == inits);
    REQUIRE_FALSE(l.initializing());
}

// Records every frame it takes, to find one taken twice.
struct Receiver : test::Endpoint {
    using Endpoint::Endpoint;
    void frame_received(loop::FrameRef f) override
    {
        if (!frames.insert(f.get()).second) ++taken_again;
        kept.push_back(f);
        Endpoint::frame_received(f);
    }
    std::set<const loop::LoopFrame*> frames;
    std::vector<loop::FrameRef> kept;  // so that no address is reused
    unsigned taken_again = 0;
};

// Sends what the opener has queued for another destination first: while OPEN, it closes at once when
// a frame for another port waits (as the controller's Command-First queue does for a command).
class PreemptingQueue : public loop::FifoTransmitQueue {
public:
    bool preempt(phy::AlPa open_peer) const override
    {
        for (std::size_t i = 0; const loop::OutgoingFrame* f = in_order(i); ++i)
            if (f->frame->destination != open_peer) return true;
        return false;
    }
};

// Hits no word: the ports take every word as they do with bit errors enabled (loop.ber above 0).
struct NoHits : loop::WordErrors {
    std::uint64_t hits(const loop::Word&, unsigned) override { return 0; }
};

enum class Taking { Plain, Watched, WordErrors };

// Port 1 (0xE8: 2 buffers, Login_BB_Credit 2, its layer above holding each frame 20 us, as a disk's
// HBA does) is pulled out while the 2 KiB frame port 0 sends it on login credit is arriving (10 us
// long; its start arrives well within 3 us of port 1 being OPENED), and put back once its slot is
// empty. Port 0 then sends it two frames on login credit, back to back: its two buffers must take
// them. `taking`: every port takes its words as it does untraced, watched (`--trace`), or with bit
// errors enabled.
void pull_port_receiving_a_frame(Taking taking)
{
    std::vector<phy::AlPa> al_pas = {0x01, 0xE8, 0xE4, 0xE2};
    loop::LoopConfig cfg = ring(al_pas);
    cfg.nodes[1].port.incoming_buffers = 2;
    cfg.nodes[1].port.login_bb_credit = 2;
    cfg.al_time_s = 1e-3;
    loop::Loop l("loop", cfg);
    test::Endpoint opener(l.port(0)), p2(l.port(2)), p3(l.port(3));
    test::SlowSink pulled("pulled", l.port(1), sc_time(20, SC_US));
    std::ostringstream trace;
    loop::PortWatcher watcher(trace);
    NoHits no_hits;
    for (std::size_t i = 0; i < l.port_count(); ++i) {
        if (taking == Taking::Watched) l.port(i).set_watcher(&watcher);
        if (taking == Taking::WordErrors) l.port(i).set_word_errors(&no_hits);
    }
    l.start_lip(0, "power on");
    run_until_initialized(l, 1);
    opener.send(0xE8, 1);
    while (pulled.entered(loop::LpsmState::Opened) < 0) sc_core::sc_start(sc_time(100, SC_NS));
    sc_core::sc_start(sc_time(3, SC_US));
    REQUIRE(pulled.received.empty());        // its EOF has not arrived,
    REQUIRE(l.port(1).free_buffers() == 1);  // its start has, and took a buffer
    l.remove_port(1, "pull port 1 as a frame for it arrives");
    CHECK(l.port(1).free_buffers() == 2);
    run_until_initialized(l, 2);
    sc_core::sc_start(sc_time(100, SC_US));  // the slot is empty after loop.bypass_detect_us (50 us)
    REQUIRE(l.slot_state(1) == loop::PortBypassCircuits::State::Empty);
    l.insert_port(1, "put port 1 back");
    run_until_initialized(l, 3);
    CHECK(l.port(1).free_buffers() == 2);
    const std::uint64_t r_rdys_before = l.port(1).stats().r_rdys_sent;
    opener.send(0xE8, 2);
    sc_core::sc_start(sc_time(200, SC_US));
    CHECK(pulled.received.size() == 2);  // the cut frame never arrived; both new ones did
    // One R_RDY for each free buffer on opening; the buffers are freed after the opener's CLS.
    CHECK(l.port(1).stats().r_rdys_sent - r_rdys_before == 2);
    CHECK(l.port(1).free_buffers() == 2);
    CHECK(l.port(0).transmit_queue().empty());
    if (taking == Taking::Watched) CHECK_FALSE(trace.str().empty());
}

}  // namespace

TEST_CASE("A port pulled out while a frame for it arrives frees that frame's buffer", "[loop][bypass][credit]")
{
    pull_port_receiving_a_frame(Taking::Plain);
}

TEST_CASE("A watched port pulled out while a frame for it arrives frees that frame's buffer", "[loop][bypass][credit]")
{
    pull_port_receiving_a_frame(Taking::Watched);
}

TEST_CASE("A port pulled out while a frame for it arrives frees that frame's buffer with bit errors enabled", "[loop][bypass][credit][faults]")
{
    pull_port_receiving_a_frame(Taking::WordErrors);
}

TEST_CASE("A frame passing a slot as it is bypassed reaches its destination at most once", "[loop][bypass]")
{
    // Port 0 streams 2 KiB frames to port 4 through ports 1, 2 and 3; port 2 is bypassed while port 1
    // repeats a frame whose start has reached port 3 through port 2 already.
    loop::Loop l("loop", ring({0x01, 0xE8, 0xE4, 0xE2, 0xE1}));
    test::Endpoint sender(l.port(0));
    Receiver receiver(l.port(4));
    l.start_lip(0, "power on");
    run_until_initialized(l, 1);
    sender.send(0xE1, 50);
    while (receiver.received.size() < 3) sc_core::sc_start(sc_time(100, SC_NS));
    // The next frame is 2 KiB (about 10 us): 3 us on, its start has passed port 3, its end not port 1.
    sc_core::sc_start(sc_time(3, SC_US));
    // The case: one frame spans the slot, leaving port 1 and port 3 at once.
    const loop::Word in_slot = l.port(1).transmitting();
    REQUIRE(in_slot.kind == loop::WordKind::Frame);
    REQUIRE(l.port(3).transmitting().frame == in_slot.frame);
    const std::size_t before = receiver.received.size();
    l.bypass_port(2, "LPB with a frame in the slot");
    run_until_initialized(l, 2);
    sc_core::sc_start(sc_time(2, sc_core::SC_MS));
    CHECK(receiver.taken_again == 0);
    // The frame under way when the LIP ended the circuit may be lost; the rest went out afterwards.
    CHECK(receiver.received.size() > before);
    CHECK(receiver.received.size() <= 50);
    CHECK(receiver.received.size() >= 50 - 2);
    CHECK(l.port(0).transmit_queue().empty());
}

TEST_CASE("An opener that closed before its OPN came back finds its destination absent when it does", "[loop][bypass]")
{
    // Port 1 is pulled and the loop initializes without it. Port 0 then has a frame for port 1 and one
    // for port 2: it opens port 1 (the oldest frame), closes at once for port 2's (preemption), and
    // its OPN comes back in XMITTED_CLOSE, its CLS behind it.
    const loop::LoopConfig cfg = ring({0x01, 0xE8, 0xE4, 0xE2});
    loop::Loop l("loop", cfg);
    l.port(0).set_transmit_queue(std::make_unique<PreemptingQueue>());
    test::Endpoint opener(l.port(0)), gone(l.port(1)), other(l.port(2));
    l.remove_port(1, "pull port 1");
    run_until_initialized(l, 1);
    opener.send(0xE8, 1);
    opener.send(0xE4, 1);
    sc_core::sc_start(sc_time(100, SC_US));
    // The case: port 0 closed before its OPN could be back, which takes the cables of the four hops
    // (port 1's slot bypassed) and the repeat delay of ports 2 and 3 at least.
    const double sent_opn = opener.entered(loop::LpsmState::Open);
    const double closed = opener.entered(loop::LpsmState::XmittedClose);
    REQUIRE(sent_opn >= 0);
    REQUIRE(closed >= sent_opn);
    const double word_ns = l.port(0).timing().word_time().to_seconds() * 1e9;
    const double round_trip_ns = 4 * cfg.hop_m[0] * cfg.propagation_ns_per_m + 2 * cfg.port_delay_words * word_ns;
    REQUIRE(closed - sent_opn < round_trip_ns);
    // The frame for the absent port is discarded, the other goes out on the next circuit.
    CHECK(gone.received.empty());
    CHECK(other.received.size() == 1);
    CHECK(l.port(0).stats().frames_discarded == 1);
    CHECK(l.port(0).transmit_queue().empty());
    CHECK(l.port(0).state() == loop::LpsmState::Monitoring);
}
