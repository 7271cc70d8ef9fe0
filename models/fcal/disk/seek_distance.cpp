#include "fcal/disk/seek_distance.hpp"

#include <stdexcept>

namespace fcal::disk {

SeekDistance::SeekDistance(unsigned cylinders, double sec_in, double sec_out, double sectors_per_block)
{
    if (cylinders < 2) throw std::invalid_argument("disk cylinders must be >= 2");
    span_ = cylinders - 1.0;
    const double alpha = sec_in / sectors_per_block;
    const double beta = (sec_out - sec_in) / (span_ * sectors_per_block);
    const double g = alpha * span_ + beta / 2.0 * span_ * span_;
    const double v = 6 * alpha * alpha + 6 * alpha * beta * span_ + 2 * beta * beta * span_ * span_;
    a_ = v * span_ / (3 * g * g);
    g_ = -(v + beta * beta * span_ * span_) / (3 * g * g);
    e_ = beta * beta / (3 * g * g);
}

double SeekDistance::density(double x) const { return a_ + g_ * x + e_ * x * x * x; }

double SeekDistance::cumulative(double x) const { return a_ * x + g_ * x * x / 2 + e_ * x * x * x * x / 4; }

double SeekDistance::draw(double u) const
{
    const double target = u * cumulative(span_);
    double lo = 0, hi = span_;
    for (int i = 0; i < 60; ++i) {
        const double mid = (lo + hi) / 2;
        (cumulative(mid) < target ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

}  // namespace fcal::disk
