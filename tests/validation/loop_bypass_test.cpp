// Port bypass circuits and hot plug in the running (SystemC) loop against first principles
// (docs/loop_init.md, "Port bypass circuits", "Initialization time").
//
// Expected times come from the line rate, the port delay, the cable and the processing time through
// the phases of the documented formula, computed here by hand: with the originator as master, W = 0
// and position maps, an initialization of N ports on a ring of round trip R takes
//   T = (R + 4 w) + N (12 w + p) + R + R + 4 (N (14 w + p) + R) + 2 (N (42 w + p) + R) + R
//     = 4 w + 10 R + N (152 w + 7 p),
// the LIP phase being R + 4 w (the LIPs back after R, recognised 2 w later, the LISM 2 fill words
// after that). After a break the LIP(F8) stream already fills the loop when the bypass closes: the
// originator has its LIPs back one spliced hop h' after the closure, not R after it, so the loop is
// down for  bypass_detect + h' + 4 w + 9 R' + N (152 w + 7 p)  with R' the round trip of the spliced
// ring. Nothing is taken from the simulator's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "loop_init_ring.hpp"

using namespace fcal;
using loop::AddressSource;
using State = loop::PortBypassCircuits::State;
using sc_core::SC_MS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

constexpr double kWordS = test::kInitWordS;
constexpr double kCableS = test::kInitCableS;
constexpr double kRepeatS = test::kInitPortDelayWords * kWordS;
constexpr double kHopS = kRepeatS + kCableS;  // one hop: the cable and the receiver's repeat delay
constexpr double kProcS = test::kInitProcS;   // p
constexpr double kDetectS = 50e-6;            // loop.bypass_detect_us, shortened

// The ports' AL_PAs: loop_IDs 0..3, EF E8 E4 E2; node 0 (the controller) is the master.
const std::vector<phy::AlPa> kAlPas{0xEF, 0xE8, 0xE4, 0xE2};

loop::LoopConfig ring(bool auto_bypass = true)
{
    loop::LoopConfig cfg = test::init_ring(kAlPas);
    cfg.bypass_detect_s = kDetectS;
    cfg.auto_bypass = auto_bypass;
    return cfg;
}

// The initialization of `n` ports on a ring of round trip `r`, the originator the master, its LIPs
// back `lips_back` after the first one.
double init_s(unsigned n, double r, double lips_back) { return lips_back + 4 * kWordS + 9 * r + n * (152 * kWordS + 7 * kProcS); }

void run_until_initialized(loop::Loop& l, std::size_t inits)
{
    for (int i = 0; i < 1000 && !(l.initializations().size() == inits && !l.initializing()); ++i) sc_core::sc_start(sc_time(20, SC_US));
    REQUIRE(l.initializations().size() == inits);
    REQUIRE_FALSE(l.initializing());
}

// Every port of the first initialization (at t=0) has its hard AL_PA.
void initialize_at_start(loop::Loop& l)
{
    l.start_lip(0, "power on");
    run_until_initialized(l, 1);
    for (unsigned i = 0; i < kAlPas.size(); ++i) CHECK(l.initializations()[0].al_pas[i].al_pa == kAlPas[i]);
}

std::vector<phy::AlPa> al_pas_of(const loop::LoopInitRecord& r)
{
    std::vector<phy::AlPa> v;
    for (const auto& a : r.al_pas) v.push_back(a.al_pa.value_or(0xFF));
    return v;
}

}  // namespace

