#pragma once
// A histogram of non-negative durations with bounded relative error and bounded state, so that
// statistics cost the same memory for any run length (docs/cli.md, "Statistics and the
// measurement window").
//
// Log-linear buckets on integer picoseconds: values below 2^(kSubBits+1) ps have a bucket each;
// above, every octave [2^e, 2^(e+1)) is cut into 2^kSubBits equal buckets. A bucket [lo, lo + w)
// has w <= lo / 2^kSubBits, and a quantile is reported as the middle of its bucket (clamped to the
// exact minimum and maximum), so it is within kRelativeError of the sample value of that rank.
// The count, the sum (hence the mean), the minimum and the maximum are exact.
#include <cstdint>
#include <vector>

namespace fcal::kernel {

class LogHistogram {
public:
    static constexpr unsigned kSubBits = 12;
    static constexpr double kRelativeError = 1.0 / (2 << kSubBits);  // 2^-(kSubBits+1), about 0.012 %

    // The buckets' storage is reserved whole here (for every index a picosecond count can reach:
    // about 1.7 MiB of address space, of which only the pages of buckets in use are touched), so
    // that a value larger than any before takes no allocation in the middle of a run
    // (docs/kernel.md, "No allocation per frame").
    LogHistogram();

    void add(double seconds);  // rounded to the picosecond; negative values count as 0

    std::uint64_t count() const { return count_; }
    double mean() const;  // the exact mean of the values added, 0 when empty
    double min() const;
    double max() const;
    // The p-th percentile (0 < p <= 100) by nearest rank, within kRelativeError; 0 when empty.
    double percentile(double p) const;
    // Buckets in use (for checking that the state is bounded).
    std::size_t buckets() const { return counts_.size(); }

private:
    static std::size_t index_of(std::uint64_t ps);
    static std::uint64_t lower_bound_of(std::size_t index);
    static std::uint64_t width_of(std::size_t index);

    std::vector<std::uint64_t> counts_;  // sized to the largest index seen (capacity: all of them)
    // The counts of each run of 2^kSubBits buckets (an octave above the exact ones): a percentile
    // skips whole octaves instead of walking their 4 096 buckets each.
    std::vector<std::uint64_t> group_counts_;
    std::uint64_t count_ = 0;
    double sum_ = 0;  // seconds, in the order added (the same sum as adding up a stored sample)
    std::uint64_t min_ps_ = 0, max_ps_ = 0;
    double min_s_ = 0, max_s_ = 0;
};

}  // namespace fcal::kernel
