// A frame whose layer above has slack (PortUser::frame_slack) is handed over at the end of that slack,
// with its EOF time (LPort::frame_end), and the buffer its processing frees goes back as an R_RDY in
// the same run (docs/loop.md, "Fast path": taking a frame at the end of its processing): the sender
// sees exactly what it sees when the receiver takes each frame at its EOF and frees it `hold` later.
#include <catch2/catch.hpp>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr unsigned kFrames = 6;
constexpr std::uint32_t kPayload = 2048;
constexpr double kFrameWords = 1 + 6 + kPayload / 4 + 1 + 1;  // SOF, header, payload, CRC, EOF
constexpr double kHoldNs = 400;                                // the processing of each frame

// Processes each frame for `hold` after its EOF, and says so: the port hands it over then.
class SlackSink : public sc_core::sc_module, public test::Endpoint {
public:
    SC_HAS_PROCESS(SlackSink);
    SlackSink(sc_core::sc_module_name name, loop::LPort& port, const sc_core::sc_time& hold)
        : sc_module(name), Endpoint(port, false), hold_(hold)
    {
        SC_METHOD(release);
        sensitive << later_;
        dont_initialize();
    }
    sc_core::sc_time frame_slack(const loop::LoopFrame&) const override { return hold_; }
    void frame_received(loop::FrameRef f) override
    {
        Endpoint::frame_received(f);
        eof_ns.push_back(port_.frame_end().to_seconds() * 1e9);
        const sc_core::sc_time done = port_.frame_end() + hold_;
        if (done == sc_core::sc_time_stamp()) {
            free_now();  // taken at the end of its processing
            return;
        }
        ++pending_;
        later_.notify(done - sc_core::sc_time_stamp());
    }
    std::vector<double> eof_ns, freed_ns;

private:
    void free_now()
    {
        freed_ns.push_back(now_ns());
        port_.release_buffer();
    }
    void release()
    {
        for (; pending_ > 0; --pending_) free_now();
    }
    sc_core::sc_time hold_;
    sc_core::sc_event later_;
    unsigned pending_ = 0;
};

// The sender sends word by word (it is watched), the receiver has `buffers` buffers. With one, each
// frame waits for the R_RDY of the one before; with more, the next frame's SOF arrives before the
// processing of the one before ends, and the port's run that hands that one over takes it: the word
// that completes the frame then finds it in the LPSM rather than waiting in the port's input.
void check_taken_at_end_of_slack(unsigned buffers)
{
    const sc_core::sc_time hold(kHoldNs, sc_core::SC_NS);
    auto plain = test::make_loop("plain", {test::active_node(0x01), test::active_node(0xE8, buffers)});
    auto slack = test::make_loop("slack", {test::active_node(0x01), test::active_node(0xE8, buffers)});
    test::Endpoint plain_sender(*plain->find(0x01)), slack_sender(*slack->find(0x01));
    test::SlowSink plain_sink("plain_sink", *plain->find(0xE8), hold);
    SlackSink slack_sink("slack_sink", *slack->find(0xE8), hold);
    std::ostringstream text[2];
    loop::PortWatcher watch[2] = {loop::PortWatcher(text[0]), loop::PortWatcher(text[1])};
    plain_sender.port_.set_watcher(&watch[0]);
    slack_sender.port_.set_watcher(&watch[1]);
    plain_sender.send(0xE8, kFrames, kPayload);
    slack_sender.send(0xE8, kFrames, kPayload);
    sc_core::sc_start(5, sc_core::SC_MS);

    const double wt = test::word_ns(*slack), rt = test::rt_ns(*slack);
    std::vector<double> sof[2];
    for (int k = 0; k < 2; ++k)
        for (const auto& t : test::parse_trace(text[k].str()))
            if (t.to.rfind("SOF", 0) == 0) sof[k].push_back(t.t_ns);
    REQUIRE(sof[1].size() == kFrames);
    REQUIRE(slack_sink.eof_ns.size() == kFrames);
    REQUIRE(slack_sink.freed_ns.size() == kFrames);
    for (unsigned i = 0; i < kFrames; ++i) {
        // Its EOF: a frame time and a hop after its SOF; freed `hold` later. It is handed over then,
        // or earlier when a word that cannot wait makes the port run: the first frame's (the fill
        // word after it differs from the one before the circuit) and the last one's (the CLS after it).
        CHECK(slack_sink.eof_ns[i] == Approx(sof[1][i] + kFrameWords * wt + rt / 2).margin(0.01));
        CHECK(slack_sink.freed_ns[i] == Approx(slack_sink.eof_ns[i] + kHoldNs).margin(0.01));
        CHECK(slack_sink.received[i].t_ns >= slack_sink.eof_ns[i] - 0.01);
        if (i > 0 && i + 1 < kFrames)
            CHECK(slack_sink.received[i].t_ns == Approx(slack_sink.eof_ns[i] + kHoldNs).margin(0.01));
        else
            CHECK(slack_sink.received[i].t_ns <= slack_sink.eof_ns[i] + kHoldNs + 0.01);
    }
    // With more than one buffer, the frames follow one another with only the spacing between them:
    // the next SOF arrives within the processing of the frame before.
    if (buffers > 1)
        for (unsigned i = 1; i < kFrames; ++i) CHECK(sof[1][i] - sof[1][i - 1] - kFrameWords * wt < kHoldNs);
    // The sender's frames and the buffers' release as with a receiver that takes each frame at its EOF.
    CHECK(sof[0] == sof[1]);
    CHECK(plain_sink.freed_ns == slack_sink.freed_ns);
    CHECK(plain_sink.port_.stats().r_rdys_sent == slack_sink.port_.stats().r_rdys_sent);
    CHECK(slack_sink.port_.stats().frames_received == kFrames);
    // Taken late, the frames cost the receiver no run at their EOFs.
    CHECK(slack->activations() < plain->activations());
}

}  // namespace

