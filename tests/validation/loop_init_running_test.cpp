// Loop initialization in the running (SystemC) loop against first principles (docs/loop_init.md,
// "Initialization time", "Address assignment", "Initialization in the running loop").
//
// The times expected here come from the line rate, the port delay, the cable and the processing
// time, through the phases of the documented formula: `loop_init_timing()` and, for an originator
// that is the master, its closed form T = 4 w + N (212 w + 10 c + 7 p) computed here directly from
// w, c and p. The AL_PAs expected follow from the assignment rules by hand (who claims first, what
// is left in priority order). Nothing is taken from the simulator's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <iomanip>
#include <memory>
#include <string>
#include <vector>

#include "fcal/loop/loop_init_timing.hpp"
#include "loop_init_ring.hpp"

using namespace fcal;
using loop::AddressSource;
using sc_core::SC_MS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

constexpr double kWordS = test::kInitWordS;
constexpr double kCableS = test::kInitCableS;
constexpr unsigned kPortDelayWords = test::kInitPortDelayWords;
constexpr double kProcS = test::kInitProcS;

loop::LoopConfig ring(const std::vector<phy::AlPa>& al_pas) { return test::init_ring(al_pas); }

// N distinct AL_PAs: loop_IDs 0, 1, 2, ... (EF, E8, E4, ...).
std::vector<phy::AlPa> al_pas(unsigned n)
{
    std::vector<phy::AlPa> v;
    for (unsigned i = 0; i < n; ++i) v.push_back(phy::al_pa_of_loop_id(i));
    return v;
}

// The formula, originator `k` ports upstream of the master (k = 0: the originator is the master).
double formula_s(unsigned n, unsigned k)
{
    const double h = kPortDelayWords * kWordS + kCableS;
    loop::LoopInitTimingInput in;
    in.ports = n;
    in.word_s = kWordS;
    in.round_trip_s = n * h;
    in.frame_processing_s = kProcS;
    in.master_offset = k;
    in.originator_to_master_s = k * h;
    return loop::loop_init_timing(in).total_s;
}

void run_until_initialized(loop::Loop& l, std::size_t inits)
{
    for (int i = 0; i < 1000 && !(l.initializations().size() == inits && !l.initializing()); ++i) sc_core::sc_start(sc_time(100, SC_US));
    REQUIRE(l.initializations().size() == inits);
    if (l.initializing())
        for (std::size_t i = 0; i < l.port_count(); ++i) {
            l.port(i).print_state(std::cerr);
            std::cerr << "   step " << int(l.port(i).init_procedure().step()) << " master " << l.port(i).init_procedure().master() << " discarded " << l.port(i).init_procedure().discarded() << "\n";
        }
    REQUIRE_FALSE(l.initializing());
}

void check_time_against_formula(unsigned n)
{
    loop::Loop l("loop", ring(al_pas(n)));
    l.start_lip(0, "test");
    run_until_initialized(l, 1);
    const loop::LoopInitRecord& r = l.initializations().front();
    const double closed_form_s = 4 * kWordS + n * (212 * kWordS + 10 * kCableS + 7 * kProcS);
    INFO("N = " << n << ": simulated " << std::setprecision(10) << r.duration_s * 1e6 << " us, formula " << formula_s(n, 0) * 1e6
                << " us, difference " << (r.duration_s - formula_s(n, 0)) / kWordS << " words");
    CHECK(std::abs(formula_s(n, 0) - closed_form_s) < 1e-12);
    // Within a tenth of a word: the kernel's picosecond resolution rounds each hop delay (under
    // 0.03 w at 127 ports).
    CHECK(std::abs(r.duration_s - formula_s(n, 0)) <= 0.1 * kWordS);
    CHECK(r.start_s == 0.0);
    CHECK(r.lip_count == 1);
    REQUIRE(r.master_al_pa);
    CHECK(*r.master_al_pa == phy::al_pa_of_loop_id(0));
    // Every port keeps its (distinct) hard AL_PA; the map is the ring order from the master.
    REQUIRE(r.al_pas.size() == n);
    for (unsigned i = 0; i < n; ++i) {
        CHECK(r.al_pas[i].al_pa == phy::al_pa_of_loop_id(i));
        CHECK(r.al_pas[i].how == AddressSource::Hard);
        CHECK(l.port(i).state() == loop::LpsmState::Monitoring);
        CHECK(l.port(i).init_procedure().position_map() == al_pas(n));
    }
}

}  // namespace

