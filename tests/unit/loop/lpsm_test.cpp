// Loop Port State Machine: transitions, arbitration, fairness, TRANSFER, duplex (docs/loop.md,
// "LPSM", "Fairness", "TRANSFER").
#include <catch2/catch.hpp>

#include <set>

#include "loop_fixture.hpp"

using namespace fcal;
using loop::LpsmState;
using S = LpsmState;

namespace {
std::vector<LpsmState> path(const test::Endpoint& e)
{
    std::vector<LpsmState> out{S::Monitoring};
    for (const auto& c : e.states) out.push_back(c.to);
    return out;
}
}  // namespace

TEST_CASE("opener and target walk through the LPSM states of one circuit", "[loop][lpsm]")
{
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0xE8)});
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8));
    a.send(0xE8, 2);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(path(a) == std::vector<LpsmState>{S::Monitoring, S::Arbitrating, S::ArbitrationWon, S::Open, S::XmittedClose, S::Monitoring});
    CHECK(path(b) == std::vector<LpsmState>{S::Monitoring, S::Opened, S::ReceivedClose, S::Monitoring});
    CHECK(b.received.size() == 2);
    CHECK(a.port_.stats().frames_sent == 2);
}

TEST_CASE("among simultaneous requesters the lowest AL_PA wins and the rest follow by priority", "[loop][arbitration]")
{
    const std::vector<phy::AlPa> requesters{0xE4, 0x02, 0x72, 0x1F, 0xB3};
    std::vector<loop::LoopNode> nodes{test::active_node(0xEF)};  // the sink
    for (auto a : requesters) nodes.push_back(test::active_node(a));
    auto l = test::make_loop("loop", nodes);
    test::Endpoint sink(*l->find(0xEF));
    std::vector<std::unique_ptr<test::Endpoint>> eps;
    std::vector<test::Endpoint*> raw;
    for (auto a : requesters) {
        eps.push_back(std::make_unique<test::Endpoint>(*l->find(a)));
        eps.back()->send(0xEF, 1);
        raw.push_back(eps.back().get());
    }
    sc_core::sc_start(1, sc_core::SC_MS);
    const auto order = test::win_order(raw);
    REQUIRE(order.size() == requesters.size());
    std::vector<phy::AlPa> won;
    for (const auto& w : order) won.push_back(w.second);
    CHECK(won == std::vector<phy::AlPa>{0x02, 0x1F, 0x72, 0xB3, 0xE4});
    CHECK(sink.received.size() == requesters.size());
}

TEST_CASE("fair ports each win exactly once per access window before any wins twice", "[loop][fairness]")
{
    const std::vector<phy::AlPa> fair{0x01, 0x02, 0x04, 0x08};
    std::vector<loop::LoopNode> nodes{test::active_node(0xEF)};
    for (auto a : fair) nodes.push_back(test::active_node(a));
    auto l = test::make_loop("loop", nodes);
    test::Endpoint sink(*l->find(0xEF));
    std::vector<std::unique_ptr<test::Endpoint>> eps;
    std::vector<test::Endpoint*> raw;
    for (auto a : fair) {
        eps.push_back(std::make_unique<test::Endpoint>(*l->find(a)));
        eps.back()->request_circuits(0xEF, 3);  // wants the loop again as soon as it gave it up
        raw.push_back(eps.back().get());
    }
    sc_core::sc_start(2, sc_core::SC_MS);
    const auto order = test::win_order(raw);
    REQUIRE(order.size() == 12);
    for (std::size_t window = 0; window < 3; ++window) {
        std::set<phy::AlPa> winners;
        for (std::size_t i = 0; i < 4; ++i) winners.insert(order[window * 4 + i].second);
        INFO("access window " << window);
        CHECK(winners == std::set<phy::AlPa>(fair.begin(), fair.end()));
    }
    // Within a window the waiting ports take their turns by priority: 0x01, which wants the loop
    // again at once, still waits for the other three.
    for (std::size_t i = 0; i < order.size(); ++i) CHECK(order[i].second == fair[i % 4]);
    CHECK(sink.received.size() == 12);
}

TEST_CASE("an unfair port can win repeatedly while fair ports wait", "[loop][fairness]")
{
    auto l = test::make_loop("loop", {test::active_node(0xEF), test::active_node(0x01, 1, 0, false), test::active_node(0x02),
                                      test::active_node(0x04)});
    test::Endpoint sink(*l->find(0xEF)), unfair(*l->find(0x01)), f2(*l->find(0x02)), f4(*l->find(0x04));
    unfair.request_circuits(0xEF, 5);
    f2.send(0xEF, 1);
    f4.send(0xEF, 1);
    sc_core::sc_start(2, sc_core::SC_MS);
    const auto order = test::win_order({&unfair, &f2, &f4});
    REQUIRE(order.size() == 7);
    for (std::size_t i = 0; i < 5; ++i) CHECK(order[i].second == 0x01);
    CHECK(unfair.port_.stats().arbitrations_without_access == 4);
    CHECK(f2.wins.size() == 1);
    CHECK(f4.wins.size() == 1);
}

