// A port whose output is cut (LPort::cut_output: the slot downstream opens) under bit errors
// (docs/faults.md, "Bit errors on the loop"): on the fast path it takes note of the changes it passed
// on that have reached it by then before the cut, while it still transmits to the next port, as the
// full path did when it sent them. It took note of them after the cut, with nobody downstream, and the
// fill words they ended were never drawn for bit errors: every later draw of its stream came out
// differently, and the code violations counted downstream of it went apart from the full path's.
#include <catch2/catch.hpp>

#include <sstream>

#include "loop_init_ring.hpp"

using namespace fcal;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

// The loop initialization tests' ring (loop_init_ring.hpp) with bit errors at 1e-5 on every link.
loop::LoopConfig ring_with_bit_errors()
{
    loop::LoopConfig cfg = test::init_ring({0x01, 0xE8, 0xE4, 0xE2});
    cfg.bypass_detect_s = 50e-6;
    cfg.ber = 1e-5;
    cfg.error_seed = 3;
    return cfg;
}

// One loop, its ports on the fast path or all watched (the full path).
struct Ring {
    Ring(const char* name, bool watched) : l(name, ring_with_bit_errors()), sender(l.port(0)), receiver(l.port(3))
    {
        if (watched)
            for (std::size_t i = 0; i < l.port_count(); ++i) l.port(i).set_watcher(&watcher);
    }
    bool initialized(std::size_t inits) const { return l.initializations().size() == inits && !l.initializing(); }

    loop::Loop l;
    test::Endpoint sender, receiver;
    std::ostringstream trace;
    loop::PortWatcher watcher{trace};
};

void run_until_initialized(Ring& a, Ring& b, std::size_t inits)
{
    // (An initialization frame hit by an error costs E_D_TOV, 2 s.)
    for (int i = 0; i < 10000 && !(a.initialized(inits) && b.initialized(inits)); ++i) sc_core::sc_start(sc_time(1000, SC_US));
    INFO("inits " << a.l.initializations().size() << " " << a.l.initializing() << " / " << b.l.initializations().size() << " " << b.l.initializing() << " at " << sc_core::sc_time_stamp());
    REQUIRE(a.initialized(inits));
    REQUIRE(b.initialized(inits));
}

}  // namespace

TEST_CASE("A port whose output is cut under bit errors counts the fill words it passed on as the full path does", "[loop][bypass][faults]")
{
    Ring fast("fast", false), full("full", true);
    for (Ring* r : {&fast, &full}) r->l.start_lip(0, "power on");
    run_until_initialized(fast, full, 1);
    // Port 0 streams 2 KiB frames to port 3 through ports 1 and 2; port 2 is pulled out while port 1
    // repeats one of them (on the fast path it passed its start on at once).
    for (Ring* r : {&fast, &full}) r->sender.send(0xE2, 20);
    sc_core::sc_start(sc_time(30, SC_US));
    REQUIRE(fast.l.port(1).transmitting().kind == loop::WordKind::Frame);
    REQUIRE_FALSE(fast.l.port(1).folded());  // (bit errors keep every port in the chain)
    for (Ring* r : {&fast, &full}) r->l.remove_port(2, "pull port 2");
    run_until_initialized(fast, full, 2);
    // Then short circuits 100 us apart: port 1, upstream of the open slot until then, sends IDLEs to
    // port 3 for long stretches, each drawn for bit errors when the next change ends it.
    for (int i = 0; i < 30; ++i) {
        for (Ring* r : {&fast, &full}) r->sender.send(0xE2, 1, 64);
        sc_core::sc_start(sc_time(100, SC_US));
    }
    std::uint64_t violations = 0;
    for (Ring* r : {&fast, &full}) r->l.settle_ports();
    for (std::size_t i = 0; i < fast.l.port_count(); ++i) {
        INFO("port " << i);
        CHECK(fast.l.port(i).stats().code_violations == full.l.port(i).stats().code_violations);
        violations += fast.l.port(i).stats().code_violations;
    }
    CHECK(violations > 0);
    CHECK(fast.receiver.received.size() == full.receiver.received.size());
    CHECK_FALSE(full.trace.str().empty());
}
