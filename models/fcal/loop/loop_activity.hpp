#pragma once
// How the ports of one loop ran as kernel processes: how many times in all (the benchmarks' activations
// per frame), and the livelock guard's limit on runs of one port in one simulated instant
// (docs/loop.md, "The livelock guard"). One per loop, shared by its ports.
#include <cstdint>

namespace fcal::loop {

class LoopActivity {
public:
    // Far above any legitimate count; tests lower it.
    static constexpr std::uint64_t kDefaultSameInstantLimit = 1000000;

    void ran() { ++activations_; }
    std::uint64_t activations() const { return activations_; }
    std::uint64_t same_instant_limit() const { return same_instant_limit_; }
    void set_same_instant_limit(std::uint64_t limit) { same_instant_limit_ = limit; }
    // Ports in loop initialization (INITIALIZING, OPEN-INIT): while any is, no port folds
    // (docs/loop.md, "Fast path"). Loop::start_lip counts the port it starts before its LIP.
    void port_initializing(bool entered) { entered ? ++initializing_ : --initializing_; }
    bool initializing() const { return initializing_ > 0; }
    // Some slot of the enclosure is open (a port pulled or failed, its bypass not yet closed): no
    // port runs E_D_TOV meanwhile (docs/loop_init.md, "Simplifications").
    void set_loop_open(bool open) { loop_open_ = open; }
    bool loop_open() const { return loop_open_; }

private:
    std::uint64_t activations_ = 0;
    std::uint64_t same_instant_limit_ = kDefaultSameInstantLimit;
    unsigned initializing_ = 0;
    bool loop_open_ = false;
};

}  // namespace fcal::loop