TEST_CASE("the owner fills with ARB(F0) and ends the window with IDLE one round trip later", "[loop][fairness]")
{
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0x72), test::active_node(0xE8)});
    test::Endpoint a(*l->find(0x01)), mid(*l->find(0x72)), b(*l->find(0xE8));
    a.port_.set_watcher(&watcher);
    a.send(0xE8, 3);
    sc_core::sc_start(1, sc_core::SC_MS);
    const auto lines = test::parse_trace(text.str());
    double f0 = -1, idle = -1;
    for (const auto& t : lines) {
        if (t.to == "ARB(F0)" && f0 < 0) f0 = t.t_ns;
        if (t.to == "IDLE" && f0 >= 0 && idle < 0) idle = t.t_ns;
    }
    REQUIRE(f0 > 0);
    REQUIRE(idle > 0);
    // Nobody else arbitrates, so ARB(F0) comes back unreplaced after exactly one round trip; the
    // owner is sending a frame then, so IDLE follows when its transmitter is next free. The
    // owner's transmissions are all logged, so IDLE is the first fill change at or after f0 + RT.
    CHECK(idle >= f0 + test::rt_ns(*l) - 0.01);
    // ...and no later than the end of the frame it may be sending then (2 KiB frames, 521 words).
    CHECK(idle <= f0 + test::rt_ns(*l) + 521 * test::word_ns(*l) + 0.01);
    for (const auto& t : lines)
        if (t.t_ns == idle && t.to == "IDLE") CHECK((t.state == "OPEN" || t.state == "XMITTED_CLOSE"));  // still the owner
    for (const auto& t : lines)
        if (t.t_ns > f0 && t.t_ns < f0 + test::rt_ns(*l) - 0.01) CHECK(t.to != "IDLE");
    // The IDLEs reset ACCESS everywhere, the winner included once it is monitoring again.
    CHECK(a.port_.access());
    CHECK(mid.port_.access());
}

TEST_CASE("a fair owner uses TRANSFER only while nobody else is arbitrating", "[loop][transfer]")
{
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0x72), test::active_node(0xE8), test::active_node(0xE4),
                                      test::active_node(0x10, 1, 0, false), test::active_node(0xB3)});
    // 0x01 (fair) serves two disks; nobody else wants the loop: one win, one TRANSFER.
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8)), c(*l->find(0xE4)), mid(*l->find(0x72));
    test::Endpoint u(*l->find(0x10)), d(*l->find(0xB3));
    a.send(0xE8, 2);
    a.send(0xE4, 2);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(a.wins.size() == 1);
    CHECK(a.port_.stats().transfers == 1);
    CHECK(b.received.size() == 2);
    CHECK(c.received.size() == 2);

    // Now another port arbitrates while 0x01 holds the loop: no TRANSFER, 0x01 waits its turn.
    a.send(0xE8, 1);
    a.send(0xE4, 1);
    mid.send(0xE8, 1);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(a.wins.size() == 3);
    CHECK(a.port_.stats().transfers == 1);
    CHECK(mid.wins.size() == 1);
    CHECK(mid.wins[0] < a.wins[2]);

    // An unfair port transfers even with others arbitrating.
    u.send(0xE8, 1);
    u.send(0xE4, 1);
    d.send(0xE8, 1);
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(u.wins.size() == 1);
    CHECK(u.port_.stats().transfers == 1);
    CHECK(d.wins.size() == 1);
}

