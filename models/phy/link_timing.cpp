#include "phy/link_timing.hpp"

#include <cmath>
#include <stdexcept>

namespace fcal::phy {

double baud(LineRate rate)
{
    switch (rate) {
    case LineRate::G1: return 1.0625e9;
    case LineRate::G2: return 2.125e9;
    case LineRate::G4: return 4.25e9;
    case LineRate::G8: return 8.5e9;
    }
    throw std::logic_error("unknown line rate");
}

std::string to_string(LineRate rate)
{
    switch (rate) {
    case LineRate::G1: return "1GFC";
    case LineRate::G2: return "2GFC";
    case LineRate::G4: return "4GFC";
    case LineRate::G8: return "8GFC";
    }
    throw std::logic_error("unknown line rate");
}

LineRate parse_line_rate(const std::string& text)
{
    for (LineRate r : {LineRate::G1, LineRate::G2, LineRate::G4, LineRate::G8})
        if (to_string(r) == text) return r;
    throw std::invalid_argument("'" + text + "' is not a line rate (1GFC, 2GFC, 4GFC or 8GFC)");
}

LinkTiming::LinkTiming(LineRate rate, double propagation_ns_per_m)
    : rate_(rate), propagation_ns_per_m_(propagation_ns_per_m)
{
    if (!(propagation_ns_per_m >= 0.0)) throw std::invalid_argument("propagation_ns_per_m must be >= 0");
}

sc_core::sc_time LinkTiming::words(std::uint64_t n) const
{
    // n words = n * 40 / baud seconds, in picoseconds, rounded once (never n times the rounded word).
    const double ps = static_cast<double>(n) * 40.0e12 / baud(rate_);
    return sc_core::sc_time(std::llround(ps), sc_core::SC_PS);
}

sc_core::sc_time LinkTiming::cable(double metres) const
{
    if (!(metres >= 0.0)) throw std::invalid_argument("cable length must be >= 0");
    return sc_core::sc_time(std::llround(metres * propagation_ns_per_m_ * 1000.0), sc_core::SC_PS);
}

}  // namespace fcal::phy
