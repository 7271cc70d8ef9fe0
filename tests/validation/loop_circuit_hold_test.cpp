// Validation of the close timer (docs/loop.md, "Close timer"): a frame source slower than
// the link, with and without a hold longer than the gap between its frames. Expectations follow from
// the frame length, the line rate and the source's period alone.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <sstream>
#include <vector>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr unsigned kPayload = 2048;
constexpr unsigned kFrames = 8;
// SOF + 24-byte header + payload + CRC + EOF, in words.
constexpr double kFrameWords = 1 + 24 / 4 + kPayload / 4 + 1 + 1;
constexpr double kWordNs = 40 / 2.125;  // 2GFC: 40 bits per word at 2.125 Gbaud
constexpr double kFrameNs = kFrameWords * kWordNs;
constexpr double kPeriodNs = 2 * kFrameNs;  // the source makes a frame every two frame times
constexpr double kGapNs = kPeriodNs - kFrameNs;  // idle time between one frame's end and the next

// Queues one frame for `dest` every kPeriodNs, like a DMA engine slower than the link.
struct PacedSource : sc_core::sc_module {
    SC_HAS_PROCESS(PacedSource);
    PacedSource(sc_core::sc_module_name n, loop::LPort& port, phy::AlPa dest) : sc_module(n), port_(port), dest_(dest)
    {
        SC_THREAD(run);
    }
    void run()
    {
        for (unsigned i = 0; i < kFrames; ++i) {
            auto f = kernel::make_ref<loop::LoopFrame>();
            f->source = port_.al_pa();
            f->destination = dest_;
            f->payload_bytes = kPayload;
            port_.queue_frame(f);
            wait(sc_core::sc_time(kPeriodNs, sc_core::SC_NS));
        }
    }
    loop::LPort& port_;
    phy::AlPa dest_;
};

struct HeldLoop {
    HeldLoop(const char* name, double hold_ns)
    {
        auto src = test::active_node(0x01, 1);
        src.port.circuit_hold_s = hold_ns * 1e-9;
        loop = test::make_loop(name, {src, test::active_node(0xE8, 1)});
        sink = std::make_unique<test::Endpoint>(*loop->find(0xE8));
        user = std::make_unique<test::Endpoint>(*loop->find(0x01));
        loop->find(0x01)->set_watcher(&watcher);
        source = std::make_unique<PacedSource>((std::string(name) + "_src").c_str(), *loop->find(0x01), 0xE8);
    }
    std::ostringstream text;
    loop::PortWatcher watcher{text};
    std::unique_ptr<loop::Loop> loop;
    std::unique_ptr<test::Endpoint> sink, user;
    std::unique_ptr<PacedSource> source;
};

}  // namespace

TEST_CASE("close timer: a hold longer than the source's gap keeps one circuit for all its frames", "[loop][hold][validation]")
{
    const double hold_long = 1.5 * kGapNs, hold_short = 0.5 * kGapNs;
    HeldLoop none("hold_none", 0), shorter("hold_short", hold_short), longer("hold_long", hold_long);
    sc_core::sc_start(1, sc_core::SC_MS);

    REQUIRE(std::abs(test::word_ns(*none.loop) - kWordNs) < 1e-9);
    for (auto* l : {&none, &shorter, &longer}) CHECK(l->sink->received.size() == kFrames);
    // Without a timer, or with one shorter than the gap, every frame finds the queue empty behind it
    // and the circuit closes: one circuit per frame.
    CHECK(none.loop->find(0x01)->stats().circuits_opened == kFrames);
    CHECK(shorter.loop->find(0x01)->stats().circuits_opened == kFrames);
    // A hold longer than the gap: the next frame always comes in time.
    CHECK(longer.loop->find(0x01)->stats().circuits_opened == 1);

    // The held circuit closes exactly `hold` after its last frame ended, and the short hold delays
    // each CLS by exactly its length after the frame.
    auto cls_after_frame = [](const std::string& trace) {
        std::vector<double> delays;
        double frame_end = -1;
        for (const auto& t : test::parse_trace(trace)) {
            if (t.to.rfind("SOF", 0) == 0) frame_end = t.t_ns + kFrameNs;
            if (t.to == "CLS") delays.push_back(t.t_ns - frame_end);
        }
        return delays;
    };
    const auto long_delays = cls_after_frame(longer.text.str());
    REQUIRE(long_delays.size() == 1);
    CHECK(long_delays[0] == Approx(hold_long).margin(0.01));
    const auto short_delays = cls_after_frame(shorter.text.str());
    REQUIRE(short_delays.size() == kFrames);
    for (double d : short_delays) CHECK(d == Approx(hold_short).margin(0.01));
    // With no timer the CLS follows after the two fill words a primitive needs.
    for (double d : cls_after_frame(none.text.str())) CHECK(d == Approx(2 * kWordNs).margin(0.01));
}
