#include "fcal/loop/edge_link.hpp"

#include <cassert>

namespace fcal::loop {

using sc_core::sc_time;

EdgeLink::Change& EdgeLink::add(const sc_time& at, const Word& word, bool passed_through, bool changes_output, bool replaced, bool waits)
{
    if (size_ == ring_.size()) {
        std::vector<Change> bigger(2 * ring_.size());
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(this->at(i));
        ring_ = std::move(bigger);
        head_ = 0;
    }
    Change& c = ring_[(head_ + size_) & (ring_.size() - 1)];
    ++size_;
    c.at = at;
    c.word = word;
    c.passed_through = passed_through;
    c.changes_output = changes_output;
    c.replaced = replaced;
    c.waits = waits;
    return c;
}

EdgeLink::Change* EdgeLink::same_instant(const sc_time& at)
{
    if (empty() || back().at != at || back().passed_through) return nullptr;
    return &back();
}

bool EdgeLink::hold(const sc_time& at, const Word& word, bool waits)
{
    add(at, word, false, true, false, waits);
    ++to_process_;
    return !waits && ++at_arrival_ == 1;
}

void EdgeLink::stop_waiting(Change& c)
{
    if (!c.waits) return;
    c.waits = false;
    ++at_arrival_;
}

void EdgeLink::stop_all_waiting()
{
    if (to_process_ == at_arrival_) return;  // none waits
    for (std::size_t i = 0; i < size_; ++i)
        if (Change& c = at(i); !c.passed_through) stop_waiting(c);
}

bool EdgeLink::r_rdy_after(const sc_time& t) const
{
    for (std::size_t i = size_; i-- > 0 && at(i).at > t;)
        if (!at(i).passed_through && at(i).word.kind == WordKind::RRdy) return true;
    return false;
}

bool EdgeLink::set_r_rdys_waiting(const sc_time& t, bool waits)
{
    bool changed = false;
    for (std::size_t i = 0; i < size_; ++i) {
        Change& c = at(i);
        if (c.passed_through || c.word.kind != WordKind::RRdy || c.at <= t || c.waits == waits) continue;
        c.waits = waits;
        changed = true;
        if (waits)
            --at_arrival_;
        else
            ++at_arrival_;
    }
    return changed;
}

// Once a change is held, every later one is held too (hold() appends, pass() only when nothing is
// held, recall_after() turns the later ones back): the held ones are the queue's tail.
EdgeLink::Change* EdgeLink::first_held_after(const sc_time& now)
{
    if (to_process_ == 0) return nullptr;
    Change& c = at(size_ - to_process_);
    assert(!c.passed_through);
    return c.at > now ? &c : nullptr;
}

const Word* EdgeLink::output_before_held() const
{
    return size_ == to_process_ ? nullptr : &at(size_ - to_process_ - 1).output();
}

std::optional<sc_time> EdgeLink::next_to_process() const
{
    if (at_arrival_ == 0) return std::nullopt;
    for (std::size_t i = 0; i < size_; ++i)
        if (!at(i).passed_through && !at(i).waits) return at(i).at;
    return std::nullopt;
}

std::optional<sc_time> EdgeLink::first_waiting() const
{
    if (to_process_ == at_arrival_) return std::nullopt;
    for (std::size_t i = 0; i < size_; ++i)
        if (at(i).waits && at(i).word.kind == WordKind::RRdy) return at(i).at;
    return std::nullopt;
}

std::optional<sc_time> EdgeLink::last_waiting() const
{
    if (to_process_ == at_arrival_) return std::nullopt;
    for (std::size_t i = size_; i-- > 0;)
        if (at(i).waits && at(i).word.kind == WordKind::RRdy) return at(i).at;
    return std::nullopt;
}

bool EdgeLink::recall_after(const sc_time& now)
{
    bool recalled = false;
    for (std::size_t i = 0; i < size_; ++i)
        if (Change& c = at(i); c.passed_through && c.at > now) {
            c.passed_through = false;
            ++to_process_;
            ++at_arrival_;
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
            forget_to_process(back());
        pop_back();
    }
    return passed_on;
}

}  // namespace fcal::loop
