#include "fcal/sim/loop_usage.hpp"

#include <algorithm>
#include <cmath>

namespace fcal::sim {

LoopUsage::LoopUsage(unsigned loops, double bin_s) : bin_s_(bin_s), bytes_(loops, 0), ios_(loops, 0), bins_(loops) {}

void LoopUsage::data(unsigned loop, std::uint32_t bytes, double now_s, bool in_window)
{
    if (in_window) bytes_.at(loop) += bytes;
    if (bin_s_ <= 0) return;
    const auto bin = static_cast<std::size_t>(std::floor(now_s / bin_s_));
    for (auto& b : bins_)
        if (b.size() <= bin) b.resize(bin + 1, 0);
    bins_[loop][bin] += bytes;
}

void LoopUsage::completed(unsigned loop, bool in_window)
{
    if (in_window) ++ios_.at(loop);
}

nlohmann::json LoopUsage::loops(double window_s, const std::vector<double>& utilisation, const std::vector<bool>& up) const
{
    nlohmann::json all = nlohmann::json::array();
    for (std::size_t l = 0; l < bytes_.size(); ++l)
        all.push_back({{"loop", l},
                       {"mb_per_s", window_s > 0 ? static_cast<double>(bytes_[l]) / window_s / 1e6 : 0.0},
                       {"iops", window_s > 0 ? static_cast<double>(ios_[l]) / window_s : 0.0},
                       {"utilisation", utilisation.at(l)},
                       {"state", up.at(l) ? "up" : "down"}});
    return all;
}

nlohmann::json LoopUsage::timeline() const
{
    nlohmann::json rates = nlohmann::json::array();
    for (const auto& loop : bins_) {
        nlohmann::json one = nlohmann::json::array();
        for (std::uint64_t b : loop) one.push_back(static_cast<double>(b) / bin_s_ / 1e6);
        rates.push_back(one);
    }
    return {{"bin_ms", bin_s_ * 1e3}, {"mb_per_s", rates}};
}

}  // namespace fcal::sim
