// The livelock guard (docs/loop.md, "The livelock guard"): a port that keeps being
// activated in one simulated instant ends the run with an internal error instead of hanging, and
// a port never hands on a change after changes that come later (the cause of the livelock seen at
// exactly 2.0 Gbaud, issue 11).
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <string>

#include "loop_fixture.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::sc_time;

TEST_CASE("a port re-armed without end in one instant stops the run with an internal error", "[loop][livelock]")
{
    // Test hook: a low limit, so that the guard trips fast. The port is handed changes out of order,
    // as a faulty upstream port would: a primitive it passes on at once (a quiet port repeats it)
    // arriving at 200 ns, then its own ARB, which it must process, arriving earlier, at 100 ns. At
    // 100 ns the change to process is stuck behind one that arrives later: the port re-arms its
    // receive event for the same instant again and again.
    auto l = test::make_loop("loop", {test::active_node(0x01, 1), test::active_node(0xE8, 1)});
    l->set_same_instant_limit(1000);
    loop::LPort& p = *l->find(0x01);
    // The other port is watched, so it takes the full path and the R_RDY stops there.
    std::ostringstream trace;
    loop::PortWatcher watcher(trace);
    l->find(0xE8)->set_watcher(&watcher);
    p.receive(sc_time(200, SC_NS), loop::Word::r_rdy());
    p.receive(sc_time(100, SC_NS), loop::Word::arb(0x01));
    std::string what;
    try {
        sc_core::sc_start(1, sc_core::SC_US);
    } catch (const sc_core::sc_report& e) {
        what = e.what();
    }
    CHECK(what.find("internal error: livelock") != std::string::npos);
    CHECK(what.find("at 100 ns") != std::string::npos);  // simulated time stopped there
    CHECK(sc_core::sc_time_stamp() == sc_time(100, SC_NS));
}

TEST_CASE("the livelock guard leaves a busy loop alone", "[loop][livelock]")
{
    // Contended traffic at an exact word time (2 Gbaud: 20 ns words, so many changes coincide) with
    // a limit far below the default: legitimate activity in one instant stays well under it.
    loop::LoopConfig cfg;
    cfg.rate = phy::LineRate::G2;
    cfg.baud = 2.0e9;
    cfg.hop_m = {2.0};
    cfg.nodes = {test::active_node(0x01, 2), test::active_node(0xE8, 1), test::active_node(0xE4, 1), test::active_node(0xE2, 1)};
    auto l = std::make_unique<loop::Loop>("loop", cfg);
    l->set_same_instant_limit(50);
    test::Endpoint c(*l->find(0x01)), d1(*l->find(0xE8)), d2(*l->find(0xE4)), d3(*l->find(0xE2));
    for (auto* d : {&d1, &d2, &d3}) d->request_circuits(0x01, 20);
    c.send(0xE8, 10, 2048);
    c.send(0xE4, 10, 2048);
    CHECK_NOTHROW(sc_core::sc_start(2, sc_core::SC_MS));
    CHECK(c.received.size() == 60);
    CHECK(d1.received.size() == 10);
    CHECK(d2.received.size() == 10);
}

TEST_CASE("a port that starts arbitrating in the instant it passes on a primitive sends its ARB ahead of it", "[loop][fast]")
{
    // The coincidence behind the livelock at 2.0 Gbaud. Quiet port 0x02 is given a frame to send and,
    // in the same instant (before its own process runs, one delta later), receives a primitive
    // (R_RDY) from upstream; being quiet it passes that on at once. Its process then starts
    // arbitrating and sends ARB(02) from this instant: that change must reach the next port (0xE8,
    // watched: it takes the full path and reports what it transmits) one hop from now, ahead of the
    // R_RDY, which arrives one hop later still, and not after it.
    auto l = test::make_loop("loop", {test::active_node(0x01, 1), test::active_node(0x02, 1), test::active_node(0xE8, 1)});
    std::ostringstream text;
    loop::PortWatcher watcher(text);
    l->find(0xE8)->set_watcher(&watcher);
    test::Endpoint e8(*l->find(0xE8));
    const sc_time hop = l->round_trip() / 3.0;  // three ports, equal hops
    sc_core::sc_start(10, sc_core::SC_US);       // an idle loop: nothing happens
    const double t0 = sc_core::sc_time_stamp().to_seconds() * 1e9;
    loop::LPort& p = *l->find(0x02);
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->source = 0x02;
    f->destination = 0xE8;
    f->payload_bytes = 64;
    p.queue_frame(f);
    p.receive(sc_core::sc_time_stamp() + hop, loop::Word::r_rdy());
    sc_core::sc_start(3 * hop);
    const double h = hop.to_seconds() * 1e9;
    const auto lines = test::parse_trace(text.str());
    REQUIRE(lines.size() >= 2);
    CHECK(lines[0].to == "ARB(02)");
    CHECK(lines[0].t_ns == Approx(t0 + h).margin(0.002));
    CHECK(lines[1].to == "R_RDY");
    CHECK(lines[1].t_ns == Approx(t0 + 2 * h).margin(0.002));
}
