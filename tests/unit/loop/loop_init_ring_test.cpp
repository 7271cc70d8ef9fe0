// Loop initialization on whole rings of procedure objects passing frames among themselves in plain
// C++ (docs/loop_init.md, "Address assignment", "Position maps", "Initialization time"): every frame
// goes through its bytes (payload and header) on each hop. Expectations come from the protocol's
// rules stated as sets (who claims first, what is free), and the timed ring checks the closed-form
// initialization time of loop_init_timing against a hop-by-hop event schedule.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <vector>

#include "fcal/loop/loop_init_procedure.hpp"
#include "fcal/loop/loop_init_timing.hpp"
#include "fcal/phy/line_rate.hpp"

using namespace fcal;
using loop::AddressSource;
using loop::LoopInitFrame;
using loop::LoopInitPortConfig;
using loop::LoopInitProcedure;
using Kind = LoopInitProcedure::Output::Kind;

namespace {

struct Message {
    Kind kind = Kind::Nothing;
    LoopInitFrame frame;
};

// The frame as the next port decodes it from the wire.
LoopInitFrame over_the_wire(const LoopInitFrame& f)
{
    return LoopInitFrame::decode(f.payload(), LoopInitFrame::address_of_header(f.header()));
}

// Delivers a message to port `to`; returns what the port transmits next (a repeated fill word or
// primitive included: ARB(F0) passes every port but the master, CLS every port but the master).
Message deliver(LoopInitProcedure& port, const Message& m)
{
    LoopInitProcedure::Output out;
    switch (m.kind) {
    case Kind::Frame: out = port.frame_received(over_the_wire(m.frame)); break;
    case Kind::ArbF0:
        out = port.arb_f0_received();
        if (!port.master()) return {Kind::ArbF0, {}};
        break;
    case Kind::Cls: out = port.cls_received(); break;
    case Kind::Nothing: break;
    }
    return {out.kind, out.frame};
}

// Untimed: messages travel one hop at a time in the order they were sent.
void run_ring(std::vector<LoopInitProcedure>& ports, const std::set<std::size_t>& originators)
{
    const std::size_t n = ports.size();
    std::deque<std::pair<std::size_t, Message>> wire;
    for (std::size_t i = 0; i < n; ++i) {
        const auto out = ports[i].enter_open_init(originators.count(i) > 0);
        if (out.is(Kind::Frame)) wire.push_back({(i + 1) % n, {Kind::Frame, out.frame}});
    }
    std::size_t steps = 0;
    while (!wire.empty()) {
        REQUIRE(++steps < 100000 * n);
        const auto [to, m] = wire.front();
        wire.pop_front();
        const Message next = deliver(ports[to], m);
        if (next.kind != Kind::Nothing) wire.push_back({(to + 1) % n, next});
    }
}

std::vector<LoopInitProcedure> ring_of(const std::vector<LoopInitPortConfig>& configs)
{
    return std::vector<LoopInitProcedure>(configs.begin(), configs.end());
}

// Names in node order (node 0 lowest): the default.
std::vector<LoopInitPortConfig> default_configs(std::size_t n)
{
    std::vector<LoopInitPortConfig> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i].port_name = loop::default_port_name(static_cast<unsigned>(i));
    return c;
}

// The protocol's outcome as sets: the master (lowest name) claims first in every bitmap, then the
// ports downstream of it; fabric, previous, hard in turn, each port at most once; then soft from
// the lowest free AL_PA above 00; a port left over is non-participating.
struct Expected {
    std::size_t master = 0;
    std::vector<std::optional<phy::AlPa>> al_pa;
    std::vector<AddressSource> source;
    std::vector<phy::AlPa> position_map;  // participating AL_PAs from the master on
};