TEST_CASE("Initialization of 3 ports takes the formula's time", "[validation][loop_init]") { check_time_against_formula(3); }
TEST_CASE("Initialization of 17 ports takes the formula's time", "[validation][loop_init]") { check_time_against_formula(17); }
TEST_CASE("Initialization of 64 ports takes the formula's time", "[validation][loop_init]") { check_time_against_formula(64); }
TEST_CASE("Initialization of 127 ports takes the formula's time", "[validation][loop_init]") { check_time_against_formula(127); }

TEST_CASE("Duplicated hard AL_PAs give the second port the first free soft one and re-initialization keeps them", "[validation][loop_init]")
{
    // Ring order: C 01, D1 EF, D2 E8, D3 configured E4 but with hard address E8 (the same as D2's),
    // D4 02. In LIHA, D2 claims E8 first (it is nearer the master downstream), D3 finds it taken,
    // D4 takes 02. In LISA, D3 takes the first clear bit in priority order 00 (never soft), 01
    // (C), 02 (D4), 04: soft 04. LILP: the ring order from the master, 01 EF E8 04 02.
    auto cfg = ring({0x01, 0xEF, 0xE8, 0xE4, 0x02});
    cfg.nodes[3].port.init.hard_al_pa = 0xE8;
    loop::Loop l("loop", cfg);
    l.start_lip(0, "power on");
    run_until_initialized(l, 1);
    const std::vector<phy::AlPa> expected{0x01, 0xEF, 0xE8, 0x04, 0x02};
    const std::vector<AddressSource> how{AddressSource::Hard, AddressSource::Hard, AddressSource::Hard, AddressSource::Soft,
                                         AddressSource::Hard};
    const loop::LoopInitRecord first = l.initializations().front();
    for (unsigned i = 0; i < 5; ++i) {
        CHECK(first.al_pas[i].al_pa == expected[i]);
        CHECK(first.al_pas[i].how == how[i]);
        CHECK(l.port(i).init_procedure().position_map() == expected);
    }
    CHECK(std::abs(first.duration_s - formula_s(5, 0)) <= 0.1 * kWordS);

    // A disk (D2, node 2) sends LIP: it originates, the master is 3 ports downstream of it (D3, D4,
    // C). Every port claims its AL_PA again in LIPA, D3 its soft 04 included.
    const double second_at_s = sc_core::sc_time_stamp().to_seconds();
    l.start_lip(2, "disk lip");
    run_until_initialized(l, 2);
    const loop::LoopInitRecord& second = l.initializations().back();
    CHECK(second.cause == "disk lip");
    CHECK(second.start_s == second_at_s);
    REQUIRE(second.master_al_pa);
    CHECK(*second.master_al_pa == 0x01);
    for (unsigned i = 0; i < 5; ++i) {
        CHECK(second.al_pas[i].al_pa == expected[i]);
        CHECK(second.al_pas[i].how == AddressSource::Previous);
    }
    INFO("simulated " << second.duration_s * 1e6 << " us, formula " << formula_s(5, 3) * 1e6 << " us");
    CHECK(std::abs(second.duration_s - formula_s(5, 3)) <= 0.1 * kWordS);
}

