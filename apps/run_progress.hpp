#pragma once
// How far a run has come, on stderr while it runs (docs/cli.md, "Progress"): simulated time, I/Os
// (or an erase job's commands) done of those asked, and an estimate of the wall time left. It only
// reads counters, between the run controller's slices of simulated time, so it changes no result.
#include <chrono>
#include <cstdio>
#include <string>

#include "fcal/sim/storage_system.hpp"

namespace fcal::apps {

class RunProgress {
public:
    // `terminal`: `out` is a terminal, where one line is redrawn in place and erased at the end;
    // elsewhere every update is a line of its own. `interval`: wall time between updates.
    RunProgress(const sim::StorageSystem& system, std::FILE* out, bool terminal, std::chrono::duration<double> interval);
    // Between slices: an update at most once per interval of wall time (the first after one).
    void update();
    // A line of its own (the erase job's tenths) that the progress line must not overwrite.
    void note(const std::string& line);
    // Erases the progress line on a terminal, before the summary.
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    std::string status(double elapsed_s) const;
    void clear();

    const sim::StorageSystem& system_;
    std::FILE* out_;
    bool terminal_;
    Clock::duration interval_;
    Clock::time_point start_, next_;
    unsigned slices_ = 0;
    std::size_t shown_ = 0;  // characters of the progress line now on the terminal
};

}  // namespace fcal::apps