Expected expect(const std::vector<LoopInitPortConfig>& c, const std::vector<std::optional<phy::AlPa>>& previous)
{
    const std::size_t n = c.size();
    Expected e;
    for (std::size_t i = 1; i < n; ++i)
        if (c[i].port_name < c[e.master].port_name) e.master = i;
    e.al_pa.assign(n, std::nullopt);
    e.source.assign(n, AddressSource::None);
    std::set<phy::AlPa> taken;
    auto pass = [&](std::function<std::optional<phy::AlPa>(std::size_t)> wanted, AddressSource s) {
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = (e.master + k) % n;
            const auto a = wanted(i);
            if (e.al_pa[i] || !a || taken.count(*a)) continue;
            taken.insert(*a);
            e.al_pa[i] = a;
            e.source[i] = s;
        }
    };
    pass([&](std::size_t i) { return c[i].fabric_al_pa; }, AddressSource::Fabric);
    pass([&](std::size_t i) { return previous[i]; }, AddressSource::Previous);
    pass([&](std::size_t i) { return c[i].hard_al_pa; }, AddressSource::Hard);
    pass(
        [&](std::size_t) -> std::optional<phy::AlPa> {
            for (phy::AlPa a : phy::valid_al_pas())
                if (a != 0x00 && !taken.count(a)) return a;
            return std::nullopt;
        },
        AddressSource::Soft);
    for (std::size_t k = 0; k < n; ++k)
        if (const auto a = e.al_pa[(e.master + k) % n]) e.position_map.push_back(*a);
    return e;
}

void check_outcome(const std::vector<LoopInitProcedure>& ports, const Expected& e)
{
    for (std::size_t i = 0; i < ports.size(); ++i) {
        INFO("port " << i);
        REQUIRE(ports[i].done());
        CHECK(ports[i].master() == (i == e.master));
        CHECK(ports[i].al_pa() == e.al_pa[i]);
        CHECK(ports[i].address_source() == e.source[i]);
        CHECK(ports[i].participating() == e.al_pa[i].has_value());
    }
}

}  // namespace

TEST_CASE("LI ring: distinct hard addresses are kept on rings of 3, 17, 64 and 127 ports; LILP is the physical order")
{
    for (std::size_t n : {3u, 17u, 64u, 127u}) {
        INFO(n << " ports");
        auto configs = default_configs(n);
        // Slot addresses in loop_ID order (EF, E8, E4, ...), as disks get them.
        for (std::size_t i = 0; i < n; ++i) configs[i].hard_al_pa = phy::al_pa_of_loop_id(static_cast<unsigned>(i));
        auto ports = ring_of(configs);
        run_ring(ports, {n / 2});
        const Expected e = expect(configs, std::vector<std::optional<phy::AlPa>>(n));
        CHECK(e.master == 0);
        check_outcome(ports, e);
        std::vector<phy::AlPa> physical;
        for (std::size_t i = 0; i < n; ++i) {
            CHECK(ports[i].al_pa() == configs[i].hard_al_pa);
            CHECK(ports[i].address_source() == AddressSource::Hard);
            physical.push_back(*configs[i].hard_al_pa);
        }
        // The master is node 0, so the map is the ring from node 0 on, as every port sees it.
        for (const auto& p : ports) CHECK(p.position_map() == physical);
    }
}

TEST_CASE("LI ring: a duplicated hard address goes to the first port downstream of the master, the others soft in priority order")
{
    auto configs = default_configs(17);
    for (std::size_t i = 0; i < 17; ++i) configs[i].hard_al_pa = phy::al_pa_of_loop_id(static_cast<unsigned>(i));
    // Nodes 5, 9 and 13 are all set to 0xE8 (node 1's slot address).
    for (std::size_t i : {5u, 9u, 13u}) configs[i].hard_al_pa = 0xE8;
    // The master is node 7: among the claimants of E8 (1, 5, 9, 13) node 9 is first downstream of it.
    configs[7].port_name = 1;
    auto ports = ring_of(configs);
    run_ring(ports, {2});
    CHECK(ports[7].master());
    CHECK(ports[9].al_pa() == phy::AlPa{0xE8});
    CHECK(ports[9].address_source() == AddressSource::Hard);
    // LISA order from the master: 13, then 1, then 5, taking the free AL_PAs of highest priority.
    CHECK(ports[13].al_pa() == phy::AlPa{0x01});
    CHECK(ports[1].al_pa() == phy::AlPa{0x02});
    CHECK(ports[5].al_pa() == phy::AlPa{0x04});
    for (std::size_t i : {13u, 1u, 5u}) CHECK(ports[i].address_source() == AddressSource::Soft);
    check_outcome(ports, expect(configs, std::vector<std::optional<phy::AlPa>>(17)));
    // The map starts at the master.
    CHECK(ports[0].position_map().front() == *ports[7].al_pa());
    CHECK(ports[0].position_map().size() == 17);
}

