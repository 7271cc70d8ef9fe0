// A port handed a change while it still holds an earlier one to process holds that one too. At the
// end of its run it has processed everything that has arrived, and passes on at once the changes it
// holds that it would have passed on had they been handed to it then (docs/loop.md, "Fast path":
// changes held behind another). The case that needs it: a port that starts arbitrating in the middle
// of another port's stream of frames, the sender handing over two changes per run (the frame and,
// sent ahead, the fill word after it) with the hop longer than the six words between frames. Each
// change then reaches the port while it still holds the one before; without passing them on it
// would process every change of the stream itself, two runs per frame.
#include <catch2/catch.hpp>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr phy::AlPa kSender = 0x01, kMiddle = 0xE4, kReceiver = 0xE8;

// The sender streams `frames` 2 KiB frames to the receiver through the middle port; the middle port
// gets one frame for the sender to send at `middle_at` (never if negative).
struct Stream {
    Stream(const char* name, unsigned frames, double middle_at_us, bool watch_middle)
        : loop(test::make_loop(name, {test::active_node(kSender), test::active_node(kMiddle), test::active_node(kReceiver, 3)})),
          sender(*loop->find(kSender)), middle(*loop->find(kMiddle)), receiver(*loop->find(kReceiver)),
          middle_at_us(middle_at_us), watcher(trace)
    {
        sender.wants_sent = false;  // the sender sends the fill word after each frame ahead
        if (watch_middle) middle.port_.set_watcher(&watcher);
        sender.send(kReceiver, frames);
    }
    std::unique_ptr<loop::Loop> loop;
    test::Endpoint sender, middle, receiver;
    double middle_at_us;
    std::ostringstream trace;
    loop::PortWatcher watcher;
};

}  // namespace

TEST_CASE("a port that starts arbitrating during another port's stream costs no run per frame", "[loop][fastpath]")
{
    const double middle_at_us = 100;  // about the tenth frame
    Stream quiet20("quiet20", 20, -1, false), busy20("busy20", 20, middle_at_us, false);
    Stream quiet40("quiet40", 40, -1, false), busy40("busy40", 40, middle_at_us, false);
    Stream full40("full40", 40, middle_at_us, true);  // the middle port watched: the full path
    sc_core::sc_start(middle_at_us, sc_core::SC_US);
    for (Stream* s : {&busy20, &busy40, &full40}) s->middle.send(kSender, 1);
    sc_core::sc_start(5, sc_core::SC_MS);

    for (Stream* s : {&quiet20, &busy20}) CHECK(s->receiver.received.size() == 20);
    for (Stream* s : {&quiet40, &busy40, &full40}) CHECK(s->receiver.received.size() == 40);
    for (Stream* s : {&busy20, &busy40, &full40}) {
        REQUIRE(s->sender.received.size() == 1);
        REQUIRE(s->middle.wins.size() == 1);
    }
    // Exact: the same times as with the middle port on the full path.
    for (std::size_t i = 0; i < 40; ++i) CHECK(busy40.receiver.received[i].t_ns == full40.receiver.received[i].t_ns);
    CHECK(busy40.middle.wins == full40.middle.wins);
    CHECK(busy40.sender.received[0].t_ns == full40.sender.received[0].t_ns);
    // The middle port's arbitration costs the same number of runs whatever the length of the stream
    // after it started: none per frame.
    const auto extra20 = static_cast<long long>(busy20.loop->activations()) - static_cast<long long>(quiet20.loop->activations());
    const auto extra40 = static_cast<long long>(busy40.loop->activations()) - static_cast<long long>(quiet40.loop->activations());
    INFO("runs for the middle port's arbitration: " << extra20 << " with 20 frames, " << extra40 << " with 40");
    CHECK(extra40 == extra20);
}
