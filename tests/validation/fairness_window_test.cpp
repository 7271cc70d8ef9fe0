// Quantitative fairness (docs/loop.md, "Fairness", "Fairness under contention: the access window"):
// k fair ports that all want the loop at once each win exactly once per access window, in
// AL_PA order, and the window lasts exactly what its circuits, hand-overs and the IDLEs that end it
// add up to. Every expected time is computed here from the word time, the port delay, the cable
// delay, the ring positions and the frame length; nothing is taken from the simulator's output.
//
// The loop: a sink (never arbitrates, one incoming buffer, Login_BB_Credit 0) at ring position 0 and
// k requesters at other positions, passive repeaters elsewhere. Every requester wants `windows`
// circuits to the sink, one 64-byte frame each, and asks again as soon as its circuit ends.
//
// With h = port delay + one cable (all hops equal), RT = n h, tau(i -> j) = ((p_j - p_i) mod n) h
// (a change sent at i's output stage reaches j's output stage, where j acts on it), L the frame's words
// and w one word:
//   - first win: RT after the requests (ARB(own) goes round an idle loop);
//   - a circuit, from the win to the owner's return to MONITORING (one buffer, no login credit):
//       C = RT (OPN out, R_RDY back) + L w (the frame) + 2 w (fill before CLS) + RT (CLS out and back)
//           + 1 w (the sink's CLS waits 2 words after the R_RDY it returned for the frame);
//   - hand-over: the next port by priority has been replacing the owner's ARB(F0) with its ARB; the
//     owner, repeating again, forwards that ARB, which reaches the next port after tau(owner -> next):
//       W(next) = W(owner) + C + tau(owner -> next);
//   - end of the window: the last winner's ARB(F0) comes back unreplaced (nobody may arbitrate), it
//     fills with IDLE while its circuit goes on, the IDLEs give every port ACCESS again, and the first
//     port by priority takes over as if handed over: W(a_1, next window) = W(a_k) + C + tau(a_k -> a_1).
// So one window lasts k C + m RT, where m = sum of the cyclic distances between consecutive winners / n
// (1 when the AL_PAs increase along the ring, k - 1 when they decrease).
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr double kPropagationNsPerM = 5.0;
constexpr unsigned kPortDelayWords = 6;
constexpr double kHopM = 2.0;
constexpr unsigned kPayload = 64;  // Endpoint::request_circuits sends one 64-byte frame per circuit
constexpr unsigned kWindows = 3;
constexpr phy::AlPa kSink = 0xEF;

double frame_words(unsigned payload) { return 1 + 24 / 4 + std::ceil(payload / 4.0) + 1 + 1; }

struct Scenario {
    std::string label;
    unsigned nodes;
    std::vector<unsigned> positions;  // ring position of each requester, listed by AL_PA, highest priority first
    std::vector<phy::AlPa> al_pas;    // ascending: the order they must win in
    std::unique_ptr<loop::Loop> loop;
    std::unique_ptr<test::Endpoint> sink;
    std::vector<std::unique_ptr<test::Endpoint>> requesters;
};

std::unique_ptr<Scenario> build(const std::string& label, unsigned nodes, std::vector<unsigned> positions)
{
    auto s = std::make_unique<Scenario>();
    s->label = label;
    s->nodes = nodes;
    s->positions = positions;
    std::vector<loop::LoopNode> ring(nodes, test::passive_node());
    ring[0] = test::active_node(kSink);
    // Valid AL_PAs in ascending order, so in falling priority (a lower AL_PA wins).
    static const std::vector<phy::AlPa> kAlPas{0x01, 0x02, 0x04, 0x08, 0x0F, 0x10};
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const phy::AlPa a = kAlPas.at(i);
        s->al_pas.push_back(a);
        ring.at(positions[i]) = test::active_node(a);
    }
    loop::LoopConfig cfg;
    cfg.rate = phy::LineRate::G2;
    cfg.port_delay_words = kPortDelayWords;
    cfg.propagation_ns_per_m = kPropagationNsPerM;
    cfg.hop_m = {kHopM};
    cfg.nodes = ring;
    static int serial = 0;
    const std::string name = "fairness" + std::to_string(serial++);
    s->loop = std::make_unique<loop::Loop>(name.c_str(), cfg);
    s->sink = std::make_unique<test::Endpoint>(*s->loop->find(kSink));
    for (phy::AlPa a : s->al_pas) s->requesters.push_back(std::make_unique<test::Endpoint>(*s->loop->find(a)));
    for (auto& r : s->requesters) r->request_circuits(kSink, kWindows);
    return s;
}

