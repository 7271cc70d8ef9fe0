// Validation of the loop model against round-trip analysis (first principles; docs/loop.md,
// "Timing and round trip").
// Every expected time below is computed here from the line rate, the per-port delay, the cable
// delay and the frame length; nothing is taken from the simulator's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr double kPropagationNsPerM = 5.0;
constexpr unsigned kPortDelayWords = 6;

double baud_of(phy::LineRate r)
{
    switch (r) {
    case phy::LineRate::G1: return 1.0625e9;
    case phy::LineRate::G2: return 2.125e9;
    case phy::LineRate::G4: return 4.25e9;
    case phy::LineRate::G8: return 8.5e9;
    }
    return 0;
}

// SOF + 24-byte header + payload (whole words) + CRC + EOF, in words.
double frame_words(unsigned payload) { return 1 + 24 / 4 + std::ceil(payload / 4.0) + 1 + 1; }

struct Scenario {
    phy::LineRate rate;
    unsigned nodes;
    bool all_active;
    unsigned frames;
    double hop_m;
    std::unique_ptr<loop::Loop> loop;
    std::unique_ptr<test::Endpoint> sender, receiver;
    std::vector<std::unique_ptr<test::Endpoint>> idle;

    double word_ns() const { return 40.0 / baud_of(rate) * 1e9; }
    double round_trip_ns() const { return nodes * (kPortDelayWords * word_ns() + hop_m * kPropagationNsPerM); }
};

std::unique_ptr<Scenario> build(phy::LineRate rate, unsigned nodes, bool all_active, unsigned frames, double hop_m,
                                unsigned receiver_buffers = 1, unsigned payload = 2048)
{
    auto s = std::make_unique<Scenario>();
    s->rate = rate;
    s->nodes = nodes;
    s->all_active = all_active;
    s->frames = frames;
    s->hop_m = hop_m;
    loop::LoopConfig cfg;
    cfg.rate = rate;
    cfg.port_delay_words = kPortDelayWords;
    cfg.propagation_ns_per_m = kPropagationNsPerM;
    cfg.hop_m = {hop_m};
    const unsigned receiver_at = nodes / 2;
    for (unsigned i = 0; i < nodes; ++i) {
        if (i == 0)
            cfg.nodes.push_back(test::active_node(0x01));
        else if (i == receiver_at)
            cfg.nodes.push_back(test::active_node(0xE8, receiver_buffers));
        else if (all_active)
            cfg.nodes.push_back(test::active_node(phy::al_pa_of_loop_id(i + 2)));  // clear of 0xE8 (loop_ID 1)
        else
            cfg.nodes.push_back(test::passive_node());
    }
    static int serial = 0;
    const std::string name = "loop" + std::to_string(serial++);
    s->loop = std::make_unique<loop::Loop>(name.c_str(), cfg);
    s->sender = std::make_unique<test::Endpoint>(*s->loop->find(0x01));
    s->receiver = std::make_unique<test::Endpoint>(*s->loop->find(0xE8));
    for (std::size_t i = 0; i < s->loop->port_count(); ++i) {
        auto& p = s->loop->port(i);
        if (p.al_pa() != 0x01 && p.al_pa() != 0xE8) s->idle.push_back(std::make_unique<test::Endpoint>(p));
    }
    s->sender->send(0xE8, frames, payload);
    return s;
}

}  // namespace