TEST_CASE("A pulled port breaks the loop until its bypass closes, then the loop initializes without it and again with it when it is back",
          "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    initialize_at_start(l);
    sc_core::sc_start(sc_time(10, SC_US));

    // Pull port 3 (E2): port 0, downstream of the open slot, sends LIP(F8,EF); ports 1 and 2 repeat it,
    // port 2 into the open slot. Port 0 is originator and master.
    const double t0 = sc_core::sc_time_stamp().to_seconds();
    l.remove_port(3, "remove disk 3");
    CHECK(l.slot_state(3) == State::Broken);
    sc_core::sc_start(sc_time(5, SC_US));
    CHECK(l.port(0).state() == loop::LpsmState::Initializing);
    CHECK(l.port(1).state() == loop::LpsmState::OpenInit);
    CHECK(l.port(2).state() == loop::LpsmState::OpenInit);
    // Broken, the loop is a state: no port runs until the bypass closes (the LIP(F8) wave is over).
    const std::uint64_t before = l.activations();
    sc_core::sc_start(sc_time(40, SC_US));
    CHECK(l.activations() == before);
    CHECK(l.initializing());

    run_until_initialized(l, 2);
    CHECK(l.slot_state(3) == State::Empty);
    const loop::LoopInitRecord r = l.initializations().back();
    CHECK(r.cause == "remove disk 3");
    CHECK(r.start_s == t0);
    // Spliced hop from port 2 to port 0: both cables, port 0's repeat delay. Three ports remain.
    const double spliced_hop = 2 * kCableS + kRepeatS;
    const double r3 = 2 * kHopS + spliced_hop;
    const double expected = kDetectS + init_s(3, r3, spliced_hop);
    INFO("simulated " << std::setprecision(10) << r.duration_s * 1e6 << " us, expected " << expected * 1e6 << " us, difference "
                      << (r.duration_s - expected) / kWordS << " words");
    CHECK(std::abs(r.duration_s - expected) <= kWordS);
    CHECK(al_pas_of(r) == std::vector<phy::AlPa>{0xEF, 0xE8, 0xE4});
    REQUIRE(r.master_al_pa);
    CHECK(*r.master_al_pa == 0xEF);
    CHECK(r.lip_count == 1);

    // Put it back: it sends LIP(F7,F7) and originates, the master one port downstream of it; it takes
    // its previous AL_PA in LIPA. The ring is as built again: R = 4 h.
    sc_core::sc_start(sc_time(10, SC_US));
    const double t1 = sc_core::sc_time_stamp().to_seconds();
    l.insert_port(3, "insert disk 3");
    CHECK(l.slot_state(3) == State::Inserted);
    run_until_initialized(l, 3);
    const loop::LoopInitRecord& back = l.initializations().back();
    CHECK(back.start_s == t1);
    CHECK(al_pas_of(back) == kAlPas);
    CHECK(back.al_pas[3].how == AddressSource::Previous);
    // The originator's LISM goes 1 hop to the master (k = 1, D = h), which replaces it with its own.
    const double r4 = 4 * kHopS;
    const double expected_back = init_s(4, r4, r4) + (12 * kWordS + kProcS) + kHopS;
    INFO("insert: simulated " << back.duration_s * 1e6 << " us, expected " << expected_back * 1e6 << " us");
    CHECK(std::abs(back.duration_s - expected_back) <= kWordS);

    // The account: loop_down_us sums the broken time.
    nlohmann::json j;
    l.report_initializations(j);
    CHECK(j["loop_initializations"] == 3);
    CHECK(std::abs(j["loop_down_us"].get<double>() * 1e-6 - (l.initializations()[0].duration_s + r.duration_s + back.duration_s)) < 1e-12);
}

TEST_CASE("A failed port without auto bypass leaves the loop down at no cost until it is pulled out", "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring(false));
    initialize_at_start(l);
    const double t0 = sc_core::sc_time_stamp().to_seconds();
    l.fail_port(2, "fail disk 2");
    sc_core::sc_start(sc_time(100, SC_US));
    CHECK(l.slot_state(2) == State::Broken);
    // 1.5 s of simulated time broken (below E_D_TOV's 2 s): not a single activation after the LIP(F8) wave.
    const std::uint64_t before = l.activations();
    sc_core::sc_start(sc_time(1500, SC_MS));
    CHECK(l.activations() == before);
    CHECK(l.initializing());
    CHECK(l.slot_state(2) == State::Broken);
    nlohmann::json j;
    l.report_initializations(j);
    REQUIRE(j["loop_init"].size() == 2);
    CHECK(j["loop_init"][1]["complete"] == false);
    const double now = sc_core::sc_time_stamp().to_seconds();
    CHECK(std::abs(j["loop_init"][1]["duration_us"].get<double>() * 1e-6 - (now - t0)) < 1e-12);

    // Pulled out, the empty slot's bypass closes; port 3, downstream, is the originator, the master
    // (port 0) one port downstream of it. Spliced hop 1 -> 3.
    const double t1 = now;
    l.remove_port(2, "pull disk 2");
    run_until_initialized(l, 2);
    CHECK(l.slot_state(2) == State::Empty);
    const loop::LoopInitRecord& r = l.initializations().back();
    CHECK(al_pas_of(r) == std::vector<phy::AlPa>{0xEF, 0xE8, 0xE2});
    // The loop was down from the failure to the end of this initialization.
    CHECK(r.start_s == t0);
    CHECK(r.duration_s > (t1 - t0) + kDetectS);
}