TEST_CASE("LI ring: previously acquired AL_PAs are kept on re-initialization; a new port cannot take one")
{
    // 16 ports with no hard addresses: all soft, in LISA order from the master.
    auto configs = default_configs(16);
    auto ports = ring_of(configs);
    run_ring(ports, {0});
    for (std::size_t i = 0; i < 16; ++i) {
        CHECK(ports[i].address_source() == AddressSource::Soft);
        CHECK(ports[i].al_pa() == phy::valid_al_pas()[i + 1]);  // 01, 02, 04, ... from node 0 on
    }

    // A new port is inserted after node 4; its hard address is node 9's soft AL_PA, and names now make
    // node 12 the master, so the new port's claims would come first in LIPA and LIHA if it had any right.
    std::vector<std::optional<phy::AlPa>> previous;
    std::vector<LoopInitProcedure> next;
    std::vector<LoopInitPortConfig> next_configs;
    for (std::size_t i = 0; i < 16; ++i) {
        LoopInitPortConfig c = configs[i];
        if (i == 12) c.port_name = 1;
        LoopInitProcedure p(c);
        p.set_previous_al_pa(ports[i].al_pa());
        next.push_back(p);
        next_configs.push_back(c);
        previous.push_back(ports[i].al_pa());
        if (i == 4) {
            LoopInitPortConfig fresh;
            fresh.port_name = loop::default_port_name(100);
            fresh.hard_al_pa = *ports[9].al_pa();
            next.emplace_back(fresh);
            next_configs.push_back(fresh);
            previous.push_back(std::nullopt);
        }
    }
    run_ring(next, {3});
    const Expected e = expect(next_configs, previous);
    check_outcome(next, e);
    for (std::size_t i = 0; i < next.size(); ++i) {
        if (i == 5) continue;  // the new one
        CHECK(next[i].address_source() == AddressSource::Previous);
        CHECK(next[i].al_pa() == previous[i]);
    }
    // The first AL_PA nobody held: 16 were 01..(the 16th); the new port gets the 17th.
    CHECK(next[5].al_pa() == phy::valid_al_pas()[17]);
    CHECK(next[5].address_source() == AddressSource::Soft);
}

TEST_CASE("LI ring: ports beyond the 126 NL_Port addresses are non-participating")
{
    for (std::size_t n : {127u, 130u}) {
        INFO(n << " ports");
        auto configs = default_configs(n);
        auto ports = ring_of(configs);
        run_ring(ports, {0});
        const Expected e = expect(configs, std::vector<std::optional<phy::AlPa>>(n));
        check_outcome(ports, e);
        std::size_t participating = 0;
        for (std::size_t i = 0; i < n; ++i) {
            INFO("port " << i);
            // LISA from the master (node 0) on: nodes 0..125 take 01..EF, the rest find nothing.
            if (i < 126) {
                CHECK(ports[i].al_pa() == phy::valid_al_pas()[i + 1]);
                ++participating;
            } else {
                CHECK_FALSE(ports[i].participating());
            }
        }
        CHECK(participating == 126);
        CHECK(ports[0].position_map().size() == 126);
        CHECK(ports[n - 1].position_map() == ports[0].position_map());
    }
}

TEST_CASE("LI ring: one port without position maps skips LIRP and LILP for all")
{
    auto configs = default_configs(5);
    configs[3].position_map = false;
    auto ports = ring_of(configs);
    run_ring(ports, {4});
    check_outcome(ports, expect(configs, std::vector<std::optional<phy::AlPa>>(5)));
    for (const auto& p : ports) {
        CHECK(p.position_map().empty());
        CHECK(p.discarded() == 0);
    }
}