TEST_CASE("A LIP wakes folded ports and frames held during initialization go out after it", "[validation][loop_init]")
{
    // Eight ports; port 0 sends frames to port 4 so that the quiet ports fold (docs/loop.md, "Fast
    // path"), then the loop initializes mid-transfer: the initialization must take the formula's
    // time (every port stored and forwarded every LI frame), and the frames still queued must go
    // out once the loop is back.
    loop::Loop l("loop", ring(al_pas(8)));
    test::Endpoint sender(l.port(0)), receiver(l.port(4));
    sender.send(phy::al_pa_of_loop_id(4), 4);
    sc_core::sc_start(sc_time(100, SC_US));
    REQUIRE(receiver.received.size() == 4);
    unsigned folded = 0;
    for (std::size_t i = 0; i < l.port_count(); ++i) folded += l.port(i).folded();
    CHECK(folded > 0);

    sender.send(phy::al_pa_of_loop_id(4), 200);
    sc_core::sc_start(sc_time(20, SC_US));  // mid-transfer (200 frames take about 2 ms)
    const std::size_t before = receiver.received.size();
    CHECK(before > 4);
    CHECK(before < 204);
    const double lip_at_s = sc_core::sc_time_stamp().to_seconds();
    l.start_lip(0, "test");
    run_until_initialized(l, 1);
    const loop::LoopInitRecord& r = l.initializations().front();
    CHECK(r.start_s == lip_at_s);
    // The LIP waits for the frame the port is sending to end (at most one 2 KiB frame, 528 words,
    // plus its spacing): the formula's time from then on.
    CHECK(r.duration_s >= formula_s(8, 0) - kWordS);
    CHECK(r.duration_s <= formula_s(8, 0) + 540 * kWordS);
    // Nothing arrives while the loop initializes beyond the frame under way.
    CHECK(receiver.received.size() <= before + 1);
    const std::size_t after_init = receiver.received.size();
    sc_core::sc_start(sc_time(10, SC_MS));
    // The frames of the circuit the LIP ended are lost (a circuit's frames in flight: at most the
    // receiver's one buffer); everything still queued went out afterwards.
    CHECK(receiver.received.size() > after_init);
    CHECK(l.port(0).transmit_queue().empty());
    CHECK(receiver.received.size() >= 204 - 2);
    CHECK(receiver.received.size() <= 204);
    for (std::size_t i = 0; i < l.port_count(); ++i) CHECK_FALSE(l.port(i).in_initialization());
}

namespace {

// Hits the first LIFA a port receives: the frame fails its CRC and is lost.
class LoseFirstLifa : public loop::WordErrors {
public:
    std::uint64_t hits(const loop::Word& w, unsigned) override
    {
        if (lost_ || w.kind != loop::WordKind::Frame || !w.frame->loop_init()) return 0;
        if (static_cast<const loop::LoopInitFrame&>(*w.frame->content).id != loop::LiId::Lifa) return 0;
        lost_ = true;
        return 1;
    }
    bool lost_ = false;
};

}  // namespace

TEST_CASE("A lost LI frame: E_D_TOV runs out and the loop initializes again", "[validation][loop_init]")
{
    // Three ports; D1 (node 1) loses the LIFA. Everyone then waits; D1's E_D_TOV (100 us here, the
    // others' 2 s: one port times out, see docs/loop_init.md, "Simplifications") runs out: it sends
    // LIP and the loop initializes again with D1 as originator and C still master. One
    // initialization in the account, with two LIPs, ending with every hard AL_PA.
    auto cfg = ring({0x01, 0xEF, 0xE8});
    cfg.nodes[1].port.e_d_tov_s = 100e-6;
    loop::Loop l("loop", cfg);
    LoseFirstLifa lose;
    l.port(1).set_word_errors(&lose);
    l.start_lip(0, "test");
    run_until_initialized(l, 1);
    CHECK(lose.lost_);
    const loop::LoopInitRecord& r = l.initializations().front();
    CHECK(r.lip_count == 2);
    REQUIRE(r.master_al_pa);
    CHECK(*r.master_al_pa == 0x01);
    const std::vector<phy::AlPa> expected{0x01, 0xEF, 0xE8};
    for (unsigned i = 0; i < 3; ++i) {
        CHECK(r.al_pas[i].al_pa == expected[i]);
        CHECK(r.al_pas[i].how == AddressSource::Hard);
    }
    // At least E_D_TOV after the LIFA was lost, and at most the first attempt up to LIFA, E_D_TOV and
    // a whole second initialization with D1 originating (the master 2 ports downstream of it).
    CHECK(r.duration_s > 100e-6);
    CHECK(r.duration_s < formula_s(3, 0) + 100e-6 + formula_s(3, 2));
}
