#include "fcal/phy/link_timing.hpp"

#include <cmath>
#include <stdexcept>

namespace fcal::phy {

LinkTiming::LinkTiming(LineRate rate, double propagation_ns_per_m, double baud_override)
    : rate_(rate), baud_(baud_override > 0.0 ? baud_override : baud(rate)), propagation_ns_per_m_(propagation_ns_per_m)
{
    if (!(baud_override >= 0.0)) throw std::invalid_argument("baud_override must be >= 0");
    if (!(propagation_ns_per_m >= 0.0)) throw std::invalid_argument("propagation_ns_per_m must be >= 0");
}

sc_core::sc_time LinkTiming::remember(std::uint64_t n) const
{
    // n words = n * 40 / baud seconds, in picoseconds, rounded once (never n times the rounded word).
    const double ps = static_cast<double>(n) * 40.0e12 / baud_;
    const sc_core::sc_time time(std::llround(ps), sc_core::SC_PS);
    remembered_[slot(n)] = Remembered{n, time};
    return time;
}

sc_core::sc_time LinkTiming::cable(double metres) const
{
    if (!(metres >= 0.0)) throw std::invalid_argument("cable length must be >= 0");
    return sc_core::sc_time(std::llround(metres * propagation_ns_per_m_ * 1000.0), sc_core::SC_PS);
}

}  // namespace fcal::phy
