#pragma once
// A disk's own random numbers (access times, stochastic positioning). std::mt19937_64 is fully
// specified by the C++ standard, and the conversions are ours (std:: distributions are
// implementation-defined), so a seed gives the same numbers everywhere.
#include <cmath>
#include <cstdint>
#include <random>

namespace fcal::disk {

class RandomStream {
public:
    explicit RandomStream(std::uint64_t seed) : engine_(seed) {}

    // Uniform on [0, 1), 53 bits.
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    // Exponential with the given mean; 1 - u lies in (0, 1], so the log is finite.
    double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

private:
    std::mt19937_64 engine_;
};

}  // namespace fcal::disk