TEST_CASE("arbitrate then open then send k frames with one buffer then close takes round trips x RT plus frame times", "[validation][loop]")
{
    // With one incoming buffer and Login_BB_Credit 0 every frame waits for an R_RDY:
    //   1 round trip  ARB(own) travels around the loop and comes back (arbitration won),
    //   1 round trip  OPN reaches the receiver, its R_RDY for its one free buffer comes back,
    //   k-1 round trips, each after a frame: the receiver frees its buffer and returns an R_RDY,
    //   1 round trip  CLS goes to the receiver and its CLS comes back,
    // plus the k frames' word times, plus the spacing rules on the way: 2 fill words between the
    // last EOF and the sender's CLS, and 1 word the receiver waits so that its CLS is 2 fill words
    // after the R_RDY it returned for the last frame (that R_RDY left as the last EOF arrived;
    // the CLS arrives 2 words later).
    std::vector<std::unique_ptr<Scenario>> all;
    for (auto rate : {phy::LineRate::G1, phy::LineRate::G2, phy::LineRate::G4, phy::LineRate::G8})
        for (unsigned nodes : {2u, 3u, 17u, 64u, 126u})
            for (unsigned frames : {1u, 3u}) {
                all.push_back(build(rate, nodes, false, frames, 2.0));
                if (nodes <= 17) all.push_back(build(rate, nodes, true, frames, 2.0));
            }
    all.push_back(build(phy::LineRate::G2, 17, true, 4, 37.5));  // longer cables
    sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_MS));

    for (const auto& s : all) {
        const double wt = s->word_ns();
        const double rt = s->round_trip_ns();
        const double k = s->frames;
        const double expected = (k + 2) * rt + k * frame_words(2048) * wt + 3 * wt;
        const double measured = s->sender->entered(loop::LpsmState::Monitoring, 0);
        INFO("rate " << phy::to_string(s->rate) << ", " << s->nodes << " nodes"
                     << (s->all_active ? " (all active)" : " (2 active)") << ", " << s->frames << " frames");
        INFO("expected " << expected << " ns, measured " << measured << " ns");
        CHECK(std::abs(measured - expected) <= wt);
        CHECK(s->receiver->received.size() == s->frames);
        CHECK(s->sender->wins.size() == 1);
        CHECK(rt == Approx(s->loop->round_trip().to_seconds() * 1e9).margin(0.005));  // ps rounding
    }
}

TEST_CASE("with B buffers frames go back to back exactly when the round trip is short enough", "[validation][loop]")
{
    // A frame's buffer is freed as its EOF arrives, and the R_RDY for it reaches the sender
    // L + RT after the frame started (L = frame words). Back to back, frame i+B starts B x F later,
    // F = L + 6 words of minimum interframe gap. So frames go back to back exactly when
    // L + RT <= B x F, i.e. RT <= (B-1) F + 6 words. The test sets RT one word either side of that
    // boundary, and also well inside (RT < (B-1) F) and well outside (RT > (B-1) F + 6 words).
    struct Case {
        std::unique_ptr<Scenario> s;
        unsigned buffers;
        bool back_to_back;
    };
    std::vector<Case> cases;
    constexpr unsigned kPayload = 64;
    const double L = frame_words(kPayload);
    const double F = L + 6;
    for (auto rate : {phy::LineRate::G2, phy::LineRate::G8})
        for (unsigned b : {2u, 3u, 4u}) {
            const double wt = 40.0 / baud_of(rate) * 1e9;
            const double boundary_words = (b - 1) * F + 6;
            // Two nodes: RT = 2 x 6 words + 2 hops of cable.
            for (double offset : {-1.0, +1.0, -8.0, +8.0}) {
                const double rt_words = boundary_words + offset;
                const double hop_m = (rt_words - 2 * kPortDelayWords) * wt / 2 / kPropagationNsPerM;
                cases.push_back({build(rate, 2, false, 12, hop_m, b, kPayload), b, offset < 0});
            }
        }
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));

    for (const auto& c : cases) {
        const double wt = c.s->word_ns();
        const auto& sent = c.s->sender->sent;
        REQUIRE(sent.size() == 12);
        double widest = 0;
        for (std::size_t i = 1; i < sent.size(); ++i) widest = std::max(widest, sent[i].t_ns - sent[i - 1].t_ns);
        INFO(phy::to_string(c.s->rate) << " B=" << c.buffers << " RT=" << c.s->round_trip_ns() / wt << " words; widest frame spacing "
                                       << widest / wt << " words, back to back is " << F << " words");
        if (c.back_to_back)
            CHECK(std::abs(widest - F * wt) < 0.01 * wt);
        else
            CHECK(widest > (F + 0.5) * wt);
    }
}
