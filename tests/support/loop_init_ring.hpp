#pragma once
// The ring the loop initialization tests build (tests/validation/loop_init_running_test.cpp,
// loop_bypass_test.cpp): 2GFC, 2 m hops at 5 ns/m, 6 words of port delay, p = 1 us; node 0 has the
// lowest port name, so it is the master.
#include <vector>

#include "loop_fixture.hpp"

namespace fcal::test {

constexpr double kInitWordS = 40.0 / 2.125e9;  // 2GFC: 40 bits a word
constexpr double kInitCableS = 2.0 * 5e-9;     // 2 m at 5 ns/m
constexpr unsigned kInitPortDelayWords = 6;
constexpr double kInitProcS = 1e-6;            // p

inline loop::LoopConfig init_ring(const std::vector<phy::AlPa>& al_pas)
{
    loop::LoopConfig cfg;
    cfg.rate = phy::LineRate::G2;
    cfg.port_delay_words = kInitPortDelayWords;
    cfg.propagation_ns_per_m = 5.0;
    cfg.hop_m = {2.0};
    for (unsigned i = 0; i < al_pas.size(); ++i) {
        loop::LoopNode n = active_node(al_pas[i]);
        n.port.init.port_name = loop::default_port_name(i);
        n.port.init_frame_processing_s = kInitProcS;
        cfg.nodes.push_back(n);
    }
    return cfg;
}

}  // namespace fcal::test
