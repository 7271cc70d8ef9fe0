// The bounded histogram against the exact statistics of the same sample.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "fcal/host/split_mix64.hpp"
#include "fcal/sim/log_histogram.hpp"
#include "fcal/sim/statistics.hpp"

using fcal::sim::LogHistogram;

TEST_CASE("log histogram: percentiles within the stated relative error, mean and extremes exact")
{
    fcal::host::SplitMix64 random(7);
    LogHistogram h;
    std::vector<double> sample;
    double sum = 0;
    for (int i = 0; i < 200000; ++i) {
        // Spread over six decades (1 us .. 1 s) so that many octaves are used.
        const double v = 1e-6 * std::pow(10.0, 6.0 * random.uniform());
        sample.push_back(v);
        sum += v;
        h.add(v);
    }
    CHECK(h.count() == sample.size());
    CHECK(h.mean() == sum / static_cast<double>(sample.size()));
    CHECK(h.max() == fcal::sim::percentile(sample, 100));
    CHECK(h.min() == fcal::sim::percentile(sample, 0));
    for (double p : {0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
        const double exact = fcal::sim::percentile(sample, p);
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
