#pragma once
// The workloads' random numbers: SplitMix64 (Steele, Lea, Flood 2014) with our own conversions, so
// a seed gives the same numbers with every compiler and standard library (std:: distributions are
// implementation-defined).
#include <cmath>
#include <cstdint>

namespace fcal::host {

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // Uniform on [0, 1), 53 bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // Uniform on 0 .. n-1 (n >= 1), without modulo bias.
    std::uint64_t below(std::uint64_t n)
    {
        const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;  // largest multiple of n, exclusive
        std::uint64_t x = next();
        while (x >= limit) x = next();
        return x % n;
    }

    bool bernoulli(double p) { return uniform() < p; }

    // Exponential with the given mean; 1 - u lies in (0, 1], so the log is finite.
    double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

private:
    std::uint64_t state_;
};

}  // namespace fcal::host
