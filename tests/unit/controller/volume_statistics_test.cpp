// The volume's response times by phase (docs/controller.md, "Degraded mode and rebuild"): each
// request in the phase it arrived in, the mean exact, the p99 by nearest rank within the bounded
// histogram's relative error, against the sample kept whole and sorted here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "fcal/controller/volume_statistics.hpp"

using fcal::controller::VolumePhase;
using fcal::controller::VolumeState;
using fcal::controller::VolumeStatistics;
using fcal::kernel::LogHistogram;
using sc_core::SC_PS;
using sc_core::sc_time;

TEST_CASE("volume statistics: phases, exact means and nearest-rank p99 within the histogram's error", "[controller]")
{
    VolumeStatistics st;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::uint64_t> ps(50'000'000, 40'000'000'000);  // 50 us to 40 ms
    std::vector<double> before, degraded;
    CHECK(st.phase() == VolumePhase::Before);
    for (int i = 0; i < 2500; ++i) {
        const sc_time r(static_cast<double>(ps(rng)), SC_PS);
        st.completed(st.phase(), r);
        before.push_back(r.to_seconds());
    }
    st.state_is(sc_time(1, sc_core::SC_SEC), VolumeState::Degraded);
    CHECK(st.phase() == VolumePhase::Degraded);
    for (int i = 0; i < 777; ++i) {
        const sc_time r(static_cast<double>(ps(rng)), SC_PS);
        st.completed(st.phase(), r);
        degraded.push_back(r.to_seconds());
    }
    st.failed(VolumePhase::Degraded);
    for (auto [phase, sample] : {std::pair{VolumePhase::Before, before}, std::pair{VolumePhase::Degraded, degraded}}) {
        CHECK(st.completed(phase) == sample.size());
        // The mean: the sum in arrival order, as the histogram keeps it.
        CHECK(st.mean_s(phase) == std::accumulate(sample.begin(), sample.end(), 0.0) / static_cast<double>(sample.size()));
        std::sort(sample.begin(), sample.end());
        const auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(sample.size())));
        const double exact = sample[rank - 1];
        CHECK(std::abs(st.p99_s(phase) - exact) <= exact * LogHistogram::kRelativeError);
    }
    CHECK(std::as_const(st).failed(VolumePhase::Degraded) == 1);
    CHECK(st.completed(VolumePhase::Rebuilding) == 0);
    CHECK(st.p99_s(VolumePhase::Rebuilding) == 0.0);
    CHECK(st.mean_s(VolumePhase::Rebuilding) == 0.0);
    st.state_is(sc_time(2, sc_core::SC_SEC), VolumeState::Optimal);
    CHECK(st.phase() == VolumePhase::After);
}
