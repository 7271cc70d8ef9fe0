#include "loop/edge_link.hpp"

namespace fcal::loop {

using sc_core::sc_time;

bool EdgeLink::replace_same_instant(const sc_time& at, const Word& word)
{
    if (queue_.empty() || queue_.back().at != at || queue_.back().passed_through) return false;
    queue_.back().word = word;
    return true;
}

bool EdgeLink::hold(const sc_time& at, const Word& word)
{
    queue_.push_back({at, word, false, Word{}, true});
    return ++to_process_ == 1;
}

std::optional<sc_time> EdgeLink::next_to_process() const
{
    if (to_process_ == 0) return std::nullopt;
    for (const auto& c : queue_)
        if (!c.passed_through) return c.at;
    return std::nullopt;
}

bool EdgeLink::recall_after(const sc_time& now)
{
    bool recalled = false;
    for (auto& c : queue_)
        if (c.passed_through && c.at > now) {
            c.passed_through = false;
            ++to_process_;
            recalled = true;
        }
    return recalled;
}

bool EdgeLink::truncate_after(const sc_time& cutoff)
{
    bool passed_on = false;
    while (!queue_.empty() && queue_.back().at > cutoff) {
        if (queue_.back().passed_through)
            passed_on = true;
        else
            --to_process_;
        queue_.pop_back();
    }
    return passed_on;
}

}  // namespace fcal::loop