TEST_CASE("Invalid hot-plug calls are refused", "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    CHECK_THROWS_AS(l.insert_port(1, "x"), std::logic_error);   // not empty
    CHECK_THROWS_AS(l.enable_port(1, "x"), std::logic_error);   // not bypassed
    CHECK_THROWS_AS(l.remove_port(0, "x"), std::logic_error);   // the controller
    CHECK_THROWS_AS(l.remove_port(9, "x"), std::out_of_range);
    l.remove_port(1, "x");
    CHECK_THROWS_AS(l.remove_port(1, "x"), std::logic_error);   // already pulled
    CHECK_THROWS_AS(l.fail_port(1, "x"), std::logic_error);
    CHECK_THROWS_AS(l.bypass_port(1, "x"), std::logic_error);
    CHECK_THROWS_AS(l.start_lip(1, "x"), std::logic_error);
}

TEST_CASE("LPB takes a port out of the loop and LPE brings it back, each followed by an initialization", "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    initialize_at_start(l);
    sc_core::sc_start(sc_time(10, SC_US));
    // LPB(E4,EF): port 2 is spliced out (hop 1 -> 3: both cables, port 3's repeat delay); the
    // controller originates LIP(F7,EF) and is master, on a ring of 3.
    l.bypass_port(2, "LPB");
    CHECK(l.slot_state(2) == State::Bypassed);
    run_until_initialized(l, 2);
    const loop::LoopInitRecord& r = l.initializations().back();
    const double r3 = 2 * kHopS + 2 * kCableS + kRepeatS;
    CHECK(std::abs(r.duration_s - init_s(3, r3, r3)) <= kWordS);
    CHECK(al_pas_of(r) == std::vector<phy::AlPa>{0xEF, 0xE8, 0xE2});

    // LPE(E4,EF): back, the ring as built.
    sc_core::sc_start(sc_time(10, SC_US));
    l.enable_port(2, "LPE");
    CHECK(l.slot_state(2) == State::Inserted);
    run_until_initialized(l, 3);
    const loop::LoopInitRecord& back = l.initializations().back();
    CHECK(std::abs(back.duration_s - init_s(4, 4 * kHopS, 4 * kHopS)) <= kWordS);
    CHECK(al_pas_of(back) == kAlPas);
    CHECK(back.al_pas[2].how == AddressSource::Previous);
}

TEST_CASE("A bypass during traffic: frames to the other ports keep flowing after the initialization", "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    test::Endpoint sender(l.port(0)), receiver(l.port(1));
    sender.send(0xE8, 200);  // about 2 ms of frames
    sc_core::sc_start(sc_time(300, SC_US));
    const std::size_t before = receiver.received.size();
    CHECK(before > 4);
    l.bypass_port(3, "LPB under load");
    run_until_initialized(l, 1);
    sc_core::sc_start(sc_time(10, SC_MS));
    // The frames of the circuit the LIP ended are lost (at most the receiver's one buffer and the
    // frame under way); everything still queued went out afterwards, over the spliced ring.
    CHECK(l.port(0).transmit_queue().empty());
    CHECK(receiver.received.size() >= 200 - 2);
    CHECK(receiver.received.size() <= 200);
    CHECK(l.slot_state(3) == State::Bypassed);
}

TEST_CASE("Frames for a pulled port: the opener's OPN comes back, its frames for it are discarded and the loop goes on",
          "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    test::Endpoint sender(l.port(0)), gone(l.port(1)), other(l.port(2));
    sender.send(0xE8, 200);  // about 2 ms of frames for port 1
    sc_core::sc_start(sc_time(300, SC_US));
    l.remove_port(1, "pull the receiver");
    const std::size_t got = gone.received.size();
    CHECK(got > 4);
    run_until_initialized(l, 1);
    sc_core::sc_start(sc_time(1, SC_MS));
    // Nothing reaches the pulled port; the controller's OPN(E8) came back round: the frames still
    // queued for it are discarded, the circuit closed.
    CHECK(gone.received.size() == got);
    CHECK(l.port(0).transmit_queue().empty());
    CHECK(l.port(0).stats().frames_discarded >= 200 - got - 2);
    CHECK(l.port(0).state() == loop::LpsmState::Monitoring);
    // The loop works for the others.
    sender.send(0xE4, 10);
    sc_core::sc_start(sc_time(1, SC_MS));
    CHECK(other.received.size() == 10);
}