// Checks the first `windows` access windows of a scenario against the expectation derived above.
void check_windows(const Scenario& s, unsigned windows)
{
    const unsigned k = static_cast<unsigned>(s.al_pas.size());
    // Durations are SystemC times at 1 ps resolution: a port delay of n words and a cable are each
    // rounded once to the picosecond (docs/phy.md, "Line rates and word time"),
    // and a hop adds the two, so the hop is computed the same way; what is left of the rounding is
    // below a picosecond per duration, which the tolerance below allows for.
    const double w = 40.0 / 2.125e9 * 1e9;
    auto ps = [](double ns) { return std::round(ns * 1000.0) / 1000.0; };
    const double h = ps(kPortDelayWords * w) + ps(kHopM * kPropagationNsPerM);
    const double rt = s.nodes * h;
    const double circuit = 2 * rt + frame_words(kPayload) * w + 3 * w;
    auto tau = [&](unsigned from, unsigned to) { return ((to + s.nodes - from) % s.nodes) * h; };
    INFO(s.label);
    REQUIRE(test::rt_ns(*s.loop) == Approx(rt).margin(0.01));

    std::vector<test::Endpoint*> raw;
    for (auto& r : s.requesters) raw.push_back(r.get());
    const auto order = test::win_order(raw);
    REQUIRE(order.size() == k * kWindows);  // every circuit was served

    // The expected wins, one after the other.
    std::vector<double> expected;
    double t = rt;
    for (unsigned n = 0; n < k * windows; ++n) {
        expected.push_back(t);
        const unsigned i = n % k;
        t += circuit + tau(s.positions[i], s.positions[(i + 1) % k]);
    }
    double cyclic = 0;
    for (unsigned i = 0; i < k; ++i) cyclic += tau(s.positions[i], s.positions[(i + 1) % k]);
    const double window = k * circuit + cyclic;
    INFO("RT " << rt << " ns, circuit " << circuit << " ns, window " << window << " ns (" << cyclic / rt << " RT of hand-overs)");

    for (unsigned n = 0; n < k * windows; ++n) {
        INFO("win " << n << " (window " << n / k << "): port 0x" << std::hex << unsigned(order[n].second) << std::dec
                    << " at " << order[n].first << " ns, expected 0x" << std::hex << unsigned(s.al_pas[n % k]) << std::dec
                    << " at " << expected[n] << " ns");
        CHECK(order[n].second == s.al_pas[n % k]);
        // Each win adds a circuit and a hand-over, about five separately rounded durations.
        CHECK(std::abs(order[n].first - expected[n]) < 0.005 * (n + 1));
    }
    for (unsigned n = k; n < k * windows; ++n) CHECK(order[n].first - order[n - k].first == Approx(window).margin(0.005 * k));
    CHECK(s.sink->received.size() == k * kWindows);
}

std::vector<std::unique_ptr<Scenario>> increasing_rings()
{
    std::vector<std::unique_ptr<Scenario>> all;
    all.push_back(build("k=2, 3 nodes, increasing", 3, {1, 2}));
    all.push_back(build("k=2, 3 nodes, decreasing (for k=2 the same cycle)", 3, {2, 1}));
    all.push_back(build("k=3, 4 nodes, increasing", 4, {1, 2, 3}));
    all.push_back(build("k=4, 30 nodes, increasing, spread", 30, {2, 9, 17, 28}));
    all.push_back(build("k=6, 126 nodes, increasing, spread", 126, {1, 20, 41, 62, 83, 125}));
    return all;
}

std::vector<std::unique_ptr<Scenario>> other_rings()
{
    std::vector<std::unique_ptr<Scenario>> all;
    all.push_back(build("k=3, 20 nodes, decreasing, spread", 20, {17, 9, 3}));
    all.push_back(build("k=5, 40 nodes, mixed", 40, {10, 30, 2, 21, 39}));
    return all;
}

// A waiting port right after the sink, which is not the first waiting port after the last winner.
std::vector<std::unique_ptr<Scenario>> port_behind_the_sink()
{
    std::vector<std::unique_ptr<Scenario>> all;
    all.push_back(build("k=4, 9 nodes, mixed", 9, {5, 1, 8, 3}));
    return all;
}

}  // namespace

TEST_CASE("k ports ready at once each win once in AL_PA order in the first access window, at the times circuits and hand-overs add up to", "[validation][loop][fairness]")
{
    auto all = increasing_rings();
    for (auto& s : other_rings()) all.push_back(std::move(s));
    for (auto& s : port_behind_the_sink()) all.push_back(std::move(s));
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
    for (const auto& s : all) check_windows(*s, 1);
}

TEST_CASE("every access window repeats the AL_PA order and lasts k circuits plus its hand-overs, whatever the ring order", "[validation][loop][fairness]")
{
    // From the second window on this needs the IDLEs that end a window to reach every waiting port:
    // the IDLE that sets a port's ACCESS is repeated unchanged, and its arbitration replaces only
    // the words after it (docs/loop.md, "Fairness").
    auto all = increasing_rings();
    for (auto& s : other_rings()) all.push_back(std::move(s));
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
    for (const auto& s : all) check_windows(*s, kWindows);
}

// KNOWN MODEL DEVIATION (expected to fail; docs/loop.md, "Fairness under contention: the access
// window"). The IDLEs that end a window reach the waiting ports as a single IDLE word: the first
// waiting port downstream of the last winner repeats the IDLE that sets its ACCESS and replaces the
// ones after it with its ARB. The sink returns its R_RDY for the last winner's frame in the word
// right after that frame, which is exactly where that single IDLE travels, so a waiting port behind
// the sink (here 0x02, right after it) sees no IDLE, misses the new window and wins only in the next
// one. This test passes once the reset survives a port in a circuit that sends a primitive over it.
TEST_CASE("later access windows keep the AL_PA order with a waiting port behind the sink", "[validation][loop][fairness][!shouldfail]")
{
    auto all = port_behind_the_sink();
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_MS));
    for (const auto& s : all) check_windows(*s, kWindows);
}
