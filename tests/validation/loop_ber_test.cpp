// Bit errors on the loop against the formula (docs/faults.md, "Faults and recovery", "Bit errors on the loop"): a
// word of 40 bits is hit with p_w = 1 - (1 - ber)^40, and a frame of n words that crosses h links
// is discarded with probability 1 - (1 - p_w)^(n h). Many frames over a small loop, with a binomial
// tolerance.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include "loop_fixture.hpp"

using namespace fcal;

namespace {

constexpr phy::AlPa kA = 0x01, kB = 0xE8;
constexpr unsigned kPayload = 64;
constexpr double kFrameWords = 1 + 6 + kPayload / 4 + 1 + 1;  // SOF, header, payload, CRC, EOF
constexpr unsigned kLinksAToB = 4;                          // A, three repeaters, B

// A, three passive nodes, B; B has one buffer and no login credit, so every frame needs an R_RDY
// that crosses the link back to A (and may be lost too: AL_TIME recovers).
std::unique_ptr<loop::Loop> make(const char* name, double ber, std::uint64_t seed)
{
    loop::LoopConfig cfg;
    cfg.hop_m = {2.0};
    cfg.nodes = {test::active_node(kA), test::passive_node(), test::passive_node(), test::passive_node(),
                 test::active_node(kB)};
    cfg.ber = ber;
    cfg.error_seed = seed;
    cfg.al_time_s = 10e-6;
    return std::make_unique<loop::Loop>(name, cfg);
}

}  // namespace

TEST_CASE("the fraction of frames discarded is 1 - (1 - p_w)^(n h)", "[loop][faults]")
{
    constexpr double kBer = 9e-5;
    constexpr unsigned kFrames = 3000;
    auto l = make("loop", kBer, 7);
    REQUIRE(l->links(kA, kB) == kLinksAToB);
    test::Endpoint a(*l->find(kA)), b(*l->find(kB));
    a.send(kB, kFrames, kPayload);
    sc_core::sc_start(20, sc_core::SC_MS);

    // Every frame A sends reaches B, intact or not (login credit 0: none leaves before B's R_RDY
    // says B is open).
    REQUIRE(a.sent.size() == kFrames);
    const auto discarded = b.port_.stats().frames_discarded;
    REQUIRE(b.received.size() + discarded == kFrames);

    const double p_word = 1.0 - std::pow(1.0 - kBer, 40);
    const double p = 1.0 - std::pow(1.0 - p_word, kFrameWords * kLinksAToB);
    const double measured = static_cast<double>(discarded) / kFrames;
    const double sigma = std::sqrt(p * (1.0 - p) / kFrames);
    INFO("p_w " << p_word << ", expected " << p << ", measured " << measured << ", sigma " << sigma);
    CHECK(std::abs(measured - p) < 4 * sigma);
    // Every hit frame holds at least one code violation; on average n h p_w / (1 - (1 - p_w)^(n h))
    // each, far fewer than the frames' words.
    CHECK(b.port_.stats().code_violations >= discarded);
    // Lost R_RDYs (and OPNs) were recovered by AL_TIME; the loop ended idle.
    CHECK(a.port_.state() == loop::LpsmState::Monitoring);
    CHECK(b.port_.state() == loop::LpsmState::Monitoring);
}

TEST_CASE("bit errors: the same seed gives the same run, another seed another", "[loop][faults]")
{
    constexpr double kBer = 9e-5;
    constexpr unsigned kFrames = 300;
    auto l1 = make("loop1", kBer, 11), l2 = make("loop2", kBer, 11), l3 = make("loop3", kBer, 12);
    test::Endpoint a1(*l1->find(kA)), b1(*l1->find(kB)), a2(*l2->find(kA)), b2(*l2->find(kB)), a3(*l3->find(kA)),
        b3(*l3->find(kB));
    a1.send(kB, kFrames, kPayload);
    a2.send(kB, kFrames, kPayload);
    a3.send(kB, kFrames, kPayload);
    sc_core::sc_start(5, sc_core::SC_MS);

    CHECK(b1.received.size() == b2.received.size());
    CHECK(b1.port_.stats().code_violations == b2.port_.stats().code_violations);
    CHECK(a1.port_.stats().code_violations == a2.port_.stats().code_violations);
    CHECK(b1.received.back().t_ns == b2.received.back().t_ns);
    // Another stream: with about 30 % of 300 frames hit, the same count and the same times would be
    // a coincidence.
    const bool same = b3.received.size() == b1.received.size() && b3.received.back().t_ns == b1.received.back().t_ns;
    CHECK_FALSE(same);
}

