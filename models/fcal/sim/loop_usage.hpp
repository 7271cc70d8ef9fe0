#pragma once
// What each loop carried (docs/host.md, "Dual loops and multipath"): the data payload bytes and the
// I/Os completed on it in the measurement window, for the results' `loops`, and, with a bin width,
// each loop's data bytes per bin over the whole run (`loop_timeline`). The I/Os counted are the
// device driver's (a volume's member commands), each on the loop it completed on. No SystemC.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace fcal::sim {

class LoopUsage {
public:
    // `bin_s` 0: no timeline.
    LoopUsage(unsigned loops, double bin_s);

    // Data payload crossed loop `loop` at `now_s`; `in_window`: the measurement window is open.
    void data(unsigned loop, std::uint32_t bytes, double now_s, bool in_window);
    void completed(unsigned loop, bool in_window);

    // One entry per loop: loop, mb_per_s and iops over `window_s`, utilisation (given: its ports'
    // tenancy), state (up or down).
    nlohmann::json loops(double window_s, const std::vector<double>& utilisation, const std::vector<bool>& up) const;
    // {bin_ms, mb_per_s: [loop][bin]}, every loop's list as long as the run's bins.
    nlohmann::json timeline() const;
    bool has_timeline() const { return bin_s_ > 0; }

private:
    double bin_s_;
    std::vector<std::uint64_t> bytes_, ios_;             // in the window
    std::vector<std::vector<std::uint64_t>> bins_;       // [loop][bin]: bytes
};

}  // namespace fcal::sim
