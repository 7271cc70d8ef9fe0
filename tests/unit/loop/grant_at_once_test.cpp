// A buffer the layer above frees is granted with an R_RDY in that very instant (docs/loop.md,
// "Fast path"): the sender's next frame starts exactly one hop after the buffer is freed, as on the
// full path of a watched port.
#include <catch2/catch.hpp>

#include <sstream>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr unsigned kFrames = 4;
constexpr std::uint32_t kPayload = 2048;
constexpr double kFrameWords = 1 + 6 + kPayload / 4 + 1 + 1;  // SOF, header, payload, CRC, EOF
constexpr double kHoldNs = 20000;                              // the receiver frees a buffer 20 us after the frame

}  // namespace

TEST_CASE("a freed buffer's R_RDY leaves in the instant it is freed, as on the full path", "[loop][credit][fastpath]")
{
    // Two identical two-port loops; in the second the receiver is watched, so it takes the full
    // path (its R_RDY one delta later, from its own activation).
    std::ostringstream sender_text[2], receiver_text;
    loop::PortWatcher sender_watch[2] = {loop::PortWatcher(sender_text[0]), loop::PortWatcher(sender_text[1])};
    loop::PortWatcher receiver_watch(receiver_text);
    std::unique_ptr<loop::Loop> loops[2];
    std::unique_ptr<test::Endpoint> senders[2];
    std::unique_ptr<test::SlowSink> sinks[2];
    for (int k = 0; k < 2; ++k) {
        loops[k] = test::make_loop(k == 0 ? "fast" : "full", {test::active_node(0x01), test::active_node(0xE8, 1)});
        senders[k] = std::make_unique<test::Endpoint>(*loops[k]->find(0x01));
        sinks[k] = std::make_unique<test::SlowSink>(k == 0 ? "sink_fast" : "sink_full", *loops[k]->find(0xE8),
                                                    sc_core::sc_time(kHoldNs, sc_core::SC_NS));
        senders[k]->port_.set_watcher(&sender_watch[k]);
        senders[k]->send(0xE8, kFrames, kPayload);
    }
    sinks[1]->port_.set_watcher(&receiver_watch);
    sc_core::sc_start(5, sc_core::SC_MS);

    const double wt = test::word_ns(*loops[0]), rt = test::rt_ns(*loops[0]);
    std::vector<double> sof[2];
    for (int k = 0; k < 2; ++k)
        for (const auto& t : test::parse_trace(sender_text[k].str()))
            if (t.to.rfind("SOF", 0) == 0) sof[k].push_back(t.t_ns);
    REQUIRE(sof[0].size() == kFrames);
    REQUIRE(sinks[0]->freed_ns.size() == kFrames);
    for (unsigned i = 0; i + 1 < kFrames; ++i) {
        // Frame i reaches the receiver a frame time and a hop after it started, is freed kHoldNs
        // later, and its R_RDY takes the other hop back: the next frame starts as it arrives.
        CHECK(sinks[0]->freed_ns[i] == Approx(sof[0][i] + kFrameWords * wt + rt / 2 + kHoldNs).margin(0.01));
        CHECK(sof[0][i + 1] == Approx(sinks[0]->freed_ns[i] + rt / 2).margin(0.01));
    }
    // The same times as the watched receiver's full path.
    CHECK(sof[0] == sof[1]);
    CHECK(sinks[0]->freed_ns == sinks[1]->freed_ns);
    CHECK(sinks[0]->port_.stats().r_rdys_sent == sinks[1]->port_.stats().r_rdys_sent);
    CHECK(sinks[0]->received.size() == kFrames);
    // The fast receiver did not run for its grants: fewer activations than the watched one's loop.
    CHECK(loops[0]->activations() < loops[1]->activations());
}
