#include "fcal/kernel/log_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace fcal::kernel {

namespace {

constexpr std::uint64_t kSub = std::uint64_t{1} << LogHistogram::kSubBits;

unsigned msb(std::uint64_t v)
{
    unsigned e = 0;
    while (v >>= 1) ++e;
    return e;
}

}  // namespace

std::size_t LogHistogram::index_of(std::uint64_t ps)
{
    if (ps < 2 * kSub) return static_cast<std::size_t>(ps);
    const unsigned shift = msb(ps) - kSubBits;  // >= 1
    return static_cast<std::size_t>(shift * kSub + (ps >> shift));
}

std::uint64_t LogHistogram::lower_bound_of(std::size_t index)
{
    if (index < 2 * kSub) return index;
    const std::uint64_t shift = index / kSub - 1;
    const std::uint64_t mantissa = index - shift * kSub;  // in [kSub, 2 kSub)
    return mantissa << shift;
}

std::uint64_t LogHistogram::width_of(std::size_t index)
{
    return index < 2 * kSub ? 1 : std::uint64_t{1} << (index / kSub - 1);
}

LogHistogram::LogHistogram()
{
    const std::size_t last = index_of(~std::uint64_t{0});
    counts_.reserve(last + 1);
    group_counts_.reserve((last >> kSubBits) + 1);
}

void LogHistogram::add(double seconds)
{
    const double clamped = std::max(seconds, 0.0);
    const auto ps = static_cast<std::uint64_t>(std::llround(clamped * 1e12));
    const std::size_t i = index_of(ps);
    if (i >= counts_.size()) counts_.resize(i + 1, 0);
    ++counts_[i];
    const std::size_t group = i >> kSubBits;
    if (group >= group_counts_.size()) group_counts_.resize(group + 1, 0);
    ++group_counts_[group];
    if (count_ == 0 || ps < min_ps_) min_ps_ = ps, min_s_ = clamped;
    if (count_ == 0 || ps > max_ps_) max_ps_ = ps, max_s_ = clamped;
    ++count_;
    sum_ += seconds;
}

double LogHistogram::mean() const { return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_); }
double LogHistogram::min() const { return count_ == 0 ? 0.0 : min_s_; }
double LogHistogram::max() const { return count_ == 0 ? 0.0 : max_s_; }

double LogHistogram::percentile(double p) const
{
    if (count_ == 0) return 0.0;
    const auto rank = std::clamp<std::uint64_t>(
        static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_))), 1, count_);
    if (rank == 1) return min_s_;
    if (rank == count_) return max_s_;
    std::uint64_t seen = 0;
    std::size_t group = 0;
    while (seen + group_counts_[group] < rank) seen += group_counts_[group++];
    for (std::size_t i = group << kSubBits; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen < rank) continue;
        const std::uint64_t lo = lower_bound_of(i), w = width_of(i);
        // Exact buckets hold one value; wider ones report their middle.
        const double mid_ps = w == 1 ? static_cast<double>(lo) : static_cast<double>(lo) + static_cast<double>(w) / 2.0;
        return std::clamp(mid_ps * 1e-12, min_s_, max_s_);
    }
    return max_s_;
}

}  // namespace fcal::kernel