TEST_CASE("a frame with slack is taken at the end of its processing, with the sender's timing unchanged", "[loop][credit][fastpath]")
{
    check_taken_at_end_of_slack(1);
}

TEST_CASE("a frame with slack whose SOF the port took before its EOF arrived is taken at the end of its processing too", "[loop][credit][fastpath]")
{
    check_taken_at_end_of_slack(3);
}

namespace {

// The receiver has taken the third frame's SOF (its run for the frame before, at the end of that
// one's processing) when it starts a LIP `words` word times plus `hops` hops (sender to receiver)
// before the frame's EOF reaches it. The
// word that completes the frame reaches it in initialization, which takes every word as it comes:
// the frame is handed over at its EOF, with that word's arrival as its EOF, not left to wait for
// its slack — whether that word was handed to the port before the LIP (it then waited already) or
// after.
void check_lip_before_eof(const char* name, double words, double hops)
{
    const sc_core::sc_time hold(kHoldNs, sc_core::SC_NS);
    auto slack = test::make_loop(name, {test::active_node(0x01), test::active_node(0xE8, 3)});
    test::Endpoint sender(*slack->find(0x01));
    SlackSink sink("slack_sink", *slack->find(0xE8), hold);
    std::ostringstream text;
    loop::PortWatcher watch(text);
    sender.port_.set_watcher(&watch);  // word by word: a frame's SOF and EOF reach the sink apart
    sender.send(0xE8, kFrames, kPayload);
    while (sink.eof_ns.size() < 2) sc_core::sc_start(1, sc_core::SC_US);
    const double wt = test::word_ns(*slack), hop = test::rt_ns(*slack) / 2;
    // The third frame follows the second six words after its EOF.
    const double third_eof = sink.eof_ns[1] + (6 + kFrameWords) * wt;
    const double lip_at = third_eof - words * wt - hops * hop;
    REQUIRE(test::Endpoint::now_ns() < lip_at);
    REQUIRE(lip_at > third_eof - kFrameWords * wt);  // after the frame's SOF reached the sink
    sc_core::sc_start(lip_at - test::Endpoint::now_ns(), sc_core::SC_NS);
    slack->start_lip(1, "test");
    sc_core::sc_start(5, sc_core::SC_MS);

    REQUIRE(sink.eof_ns.size() >= 3);
    CHECK(sink.eof_ns[2] == Approx(third_eof).margin(0.01));
    CHECK(sink.received[2].t_ns == Approx(third_eof).margin(0.01));
}

}  // namespace

TEST_CASE("a frame a LIP finds half received is handed over at its EOF, with its EOF time", "[loop][credit][fastpath][init]")
{
    check_lip_before_eof("mid_frame", kFrameWords / 2, 0);
}

TEST_CASE("a frame whose EOF reaches the port in initialization does not wait for its slack", "[loop][credit][fastpath][init]")
{
    // The sender's fill word after the frame leaves it at the frame's end there, a hop before it
    // reaches the sink: here the sink's LIP has started by then (and has not yet reached the sender)...
    check_lip_before_eof("handed_after", 0, 1.5);
}

TEST_CASE("a frame whose completing word waited already when a LIP starts is handed over at its EOF", "[loop][credit][fastpath][init]")
{
    // ...here the fill word was handed to the sink before, and waited for the frame's slack.
    check_lip_before_eof("handed_before", 0, 0.5);
}