TEST_CASE("half duplex OPN(yy) lets only the opener send frames and full duplex OPN(yx) lets both", "[loop][duplex]")
{
    std::ostringstream half_text, full_text;
    loop::PortWatcher half_watch(half_text), full_watch(full_text);
    auto half = test::make_loop("half", {test::active_node(0x01, 3), test::active_node(0xE8, 3)});
    std::vector<loop::LoopNode> fd{test::active_node(0x01, 3), test::active_node(0xE8, 3)};
    fd[0].port.full_duplex = true;
    auto full = test::make_loop("full", fd);
    test::Endpoint ha(*half->find(0x01)), hb(*half->find(0xE8)), fa(*full->find(0x01)), fb(*full->find(0xE8));
    ha.port_.set_watcher(&half_watch);
    fa.port_.set_watcher(&full_watch);
    for (auto* e : {&ha, &fa}) e->send(0xE8, 4);
    // The target's frames are queued a little later, so that the opener surely wins first.
    sc_core::sc_start(10, sc_core::SC_NS);
    for (auto* e : {&hb, &fb}) e->send(0x01, 1);
    sc_core::sc_start(1, sc_core::SC_MS);

    CHECK(half_text.str().find("OPN(E8,E8)") != std::string::npos);
    CHECK(hb.wins.size() == 1);  // had to win the loop itself
    CHECK(ha.received.size() == 1);
    CHECK(full_text.str().find("OPN(E8,01)") != std::string::npos);
    CHECK(fb.wins.empty());  // sent inside the opener's circuit
    CHECK(fa.received.size() == 1);
    CHECK(fb.received.size() == 4);
}

TEST_CASE("a loop with nothing to do generates no events", "[loop][edges]")
{
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0x72), test::active_node(0xE8)});
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8));
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(l->activations() == 0);
    a.send(0xE8, 1);
    sc_core::sc_start(1, sc_core::SC_MS);
    const auto after_one = l->activations();
    CHECK(after_one > 0);
    // Repeated fill words are not events: a further idle millisecond costs nothing.
    sc_core::sc_start(1, sc_core::SC_MS);
    CHECK(l->activations() == after_one);
}

TEST_CASE("bad loop configurations name the offending node", "[loop][config]")
{
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(test::make_loop("dup", {test::active_node(0x01), test::active_node(0x02), test::active_node(0x01)}),
                      Contains("node 2") && Contains("0x01") && Contains("node 0"));
    CHECK_THROWS_WITH(test::make_loop("bad", {test::active_node(0x01), test::active_node(0xF0)}), Contains("node 1") && Contains("0xF0"));
    CHECK_THROWS_WITH(test::make_loop("bad2", {test::active_node(0x01), test::active_node(0x03)}), Contains("node 1"));
    CHECK_THROWS_WITH(test::make_loop("lc", {test::active_node(0x01), test::active_node(0x02, 1, 2)}), Contains("node 1") && Contains("Login_BB_Credit"));
    loop::LoopConfig cfg;
    cfg.nodes = {test::active_node(0x01), test::active_node(0x02)};
    cfg.nodes[1].loop_id = 200;
    CHECK_THROWS_WITH(loop::Loop("lid", cfg), Contains("node 1") && Contains("loop_ID"));
}

TEST_CASE("AL_PAs may come from loop_IDs in the standard order", "[loop][config]")
{
    loop::LoopConfig cfg;
    for (unsigned id : {0u, 1u, 125u}) {
        loop::LoopNode n;
        n.loop_id = id;
        cfg.nodes.push_back(n);
    }
    loop::Loop l("loop", cfg);
    CHECK(l.port(0).al_pa() == 0xEF);
    CHECK(l.port(1).al_pa() == 0xE8);
    CHECK(l.port(2).al_pa() == 0x01);
}

TEST_CASE("a frame for the port itself or for a port not on the loop is refused", "[loop][config]")
{
    auto l = test::make_loop("loop", {test::active_node(0x01), test::active_node(0xE8)});
    test::Endpoint a(*l->find(0x01));
    CHECK_THROWS_WITH(a.send(0x01, 1), Catch::Matchers::Contains("0x01"));
    CHECK_THROWS_WITH(a.send(0x72, 1), Catch::Matchers::Contains("0x72"));
}

TEST_CASE("a fair port that was busy in a circuit when the window ended can arbitrate again", "[loop][fairness]")
{
    // 0xE8 holds the loop first; 0x01 arbitrates meanwhile, then opens 0xE8. The IDLEs that end
    // the window reach 0xE8 while it is still closing its circuit with 0x01. Later 0xE8 and 0x01
    // each want the loop once more, with no other traffic: both must win again.
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 2)});
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8));
    b.send(0x01, 2);
    sc_core::sc_start(1, sc_core::SC_US);
    a.send(0xE8, 2);
    sc_core::sc_start(500, sc_core::SC_US);
    REQUIRE(b.wins.size() == 1);
    REQUIRE(a.wins.size() == 1);
    CHECK(b.port_.access());
    CHECK(a.port_.access());
    b.send(0x01, 1);
    sc_core::sc_start(500, sc_core::SC_US);
    a.send(0xE8, 1);
    sc_core::sc_start(500, sc_core::SC_US);
    CHECK(b.wins.size() == 2);
    CHECK(a.wins.size() == 2);
    CHECK(a.received.size() == 3);
    CHECK(b.received.size() == 3);
}
