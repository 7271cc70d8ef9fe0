#include "fcal/disk/fixed_mechanism.hpp"

namespace fcal::disk {

const char* to_string(AccessDist dist)
{
    switch (dist) {
    case AccessDist::Uniform: return "uniform";
    case AccessDist::Exponential: return "exponential";
    case AccessDist::Constant: break;
    }
    return "constant";
}

FixedMechanism::FixedMechanism(double mean_access_s, AccessDist dist, double media_bytes_per_s, std::uint64_t seed,
                               std::uint64_t capacity_sectors)
    : mean_(mean_access_s), dist_(dist), rate_(media_bytes_per_s), capacity_(capacity_sectors), random_(seed)
{
}

Positioning FixedMechanism::position(const Access&, double)
{
    Positioning p;
    // Constant draws nothing, so the baseline's results do not depend on the stream.
    p.rotation_s = dist_ == AccessDist::Uniform       ? 2.0 * mean_ * random_.uniform()
                   : dist_ == AccessDist::Exponential ? random_.exponential(mean_)
                                                      : mean_;
    p.media_bytes_per_s = rate_;
    return p;
}

}  // namespace fcal::disk