TEST_CASE("LI ring: the lowest port name becomes master whoever originates, with several originators too")
{
    std::mt19937_64 rng(22);
    for (int round = 0; round < 40; ++round) {
        const std::size_t n = 2 + rng() % 40;
        std::vector<LoopInitPortConfig> configs(n);
        std::set<std::uint64_t> names;
        for (std::size_t i = 0; i < n; ++i) {
            do configs[i].port_name = rng(); while (!names.insert(configs[i].port_name).second);
            if (rng() % 2) configs[i].hard_al_pa = phy::valid_al_pas()[1 + rng() % 20];  // many duplicates
            if (rng() % 8 == 0) configs[i].fabric_al_pa = phy::valid_al_pas()[1 + rng() % 20];
        }
        std::set<std::size_t> originators;
        const std::size_t count = 1 + rng() % 3;
        while (originators.size() < count) originators.insert(rng() % n);
        INFO("round " << round << ": " << n << " ports, " << count << " originators");
        auto ports = ring_of(configs);
        run_ring(ports, originators);
        const Expected e = expect(configs, std::vector<std::optional<phy::AlPa>>(n));
        check_outcome(ports, e);
        for (const auto& p : ports) CHECK(p.position_map() == e.position_map);
        // No AL_PA twice.
        std::set<phy::AlPa> seen;
        for (const auto& p : ports)
            if (p.al_pa()) CHECK(seen.insert(*p.al_pa()).second);
    }
}

namespace {

// Timed ring: each hop i -> i+1 has a repeat-path delay hop_s[i] (cable, and the receiving node's
// port delay). A frame of F words sent at s has fully reached the next port at s + F w + hop; the
// port answers after p. ARB(F0) and CLS are repeated at once (their hop already holds the port's
// delay). The originator's LIPs: every other port recognises them at the third one, 2 words after
// their front reaches it; the originator sends its LISM when its own have come back and been
// recognised, 2 fill words later, and once it has sent at least 12, plus the LISM wait.
struct TimedRing {
    std::vector<double> hop_s;
    double word_s = 0;
    double proc_s = 0;
    double lism_wait_s = 0;
};

double run_timed(std::vector<LoopInitProcedure>& ports, std::size_t originator, const TimedRing& r)
{
    const std::size_t n = ports.size();
    struct Event {
        double t;
        std::uint64_t seq;
        std::size_t to;
        bool enter;  // enter OPEN-INIT (non-originator)
        Message m;
        bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
    };
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q;
    std::uint64_t seq = 0;
    double round_trip = 0;
    for (double h : r.hop_s) round_trip += h;
    const double w = r.word_s;

    // Sends `m` from port `from` at time s.
    auto send = [&](std::size_t from, double s, const Message& m) {
        const double arrival = m.kind == Kind::Frame ? s + m.frame.words() * w + r.hop_s[from] : s + r.hop_s[from];
        q.push({arrival, seq++, (from + 1) % n, false, m});
    };

    double front = 0;
    for (std::size_t k = 1; k < n; ++k) {
        const std::size_t j = (originator + k) % n;
        front += r.hop_s[(j + n - 1) % n];
        q.push({front + loop::lip_recognition_s(w), seq++, j, true, {}});
    }
    const auto lism = ports[originator].enter_open_init(true);
    REQUIRE(lism.is(Kind::Frame));
    const double lism_start =
        std::max(round_trip + loop::lip_recognition_s(w), loop::kLipsBeforeLism * w) + loop::kGapAfterLipsWords * w + r.lism_wait_s;
    send(originator, lism_start, {Kind::Frame, lism.frame});

    while (!q.empty()) {
        const Event e = q.top();
        q.pop();
        LoopInitProcedure& port = ports[e.to];
        if (e.enter) {
            REQUIRE(port.step() == LoopInitProcedure::Step::Idle);
            port.enter_open_init(false);
            continue;
        }
        const bool was_master = port.master();
        const Message next = deliver(port, e.m);
        if (e.m.kind == Kind::Cls && was_master) {
            REQUIRE(port.done());
            return e.t;
        }
        if (next.kind == Kind::Nothing) continue;
        // A port's own answer to a frame waits for its processing; repeated fill and primitives,
        // and the master's LIFA on ARB(F0), go at once.
        const bool processed = e.m.kind == Kind::Frame;
        send(e.to, processed ? e.t + r.proc_s : e.t, next);
    }
    FAIL("the master never got its CLS back");
    return 0;
}

}  // namespace

