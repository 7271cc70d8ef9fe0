#pragma once
// FC-0 link timing (docs/phy.md, "Line rates and word time"): transmission-word
// time, cable propagation and the per-port
// repeat delay. Every duration the loop uses comes from here. The only part of the physical layer
// that needs SystemC (sc_time); line rates, the codec, ordered sets and AL_PAs do not (fcal_phy_core).
#include <array>
#include <cstdint>
#include <systemc>

#include "fcal/phy/line_rate.hpp"

namespace fcal::phy {

// Durations are kept in SystemC time; the default resolution (1 ps) keeps 8GFC's 4.70588 ns word
// exact to 1 ps, and words are always counted as integers and multiplied, so errors never add up.
class LinkTiming {
public:
    // baud_override > 0 replaces the rate's standard baud (loop.baud_gbps, docs/phy.md, "Line
    // rate override"); the rate keeps naming the speed.
    explicit LinkTiming(LineRate rate, double propagation_ns_per_m = 5.0, double baud_override = 0.0);

    LineRate rate() const { return rate_; }
    double word_seconds() const { return 40.0 / baud_; }
    sc_core::sc_time word_time() const { return words(1); }
    sc_core::sc_time words(std::uint64_t n) const
    {
        const Remembered& r = remembered_[slot(n)];
        return r.words == n ? r.time : remember(n);
    }
    // See line_rate.hpp (SystemC-free).
    static std::uint64_t words_for_bytes(std::uint64_t bytes) { return phy::words_for_bytes(bytes); }
    static std::uint64_t frame_words(std::uint64_t payload_bytes) { return phy::frame_words(payload_bytes); }
    sc_core::sc_time frame_time(std::uint64_t payload_bytes) const { return words(frame_words(payload_bytes)); }
    sc_core::sc_time cable(double metres) const;
    sc_core::sc_time port_delay(unsigned delay_words) const { return words(delay_words); }
    // Character rate in MB/s (10^6 bytes): one byte per 10-bit character.
    double character_mb_per_s() const { return baud_ / 10.0 / 1e6; }
    // The rate's nominal payload bandwidth as Fibre Channel names it: 100 MB/s per 1.0625 GBd.
    double nominal_mb_per_s() const { return 100.0 * baud_ / baud(LineRate::G1); }

private:
    // words(n) as computed once: the loop asks for a handful of word counts (a primitive, the gaps,
    // its frames' sizes) over and over, and the rounding of the exact duration is kept as it is. Slots
    // 0-7 hold n = 0-7; slots 8-15 hold one larger n each (n mod 8), the last asked for.
    struct Remembered {
        std::uint64_t words = 0;  // 0 words take no time: a true entry for slot 0, a miss for every other
        sc_core::sc_time time;
    };
    static std::size_t slot(std::uint64_t n) { return n < 8 ? n : 8 + n % 8; }
    sc_core::sc_time remember(std::uint64_t n) const;  // computes words(n) and keeps it in its slot

    LineRate rate_;
    double baud_;
    double propagation_ns_per_m_;
    mutable std::array<Remembered, 16> remembered_{};
};

}  // namespace fcal::phy
