// The owner's ARB(F0) fairness fill must not outlive its tenancy (issue 11). An owner that gives up
// the loop less than a round trip after its ARB(F0) came back (and it switched to IDLE) still has
// the tail of that ARB(F0) stream on the wire; it must take it off when it comes round, or the tail
// circulates forever on an idle loop (and a new owner could take it for its own ARB(F0) coming back).
#include <catch2/catch.hpp>

#include <sstream>

#include "loop_fixture.hpp"

using namespace fcal;

TEST_CASE("an idle loop after a login-credit circuit goes quiet: no ARB(F0) left circulating", "[loop][fairness]")
{
    // 0xE8 grants 4 frames of login credit: the controller sends its frame and closes at once, so it
    // leaves the loop less than a round trip after its ARB(F0) came back.
    // 50 m hops make the round trip (about 1.1 us) longer than the circuit.
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 4, 4), test::active_node(0xE4, 2)}, 50.0);
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8)), c(*l->find(0xE4));
    a.send(0xE8, 1, 64);
    sc_core::sc_start(20, sc_core::SC_US);  // about 40 round trips: the circuit is long over
    REQUIRE(b.received.size() == 1);
    REQUIRE(l->find(0x01)->state() == loop::LpsmState::Monitoring);
    const std::uint64_t before = l->activations();
    sc_core::sc_start(200, sc_core::SC_US);
    // Nothing is left to happen on an idle loop. (What each port transmits is checked in the next
    // test, with every port watched: an unwatched quiet port updates it only when it next runs.)
    CHECK(l->activations() == before);
}

TEST_CASE("a new owner's access window is not ended by an old owner's ARB(F0)", "[loop][fairness]")
{
    // The controller opens 0xE8 with login credit and leaves early; then 0xE4 arbitrates and wins
    // while 0xE2 arbitrates too. 0xE4 must see 0xE2's ARB (not a stray ARB(F0)) and 0xE2 must win in
    // the same access window, before 0xE4 may win again.
    auto l = test::make_loop("loop", {test::active_node(0x01, 3), test::active_node(0xE8, 4, 4), test::active_node(0xE4, 2),
                                      test::active_node(0xE2, 2)},
                             50.0);
    test::Endpoint a(*l->find(0x01)), b(*l->find(0xE8)), d(*l->find(0xE4)), e(*l->find(0xE2));
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    for (std::size_t i = 0; i < l->port_count(); ++i) l->port(i).set_watcher(&watcher);
    a.send(0xE8, 1, 64);
    sc_core::sc_start(3, sc_core::SC_US);
    d.request_circuits(0xE8, 3);
    e.request_circuits(0xE8, 3);
    sc_core::sc_start(200, sc_core::SC_US);
    const auto order = test::win_order({&d, &e});
    REQUIRE(order.size() == 6);
    // Fair ports alternate: each wins once per access window.
    for (std::size_t i = 1; i < order.size(); ++i) {
        INFO("win " << i << " at " << order[i].first << " ns");
        CHECK(order[i].second != order[i - 1].second);
    }
    // And once everything is done, no ARB(F0) is on the wire.
    for (std::size_t i = 0; i < l->port_count(); ++i) {
        INFO("port " << l->port(i).name());
        CHECK(l->port(i).transmitting().kind == loop::WordKind::Idle);
    }
}
