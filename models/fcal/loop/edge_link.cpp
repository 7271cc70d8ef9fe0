#include "fcal/loop/edge_link.hpp"

namespace fcal::loop {

using sc_core::sc_time;

void EdgeLink::push_back(Change c)
{
    if (size_ == ring_.size()) {
        std::vector<Change> bigger(2 * ring_.size());
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(at(i));
        ring_ = std::move(bigger);
        head_ = 0;
    }
    ring_[(head_ + size_) & (ring_.size() - 1)] = std::move(c);
    ++size_;
}

bool EdgeLink::replace_same_instant(const sc_time& at, const Word& word)
{
    if (empty() || back().at != at || back().passed_through) return false;
    back().word = word;
    return true;
}

bool EdgeLink::hold(const sc_time& at, const Word& word)
{
    push_back({at, word, false, true, false, Word{}});
    return ++to_process_ == 1;
}

std::optional<sc_time> EdgeLink::next_to_process() const
{
    if (to_process_ == 0) return std::nullopt;
    for (std::size_t i = 0; i < size_; ++i)
        if (!at(i).passed_through) return at(i).at;
    return std::nullopt;
}

bool EdgeLink::recall_after(const sc_time& now)
{
    bool recalled = false;
    for (std::size_t i = 0; i < size_; ++i)
        if (Change& c = at(i); c.passed_through && c.at > now) {
            c.passed_through = false;
            ++to_process_;
            recalled = true;
        }
    return recalled;
}

bool EdgeLink::truncate_after(const sc_time& cutoff)
{
    bool passed_on = false;
    while (!empty() && back().at > cutoff) {
        if (back().passed_through)
            passed_on = true;
        else
            --to_process_;
        pop_back();
    }
    return passed_on;
}

}  // namespace fcal::loop
