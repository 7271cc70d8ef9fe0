// The bounded histogram against the exact statistics of the same sample.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "fcal/kernel/log_histogram.hpp"

using fcal::kernel::LogHistogram;

namespace {

// The exact p-th percentile of a sample by nearest rank: the smallest value with at least p % of the
// sample at or below it (the minimum for p = 0).
double nearest_rank(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
    return v[std::max<std::size_t>(rank, 1) - 1];
}

}  // namespace

TEST_CASE("log histogram: percentiles within the stated relative error, mean and extremes exact")
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    LogHistogram h;
    std::vector<double> sample;
    double sum = 0;
    for (int i = 0; i < 200000; ++i) {
        // Spread over six decades (1 us .. 1 s) so that many octaves are used.
        const double v = 1e-6 * std::pow(10.0, 6.0 * uniform(rng));
        sample.push_back(v);
        sum += v;
        h.add(v);
    }
    CHECK(h.count() == sample.size());
    CHECK(h.mean() == sum / static_cast<double>(sample.size()));
    CHECK(h.max() == nearest_rank(sample, 100));
    CHECK(h.min() == nearest_rank(sample, 0));
    for (double p : {0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
        const double exact = nearest_rank(sample, p);
        INFO("p" << p);
        CHECK(std::abs(h.percentile(p) - exact) <= exact * LogHistogram::kRelativeError + 1e-12);
    }
    // Bounded state: at most 2^kSubBits buckets per octave up to 1 s = 2^40 ps.
    CHECK(h.buckets() <= (40 - LogHistogram::kSubBits + 1) * (std::size_t{1} << LogHistogram::kSubBits));
}

TEST_CASE("log histogram: small and equal values are exact")
{
    LogHistogram h;
    for (int i = 0; i < 10; ++i) h.add(3e-9);  // 3000 ps: an exact bucket
    h.add(5e-9);
    CHECK(h.percentile(50) == Approx(3e-9).epsilon(1e-12));
    CHECK(h.percentile(100) == 5e-9);
    CHECK(LogHistogram().percentile(50) == 0.0);
    CHECK(LogHistogram().mean() == 0.0);
}