TEST_CASE("A loop broken for longer than E_D_TOV still initializes once the bypass closes", "[validation][loop_bypass]")
{
    // While a slot is open no port runs E_D_TOV (docs/loop_init.md, "Simplifications"): the ports
    // waiting in OPEN-INIT keep waiting, at no cost, and the LIP(F8) gets round once the slot closes.
    loop::Loop l("loop", ring(false));
    initialize_at_start(l);
    l.fail_port(3, "fail disk 3");
    sc_core::sc_start(sc_time(100, SC_US));
    const std::uint64_t before = l.activations();
    sc_core::sc_start(sc_time(5, sc_core::SC_SEC));
    CHECK(l.activations() == before);
    CHECK(l.initializing());
    l.remove_port(3, "pull disk 3");
    run_until_initialized(l, 2);
    CHECK(al_pas_of(l.initializations().back()) == std::vector<phy::AlPa>{0xEF, 0xE8, 0xE4});
}

TEST_CASE("The port downstream of a pulled port shows LIP(F8) in its trace", "[validation][loop_bypass]")
{
    // docs/loop_init.md, "Port bypass circuits": port 0 loses the signal and sends LIP(F8,x) with its
    // AL_PA EF; the watcher writes each change the port transmits with its LPSM state.
    loop::Loop l("loop", ring());
    std::ostringstream trace;
    loop::PortWatcher watcher(trace);
    l.port(0).set_watcher(&watcher);
    sc_core::sc_start(sc_time(10, SC_US));
    l.remove_port(3, "pull");
    sc_core::sc_start(sc_time(5, SC_US));
    INFO(trace.str());
    // At the removal (10 us), after 10 us / w = 531.25 words of IDLE.
    const auto idle_words = static_cast<unsigned>(10e-6 / kWordS + 0.5);
    CHECK(trace.str().find("10000.000 EF INITIALIZING " + std::to_string(idle_words) + " IDLE=>LIP(F8,0xEF)") != std::string::npos);
}

TEST_CASE("Two ports pulled one after the other: the loop initializes once, with the two others", "[validation][loop_bypass]")
{
    // Port 1 pulled, port 2 (downstream of it, sending LIP(F8)) pulled 10 us later: the second break
    // joins the first one's initialization; once both bypasses have closed, port 3 (downstream of
    // both) originates over the ring 3 -> 0 -> 3 and port 0 is master.
    loop::Loop l("loop", ring());
    initialize_at_start(l);
    const double t0 = sc_core::sc_time_stamp().to_seconds();
    l.remove_port(1, "pull 1");
    sc_core::sc_start(sc_time(10, SC_US));
    l.remove_port(2, "pull 2");
    run_until_initialized(l, 2);
    const loop::LoopInitRecord r = l.initializations().back();
    CHECK(r.cause == "pull 1");
    CHECK(r.start_s == t0);
    CHECK(al_pas_of(r) == std::vector<phy::AlPa>{0xEF, 0xE2});
    CHECK(l.slot_state(1) == State::Empty);
    CHECK(l.slot_state(2) == State::Empty);
    // The second bypass closes 10 us + bypass_detect after the first break; port 0 then transmits to
    // port 3 over three cables (h2 = 3 c + 6 w), a ring of R' = h + h2. Port 3's LIP(F8) is back h2
    // after the closure; its LISM goes one hop (k = 1, D = h) to the master, which replaces it.
    const double h2 = 3 * kCableS + kRepeatS;
    const double expected = 10e-6 + kDetectS + init_s(2, kHopS + h2, h2) + (12 * kWordS + kProcS) + kHopS;
    INFO("simulated " << std::setprecision(10) << r.duration_s * 1e6 << " us, expected " << expected * 1e6 << " us");
    CHECK(std::abs(r.duration_s - expected) <= kWordS);
}

