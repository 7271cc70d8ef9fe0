#include "run_progress.hpp"

#include <algorithm>
#include <cmath>

namespace fcal::apps {

namespace {

// Slices between looks at the clock: a run of millions of 1 ms slices (hours simulated) should not
// pay for a clock read in each.
constexpr unsigned kSlicesPerLook = 16;

std::string duration_text(double seconds)
{
    const auto s = static_cast<unsigned long long>(std::llround(seconds));
    char buffer[64];
    if (s >= 3600)
        std::snprintf(buffer, sizeof buffer, "%llu h %02llu min", s / 3600, s % 3600 / 60);
    else if (s >= 60)
        std::snprintf(buffer, sizeof buffer, "%llu min %02llu s", s / 60, s % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%llu s", s);
    return buffer;
}

}  // namespace

RunProgress::RunProgress(const sim::StorageSystem& system, std::FILE* out, bool terminal, std::chrono::duration<double> interval)
    : system_(system),
      out_(out),
      terminal_(terminal),
      interval_(std::chrono::duration_cast<Clock::duration>(interval)),
      start_(Clock::now()),
      next_(start_ + interval_)
{
}

std::string RunProgress::status(double elapsed_s) const
{
    const host::Workload& w = system_.workload();
    const std::uint64_t done = w.completed() + w.failed(), asked = w.params().total_ios;
    const double now = sc_core::sc_time_stamp().to_seconds(), limit = system_.config().time_limit_s;
    // The run ends when every I/O is done or at the time limit, whichever comes first: the larger share.
    const double share = std::max(asked > 0 ? static_cast<double>(done) / static_cast<double>(asked) : 0.0, limit > 0 ? now / limit : 0.0);
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, "fcal-sim: %.3f s simulated, %llu of %llu %s done (%.1f %%), ", now,
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(asked),
                  system_.erase_job() ? "commands" : "I/Os", share * 100);
    std::string text = buffer;
    const double left = share > 0 ? elapsed_s * (1 - share) / share : 0.0;
    if (share > 0 && share < 1)
        text += left < 0.5 ? std::string("less than a second left") : "about " + duration_text(left) + " left";
    else
        text += "estimating the time left";
    return text;
}

void RunProgress::update()
{
    if (++slices_ % kSlicesPerLook != 0) return;
    const Clock::time_point now = Clock::now();
    if (now < next_) return;
    next_ = now + interval_;
    const std::string text = status(std::chrono::duration<double>(now - start_).count());
    if (terminal_) {
        // Redrawn in place; spaces cover what a longer previous line left.
        std::fprintf(out_, "\r%s%*s", text.c_str(), static_cast<int>(shown_ > text.size() ? shown_ - text.size() : 0), "");
        shown_ = text.size();
    } else {
        std::fprintf(out_, "%s\n", text.c_str());
    }
    std::fflush(out_);
}

void RunProgress::clear()
{
    if (shown_ == 0) return;
    std::fprintf(out_, "\r%*s\r", static_cast<int>(shown_), "");
    shown_ = 0;
}

void RunProgress::note(const std::string& line)
{
    clear();
    std::fprintf(out_, "%s\n", line.c_str());
    std::fflush(out_);
}

void RunProgress::finish()
{
    clear();
    std::fflush(out_);
}

}  // namespace fcal::apps
