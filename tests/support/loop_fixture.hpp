#pragma once
// Test-only helpers for the loop layer: zero-overhead frame sources and sinks, and loops built
// from a few numbers. Several independent loops may live in one elaboration.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "fcal/loop/loop.hpp"

namespace fcal::test {

// Records what happens at one port; consumes received frames at once (zero processing time).
class Endpoint : public loop::PortUser {
public:
    struct StateChange {
        double t_ns;
        loop::LpsmState from, to;
    };
    struct FrameEvent {
        double t_ns;
        phy::AlPa peer;
    };

    explicit Endpoint(loop::LPort& port, bool consume_at_once = true) : port_(port), consume_(consume_at_once)
    {
        port.set_user(this);
        // FCAL_TEST_TRACE=1 prints every port's watcher trace to stderr, for debugging a test.
        static loop::PortWatcher stderr_watcher(std::cerr);
        if (const char* v = std::getenv("FCAL_TEST_TRACE"); v && *v == '1') port.set_watcher(&stderr_watcher);
    }

    void frame_received(loop::FrameRef f) override
    {
        received.push_back({now_ns(), f->source});
        if (consume_) port_.release_buffer();
    }
    void frame_sent(const loop::LoopFrame& f) override { sent.push_back({now_ns(), f.destination}); }
    bool wants_frame_sent() const override { return wants_sent; }
    void state_changed(loop::LpsmState from, loop::LpsmState to) override
    {
        states.push_back({now_ns(), from, to});
        if (to == loop::LpsmState::ArbitrationWon) wins.push_back(now_ns());
        // A persistent requester wants the loop again as soon as it has given it up.
        if (from == loop::LpsmState::XmittedClose && to == loop::LpsmState::Monitoring && more_circuits > 0) {
            --more_circuits;
            send(circuit_dest, 1, 64, circuit_unfair);
        }
    }

    // Open `circuits` circuits to `dest`, one after the other, each with one small frame.
    void request_circuits(phy::AlPa dest, unsigned circuits, bool unfair = false)
    {
        circuit_dest = dest;
        circuit_unfair = unfair;
        more_circuits = circuits - 1;
        send(dest, 1, 64, unfair);
    }

    // Queue `count` frames of `payload` bytes for `dest`.
    void send(phy::AlPa dest, unsigned count, std::uint32_t payload = 2048, bool unfair = false)
    {
        for (unsigned i = 0; i < count; ++i) {
            auto f = kernel::make_ref<loop::LoopFrame>();
            f->source = port_.al_pa();
            f->destination = dest;
            f->payload_bytes = payload;
            f->sof = i == 0 ? loop::Sof::I3 : loop::Sof::N3;
            port_.queue_frame(loop::OutgoingFrame{f, unfair, unfair});
        }
    }

    // Time of the n-th (0-based) entry into state `s`, or -1.
    double entered(loop::LpsmState s, std::size_t n = 0) const
    {
        for (const auto& c : states)
            if (c.to == s && n-- == 0) return c.t_ns;
        return -1;
    }

    static double now_ns() { return sc_core::sc_time_stamp().to_seconds() * 1e9; }

    loop::LPort& port_;
    bool consume_;
    bool wants_sent = true;  // false: no frame_sent() calls (`sent` stays empty)
    std::vector<StateChange> states;
    std::vector<FrameEvent> received, sent;
    std::vector<double> wins;
    unsigned more_circuits = 0;
    phy::AlPa circuit_dest = 0;
    bool circuit_unfair = false;
};

// A slow receiver: consumes each frame `hold` after the previous one was consumed or it arrived,
// from a process of its own (as an HBA does), one buffer at a time.
class SlowSink : public sc_core::sc_module, public Endpoint {
public:
    SC_HAS_PROCESS(SlowSink);
    SlowSink(sc_core::sc_module_name name, loop::LPort& port, const sc_core::sc_time& hold)
        : sc_module(name), Endpoint(port, false), hold_(hold)
    {
        SC_METHOD(release);
        sensitive << later_;
        dont_initialize();
    }
    void frame_received(loop::FrameRef f) override
    {
        Endpoint::frame_received(f);
        ++pending_;
        later_.notify(hold_);
    }
    std::vector<double> freed_ns;  // when each buffer was freed

private:
    void release()
    {
        if (pending_ == 0) return;
        --pending_;
        freed_ns.push_back(now_ns());
        port_.release_buffer();
        if (pending_ > 0) later_.notify(hold_);
    }
    sc_core::sc_time hold_;
    sc_core::sc_event later_;
    unsigned pending_ = 0;
};

// Collects the win order of several endpoints.
inline std::vector<std::pair<double, phy::AlPa>> win_order(const std::vector<Endpoint*>& eps)
{
    std::vector<std::pair<double, phy::AlPa>> out;
    for (auto* e : eps)
        for (double t : e->wins) out.push_back({t, e->port_.al_pa()});
    std::sort(out.begin(), out.end());
    return out;
}

inline loop::LoopNode active_node(phy::AlPa al_pa, unsigned buffers = 1, unsigned login_credit = 0, bool fair = true)
{
    loop::LoopNode n;
    n.port.al_pa = al_pa;
    n.port.incoming_buffers = buffers;
    n.port.login_bb_credit = login_credit;
    n.port.fair = fair;
    return n;
}

inline loop::LoopNode passive_node()
{
    loop::LoopNode n;
    n.passive = true;
    return n;
}

// One parsed line of the port watcher's trace.
struct TraceLine {
    double t_ns;
    unsigned port;
    std::string state;
    unsigned long long previous_words;
    std::string from, to;
};

inline std::vector<TraceLine> parse_trace(const std::string& text)
{
    std::vector<TraceLine> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        TraceLine t;
        std::string port_hex, change;
        ls >> t.t_ns >> port_hex >> t.state >> t.previous_words >> change;
        t.port = static_cast<unsigned>(std::stoul(port_hex, nullptr, 16));
        const auto arrow = change.find("=>");
        t.from = change.substr(0, arrow);
        t.to = change.substr(arrow + 2);
        out.push_back(t);
    }
    return out;
}

}  // namespace fcal::test

namespace fcal::test {

// A loop of the given nodes at 2GFC, 6-word port delay, 5 ns/m, `hop_m` per hop.
inline std::unique_ptr<loop::Loop> make_loop(const char* name, std::vector<loop::LoopNode> nodes, double hop_m = 2.0,
                                             phy::LineRate rate = phy::LineRate::G2)
{
    loop::LoopConfig cfg;
    cfg.rate = rate;
    cfg.hop_m = {hop_m};
    cfg.nodes = std::move(nodes);
    return std::make_unique<loop::Loop>(name, cfg);
}

inline double word_ns(const loop::Loop& l) { return l.timing().word_seconds() * 1e9; }  // 40 / baud, unrounded
inline double rt_ns(const loop::Loop& l) { return l.round_trip().to_seconds() * 1e9; }

}  // namespace fcal::test