TEST_CASE("code violations: every word a port sends may be hit on each link to the next port", "[loop][faults]")
{
    // B opens A and sends it frames; A sends only fill words and primitive signals (R_RDY, CLS),
    // all of which cross the 4 links to B and are counted there: B's code violations are
    // Binomial(4 T, p_w), T the words A sent, read from A's trace (fill words up to A's last change,
    // as the model counts them, and one word per primitive).
    constexpr double kBer = 1e-4;
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    auto l = make("loop", kBer, 3);
    test::Endpoint a(*l->find(kA)), b(*l->find(kB));
    a.port_.set_watcher(&watcher);
    b.send(kA, 300, kPayload);
    sc_core::sc_start(5, sc_core::SC_MS);
    REQUIRE(b.sent.size() == 300);

    std::uint64_t words = 0;
    for (const auto& t : test::parse_trace(text.str())) {
        const bool fill = t.from == "IDLE" || t.from.rfind("ARB", 0) == 0;
        if (fill) words += t.previous_words;
        if (t.to == "R_RDY" || t.to == "CLS") ++words;
    }
    const double p_word = 1.0 - std::pow(1.0 - kBer, 40);
    const double mean = p_word * 4.0 * static_cast<double>(words);
    const auto seen = static_cast<double>(b.port_.stats().code_violations);
    INFO("A sent " << words << " words; expected " << mean << " code violations at B, seen " << seen);
    REQUIRE(mean > 100);  // enough for the normal approximation
    CHECK(std::abs(seen - mean) < 4 * std::sqrt(mean));
}

TEST_CASE("under heavy bit errors a busy loop keeps to the protocol and accounts for every frame", "[loop][faults]")
{
    // Four ports, full duplex and login credit on some, every port sending to every other: any
    // protocol error (a frame without credit, an OPN in a live circuit) fails the test. Every frame
    // sent is received, discarded by its receiver, or discarded by its sender when it came back.
    loop::LoopConfig cfg;
    cfg.hop_m = {2.0};
    const phy::AlPa al_pas[] = {0x01, 0x72, 0xB3, 0xE8};
    cfg.nodes = {test::active_node(0x01, 3, 1), test::passive_node(), test::active_node(0x72, 2, 2),
                 test::active_node(0xB3, 1, 0, false), test::passive_node(), test::active_node(0xE8, 2, 0)};
    cfg.nodes[0].port.full_duplex = true;
    cfg.nodes[3].port.full_duplex = true;
    cfg.ber = 2e-4;
    cfg.error_seed = 5;
    cfg.al_time_s = 10e-6;
    auto l = std::make_unique<loop::Loop>("loop", cfg);
    std::vector<std::unique_ptr<test::Endpoint>> eps;
    for (phy::AlPa a : al_pas) eps.push_back(std::make_unique<test::Endpoint>(*l->find(a)));
    constexpr unsigned kEach = 60;
    for (auto& e : eps)
        for (phy::AlPa d : al_pas)
            if (d != e->port_.al_pa()) e->send(d, kEach, 512);
    sc_core::sc_start(20, sc_core::SC_MS);

    std::uint64_t sent = 0, accounted = 0, hits = 0;
    for (auto& e : eps) {
        sent += e->sent.size();
        accounted += e->received.size() + e->port_.stats().frames_discarded;
        hits += e->port_.stats().al_timeouts;
        CHECK(e->port_.state() == loop::LpsmState::Monitoring);
    }
    CHECK(sent == 4 * 3 * kEach);
    CHECK(accounted == sent);
    CHECK(hits > 0);  // recoveries did happen
}
