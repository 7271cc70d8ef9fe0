#include "fcal/disk/seek_curve.hpp"

#include <cmath>
#include <stdexcept>

namespace fcal::disk {

SeekCurve::SeekCurve(unsigned cylinders, double min_s, double max_s)
{
    if (cylinders < 3) throw std::invalid_argument("disk cylinders must be >= 3 for a seek curve");
    if (!(min_s >= 0) || !(max_s >= min_s)) throw std::invalid_argument("disk seek times must satisfy 0 <= min <= max");
    const double r = std::sqrt(static_cast<double>(cylinders - 1));
    a_ = (min_s * r - max_s) / (r - 1.0);
    b_ = (max_s - min_s) / (r - 1.0);
}

double SeekCurve::seconds(double distance) const { return distance > 0 ? a_ + b_ * std::sqrt(distance) : 0.0; }

}  // namespace fcal::disk
