// Circuits around a port that leaves the loop (docs/loop_init.md, "Port bypass circuits"):
// - a frame on its way through a slot when it is bypassed reaches its destination at most once: what
//   follows of a word the port upstream of the slot was sending when the ring was rewired has no
//   start, and the port downstream must not be handed that word again (splicing); it was, whole, and
//   on the fast path its destination took it a second time.
// Any SystemC error fails the test (the test main), so each checks the loop's protocol checks too.
#include <catch2/catch.hpp>

#include <set>

#include "loop_fixture.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

// 2GFC, 2 m hops, 6 words of port delay; ports with loop initialization's names and processing time,
// so that an LPB, which addresses a port by its AL_PA, follows an initialization at the start.
loop::LoopConfig ring(const std::vector<phy::AlPa>& al_pas)
{
    loop::LoopConfig cfg;
    cfg.rate = phy::LineRate::G2;
    cfg.port_delay_words = 6;
    cfg.propagation_ns_per_m = 5.0;
    cfg.hop_m = {2.0};
    cfg.bypass_detect_s = 50e-6;
    for (unsigned i = 0; i < al_pas.size(); ++i) {
        loop::LoopNode n = test::active_node(al_pas[i]);
        n.port.init.port_name = loop::default_port_name(i);
        n.port.init_frame_processing_s = 1e-6;
        cfg.nodes.push_back(n);
    }
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
    void frame_received(std::shared_ptr<const loop::LoopFrame> f) override
    {
        if (!frames.insert(f.get()).second) ++taken_again;
        kept.push_back(f);
        Endpoint::frame_received(f);
    }
    std::set<const loop::LoopFrame*> frames;
    std::vector<std::shared_ptr<const loop::LoopFrame>> kept;  // so that no address is reused
    unsigned taken_again = 0;
};

}  // namespace

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