TEST_CASE("A LIP started while the loop is broken joins the break's initialization, which ends once the bypass closes",
          "[validation][loop_bypass]")
{
    loop::Loop l("loop", ring());
    initialize_at_start(l);
    sc_core::sc_start(sc_time(10, SC_US));

    // Pull port 2 (E4): port 3, downstream of the slot, sends LIP(F8,E2); ports 0 and 1 repeat it, port 1
    // into the open slot. Then port 1 must initialize: it already receives LIP(F8,E2), a LIP it recognised,
    // so in INITIALIZING it enters OPEN-INIT at once and repeats it (its own LIPs would be lost in the slot).
    const double t0 = sc_core::sc_time_stamp().to_seconds();
    l.remove_port(2, "remove disk 2");
    sc_core::sc_start(sc_time(5, SC_US));
    l.start_lip(1, "lip from port 1");
    sc_core::sc_start(sc_time(1, SC_US));
    CHECK(l.port(1).state() == loop::LpsmState::OpenInit);
    CHECK(l.port(3).state() == loop::LpsmState::Initializing);

    run_until_initialized(l, 2);
    const loop::LoopInitRecord r = l.initializations().back();
    CHECK(r.cause == "remove disk 2");
    CHECK(r.start_s == t0);
    CHECK(r.lip_count == 2);
    CHECK(al_pas_of(r) == std::vector<phy::AlPa>{0xEF, 0xE8, 0xE2});
    REQUIRE(r.master_al_pa);
    CHECK(*r.master_al_pa == 0xEF);
    // Port 3 originates once its LIP(F8) is back over the spliced hop (port 1 to port 3); its LISM goes
    // one hop to the master, port 0 (k = 1, D = h), which replaces it with its own.
    const double spliced_hop = 2 * kCableS + kRepeatS;
    const double r3 = 2 * kHopS + spliced_hop;
    const double expected = kDetectS + init_s(3, r3, spliced_hop) + (12 * kWordS + kProcS) + kHopS;
    INFO("simulated " << std::setprecision(10) << r.duration_s * 1e6 << " us, expected " << expected * 1e6 << " us, difference "
                      << (r.duration_s - expected) / kWordS << " words");
    CHECK(std::abs(r.duration_s - expected) <= kWordS);
}

TEST_CASE("LIPs lost in an open slot: a port put back while the loop initializes without it originates, and the loop comes up with it",
          "[validation][loop_bypass]")
{
    // No initialization at the start: every port sends LIP(F7,F7), which names no sender
    // (docs/loop_init.md, "Port bypass circuits": LIPs lost in the gap). Port 3 is pulled and, in the same
    // instant, port 2, just before its slot, starts a LIP: its LIP(F7,F7) goes into the open slot, and it
    // joins port 0's LIP(F8) as a repeater.
    loop::Loop l("loop", ring());
    sc_core::sc_start(sc_time(10, SC_US));
    l.remove_port(3, "remove disk 3");
    l.start_lip(2, "lip from port 2");
    // The bypass closes and the three ports initialize; port 3 is put back in the middle of it and sends
    // LIP(F7,F7). Port 2 must repeat it, not take it for its own LIPs back (which never come), so that it
    // goes round to port 3, which originates.
    sc_core::sc_start(sc_time(kDetectS, sc_core::SC_SEC) + sc_time(5, SC_US));
    REQUIRE(l.initializing());
    REQUIRE(l.slot_state(3) == State::Empty);
    const double t1 = sc_core::sc_time_stamp().to_seconds();
    l.insert_port(3, "insert disk 3");
    run_until_initialized(l, 1);
    const loop::LoopInitRecord& r = l.initializations().back();
    CHECK(al_pas_of(r) == kAlPas);
    // Up an initialization after the insert (4 ports: under 60 us), not after E_D_TOV (2 s).
    CHECK(r.start_s + r.duration_s - t1 < 100e-6);
}

TEST_CASE("LIPs lost in a cut cable: the port after the cut that initializes originates once the cable is mended",
          "[validation][loop_bypass]")
{
    // The controller (port 0) starts LIP(F7,F7) in the instant the cable after it is cut: its LIPs reach
    // nobody. Port 1, after the cut, sends LIP(F8,E8) and then, for a LIP of its own, LIP(F7,F7); once the
    // cable is mended the controller repeats it, and port 1 must see its LIPs back and originate.
    loop::Loop l("loop", ring());
    sc_core::sc_start(sc_time(10, SC_US));
    l.start_lip(0, "lip from the controller");
    l.cut_cable("cable cut");
    sc_core::sc_start(sc_time(50, SC_US));
    l.start_lip(1, "lip from port 1");
    sc_core::sc_start(sc_time(100, SC_US));
    REQUIRE(l.initializing());
    const double t1 = sc_core::sc_time_stamp().to_seconds();
    l.mend_cable();
    run_until_initialized(l, 1);
    const loop::LoopInitRecord& r = l.initializations().back();
    CHECK(al_pas_of(r) == kAlPas);
    CHECK(r.start_s + r.duration_s - t1 < 100e-6);
}
