// An R_RDY that reaches a port while it sends a frame of its own, with no credit left for its next
// frame, waits for the end of that frame: the port runs then anyway to decide what follows, and
// takes the R_RDY first (docs/loop.md, "Fast path"). So a sender whose receiver has few buffers (a
// controller writing to a disk with two) costs no run per R_RDY, and the frames go as before.
#include <catch2/catch.hpp>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr phy::AlPa kSender = 0x01, kReceiver = 0xE8;

// The sender streams `frames` 2 KiB frames to a receiver with `buffers` buffers. The sender wants
// frame_sent() in time (as the controller does), so it plans nothing past the end of each frame.
struct Stream {
    Stream(const char* name, unsigned frames, unsigned buffers, bool watch_sender)
        : loop(test::make_loop(name, {test::active_node(kSender), test::active_node(kReceiver, buffers)})),
          sender(*loop->find(kSender)), receiver(*loop->find(kReceiver)), watcher(trace)
    {
        if (watch_sender) sender.port_.set_watcher(&watcher);
        sender.send(kReceiver, frames);
    }
    long long activations() const { return static_cast<long long>(loop->activations()); }
    std::unique_ptr<loop::Loop> loop;
    test::Endpoint sender, receiver;
    std::ostringstream trace;
    loop::PortWatcher watcher;
};

}  // namespace

TEST_CASE("an R_RDY that comes while the sender sends a frame waits for the frame's end", "[loop][credit][fastpath]")
{
    Stream few20("few20", 20, 2, false), few40("few40", 40, 2, false);
    Stream many20("many20", 20, 8, false), many40("many40", 40, 8, false);
    Stream full40("full40", 40, 2, true);  // the sender watched: the full path
    sc_core::sc_start(5, sc_core::SC_MS);

    for (Stream* s : {&few20, &many20}) REQUIRE(s->receiver.received.size() == 20);
    for (Stream* s : {&few40, &many40, &full40}) {
        REQUIRE(s->receiver.received.size() == 40);
        REQUIRE(s->sender.sent.size() == 40);
    }
    // Exact: the frames end and arrive at the same times as on the full path.
    for (std::size_t i = 0; i < 40; ++i) {
        CHECK(few40.sender.sent[i].t_ns == full40.sender.sent[i].t_ns);
        CHECK(few40.receiver.received[i].t_ns == full40.receiver.received[i].t_ns);
    }
    // With two buffers every R_RDY comes while the sender sends its last credited frame (a round
    // trip is longer than the six words between frames): its credit is then 0. With eight it never
    // runs out. The runs per frame are the same: the R_RDYs cost the sender none.
    const long long per_20_frames_few = few40.activations() - few20.activations();
    const long long per_20_frames_many = many40.activations() - many20.activations();
    INFO("runs for 20 more frames: " << per_20_frames_few << " with two buffers, " << per_20_frames_many << " with eight");
    CHECK(per_20_frames_few == per_20_frames_many);
}
