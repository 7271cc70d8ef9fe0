#pragma once
// Counts and times of one port's LPSM (an observer: it never influences the protocol).
#include <cstdint>
#include <systemc>

#include "fcal/loop/lpsm.hpp"

namespace fcal::loop {

struct PortStats {
    std::uint64_t arbitrations_won = 0;
    std::uint64_t arbitrations_without_access = 0;  // began while ACCESS was clear (unfair)
    std::uint64_t transfers = 0;
    std::uint64_t preemptions = 0;  // circuits closed with frames left for the peer (TransmitQueue::preempt)
    std::uint64_t circuits_opened = 0;
    std::uint64_t frames_sent = 0;
    std::uint64_t frames_received = 0;
    std::uint64_t r_rdys_sent = 0;
    std::uint64_t r_rdys_received = 0;
    double arbitration_wait_total_s = 0;  // from wanting the loop to winning it
    double arbitration_wait_max_s = 0;
    double tenancy_s = 0;  // time as loop owner, from winning to giving the loop up
    // Faults (docs/faults.md, "Faults and recovery", "Bit errors on the loop").
    std::uint64_t code_violations = 0;   // hit words received: in what the port consumed, and fill words
    std::uint64_t frames_discarded = 0;  // frames for the port that failed their CRC, own frames come back
    std::uint64_t al_timeouts = 0;       // circuits that waited AL_TIME for the peer
    std::uint64_t circuits_abandoned = 0;  // circuits given up without a CLS from the peer
};

class PortStatistics {
public:
    void on(LpsmObserver::Event e, const sc_core::sc_time& now);
    void frame_sent() { ++stats_.frames_sent; }
    void frame_received() { ++stats_.frames_received; }
    void code_violations(std::uint64_t count) { stats_.code_violations += count; }
    // Start the running maximum afresh (a measurement window opens).
    void restart_maxima() { stats_.arbitration_wait_max_s = 0; }
    const PortStats& stats() const { return stats_; }
    // When the port last asked for the loop (the Requesting event).
    const sc_core::sc_time& requested_at() const { return request_since_; }

private:
    PortStats stats_;
    sc_core::sc_time request_since_, owner_since_;
};

}  // namespace fcal::loop