TEST_CASE("LI timing: the closed form matches a hop-by-hop schedule on 3, 17, 64 and 127 ports")
{
    const double w = 40.0 / phy::baud(phy::LineRate::G2);
    std::mt19937_64 rng(17);
    for (std::size_t n : {3u, 17u, 64u, 127u})
        for (int variant = 0; variant < 3; ++variant) {
            TimedRing r;
            r.word_s = w;
            r.proc_s = variant == 0 ? 0.0 : 1e-6 * variant;
            r.lism_wait_s = variant == 2 ? 15e-3 : 0.0;
            // Uneven hops: 6 words of port delay plus 1 to 20 m of cable at 5 ns/m.
            for (std::size_t i = 0; i < n; ++i) r.hop_s.push_back(6 * w + (1 + rng() % 20) * 5e-9);
            auto configs = default_configs(n);
            for (std::size_t i = 0; i < n; ++i) configs[i].hard_al_pa = phy::al_pa_of_loop_id(static_cast<unsigned>(i));
            // The master (lowest name) somewhere downstream of the originator, or the originator itself.
            const std::size_t originator = rng() % n;
            const std::size_t master = variant == 1 ? originator : rng() % n;
            configs[master].port_name = 0;
            if (variant == 0) configs[n / 3].position_map = false;
            auto ports = ring_of(configs);
            const double simulated = run_timed(ports, originator, r);

            loop::LoopInitTimingInput in;
            in.ports = static_cast<unsigned>(n);
            in.word_s = w;
            in.frame_processing_s = r.proc_s;
            in.lism_wait_s = r.lism_wait_s;
            for (double h : r.hop_s) in.round_trip_s += h;
            in.master_offset = static_cast<unsigned>((master + n - originator) % n);
            for (std::size_t k = 0; k < in.master_offset; ++k) in.originator_to_master_s += r.hop_s[(originator + k) % n];
            in.position_maps = variant != 0;
            const auto t = loop::loop_init_timing(in);
            INFO(n << " ports, variant " << variant << ": simulated " << simulated << " s, formula " << t.total_s << " s");
            CHECK(std::abs(simulated - t.total_s) < 1e-6 * w);
            for (const auto& p : ports) CHECK(p.done());
        }
}

TEST_CASE("LI timing: the terms of the formula, worked by hand for three ports at 1GFC")
{
    // w = 40 / 1.0625e9 s; R = 3 hops of 6 words + 10 m (50 ns) each; p = 1 us; originator is the master.
    const double w = 40.0 / 1.0625e9;
    loop::LoopInitTimingInput in;
    in.ports = 3;
    in.word_s = w;
    in.round_trip_s = 3 * (6 * w + 50e-9);
    in.frame_processing_s = 1e-6;
    const auto t = loop::loop_init_timing(in);
    const double r = in.round_trip_s;
    CHECK(t.lip_s == Approx(r + 4 * w));                       // recognised 2 w after, 2 fill words; R = 18 w + 150 ns > 8 w
    CHECK(t.lism_s == Approx(3 * (12 * w + 1e-6) + r));        // one trip of a 12-word LISM
    CHECK(t.arb_f0_s == Approx(r));
    CHECK(t.address_s == Approx(4 * (3 * (14 * w + 1e-6) + r)));
    CHECK(t.position_map_s == Approx(2 * (3 * (42 * w + 1e-6) + r)));
    CHECK(t.cls_s == Approx(r));
    // Words: 2 + 2 (LIP recognition, fill words) + 3 x 12 (LISM) + 4 x 3 x 14 + 2 x 3 x 42 = 460; round
    // trips: LIP, LISM, ARB(F0), 4 bitmaps, 2 maps, CLS = 10; processing: 3 + 12 + 6 = 21 frame receptions.
    CHECK(t.total_s == Approx(460 * w + 10 * r + 21e-6));
    // A LISM wait adds itself; a port without position maps removes LIRP and LILP.
    in.lism_wait_s = 15e-3;
    in.position_maps = false;
    const auto u = loop::loop_init_timing(in);
    CHECK(u.total_s == Approx(t.total_s + 15e-3 - t.position_map_s));
    // At least 12 LIPs, then the 2 fill words: a loop shorter than 10 words waits for them.
    in.round_trip_s = 2 * w;
    CHECK(loop::loop_init_timing(in).lip_s == Approx(14 * w + 15e-3));

    CHECK_THROWS_AS(loop::loop_init_timing(loop::LoopInitTimingInput{}), std::invalid_argument);
    in.master_offset = 3;
    CHECK_THROWS_AS(loop::loop_init_timing(in), std::invalid_argument);
    in.master_offset = 0;
    in.frame_processing_s = -1;
    CHECK_THROWS_AS(loop::loop_init_timing(in), std::invalid_argument);
}
