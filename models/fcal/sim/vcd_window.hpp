#pragma once
// --vcd-window START_US:END_US (docs/cli.md, "Smaller waveforms"): cuts a finished VCD down to a
// window of simulated time. SystemC's trace files have no window of their own, so the run traces
// from its start (up to just after END) and this filter rewrites the file afterwards: the header as it was, then one initial
// dump at START holding every signal's value at START (the changes at START included), then the
// changes after START up to END, then a last time stamp at END (or at the end of the run, if that
// comes first). The result is a plain VCD that starts at START instead of 0.
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

namespace fcal::sim {

class VcdWindow {
public:
    // "START_US:END_US", microseconds of simulated time, 0 <= START < END: ConfigError naming the
    // option otherwise.
    static VcdWindow parse(const std::string& option, const std::string& text);

    double start_us() const { return start_us_; }
    double end_us() const { return end_us_; }

    // Reads a whole VCD from `in` and writes the window to `out`: "" or what is wrong with the input
    // (a file that is not a VCD this filter understands).
    std::string filter(std::istream& in, std::ostream& out) const;

private:
    double start_us_ = 0, end_us_ = 0;
};

}  // namespace fcal::sim
