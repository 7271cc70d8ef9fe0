#include "fcal/loop/word_errors.hpp"

#include <cmath>

namespace fcal::loop {

BitErrors::BitErrors(double ber, std::uint64_t seed) : p_word_(word_error_probability(ber)), rng_(seed) {}

// 1 - (1 - ber)^40 without losing the small rates to rounding (1 - 1e-12 is not exact in a double).
double BitErrors::word_error_probability(double ber) { return -std::expm1(40.0 * std::log1p(-ber)); }

std::uint64_t BitErrors::transmissions(std::uint64_t n)
{
    if (n == 0 || p_word_ <= 0.0) return 0;
    return std::binomial_distribution<std::uint64_t>(n, p_word_)(rng_);
}

// SplitMix64's finaliser over the three values: neighbouring inputs give unrelated seeds.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t a, std::uint64_t b)
{
    std::uint64_t z = seed;
    for (std::uint64_t v : {a, b}) {
        z += 0x9E3779B97F4A7C15ULL + v;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
    }
    return z;
}

}  // namespace fcal::loop
