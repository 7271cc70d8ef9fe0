#include "fcal/loop/output_log.hpp"

namespace fcal::loop {

using sc_core::sc_time;

void OutputLog::push(const sc_time& t, const Word& w)
{
    if (size_ == ring_.size()) {
        std::vector<Entry> bigger(2 * ring_.size());
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move(at(i));
        ring_ = std::move(bigger);
        head_ = 0;
    }
    const Seq seq = end();
    // Written into its slot in place.
    Entry& e = at(size_);
    if (size_ > 0) {
        // (A withdrawn entry carries the numbers of the standing ones before it.)
        const Entry& prev = at(size_ - 1);
        e.idle = prev.idle;
        e.fill = prev.fill;
        e.nonfill = prev.nonfill;
        e.frame = prev.frame;
    } else {
        e.idle = e.fill = e.nonfill = e.frame = 0;
    }
    e.at = t;
    e.word = w;
    e.seq = seq;
    e.withdrawn = false;
    const Seq number = seq + 1;
    if (w.kind == WordKind::Idle) e.idle = number;
    if (w.is_fill())
        e.fill = number;
    else
        e.nonfill = number;
    if (w.kind == WordKind::Frame) e.frame = number;
    ++size_;
}

OutputLog::Seq OutputLog::next_standing(Seq s, Seq to) const
{
    while (s < to && entry(s).withdrawn) ++s;
    return s;
}

OutputLog::Seq OutputLog::first_after(Seq from, Seq to, const sc_time& offset, const sc_time& now) const
{
    // What is still on its way is the recent end of the log: search from there.
    from = std::max(from, begin());
    to = std::min(to, end());
    Seq first = to;
    for (Seq s = to; s > from; --s) {
        const Entry& e = entry(s - 1);
        if (e.withdrawn) continue;
        if (e.at + offset <= now) break;
        first = s - 1;
    }
    return first;
}

std::optional<RepeatedRun> OutputLog::run(Seq from, Seq to, const Word& before, const sc_time& offset) const
{
    from = std::max(from, begin());
    to = std::min(to, end());
    Seq last_seq = to;
    while (last_seq > from && entry(last_seq - 1).withdrawn) --last_seq;
    if (last_seq == from) return std::nullopt;
    const Entry& last = entry(--last_seq);
    std::optional<RepeatedRun> out(std::in_place);  // built in place: no copy of a half-set optional
    RepeatedRun& r = *out;
    r.words.last = last.word;
    r.last_at = last.at + offset;
    if (last.fill > from) r.words.last_fill.emplace(entry(last.fill - 1).word);
    r.words.idle = last.idle > from;
    // A word ends when the next change starts: the words before the last one all ended in the run,
    // and so did `before`, when the first one started.
    const sc_time first_at = entry(next_standing(from, to)).at + offset;
    // The last primitive or frame (and frame) before the last word: that word's own numbers, unless
    // it is one itself; then those of the entry before it.
    const Entry* prev = last_seq > from ? &entry(last_seq - 1) : nullptr;
    const Seq nonfill = last.word.is_fill() ? last.nonfill : (prev ? prev->nonfill : 0);
    const Seq frame = last.word.kind != WordKind::Frame ? last.frame : (prev ? prev->frame : 0);
    if (nonfill > from)
        r.primitive_or_frame_end = entry(next_standing(nonfill, to)).at + offset;
    else if (!before.is_fill())
        r.primitive_or_frame_end = first_at;
    if (frame > from)
        r.frame_end = entry(next_standing(frame, to)).at + offset;
    else if (before.kind == WordKind::Frame)
        r.frame_end = first_at;
    return out;
}

bool OutputLog::truncate_after(const sc_time& cutoff)
{
    bool dropped = false;
    std::size_t i = size_;
    while (i > 0) {
        Entry& e = at(i - 1);
        if (!e.withdrawn) {
            if (e.at <= cutoff) break;
            e.withdrawn = true;
            e.word = Word{};  // drop the frame it may hold
            dropped = true;
        }
        --i;
    }
    if (dropped) {
        // Withdrawn entries carry the numbers of the standing ones before them.
        const Entry* standing = i > 0 ? &at(i - 1) : nullptr;
        for (std::size_t k = i; k < size_; ++k) {
            Entry& e = at(k);
            e.idle = standing ? standing->idle : 0;
            e.fill = standing ? standing->fill : 0;
            e.nonfill = standing ? standing->nonfill : 0;
            e.frame = standing ? standing->frame : 0;
        }
    }
    return dropped;
}

void OutputLog::drop_before(Seq s)
{
    if (lowest_stale_) {
        lowest_pin_ = ~Seq{0};
        at_lowest_ = 0;
        for (Seq p : pins_) {
            if (p < lowest_pin_) {
                lowest_pin_ = p;
                at_lowest_ = 0;
            }
            at_lowest_ += p == lowest_pin_;
        }
        lowest_stale_ = false;
    }
    s = std::min(s, lowest_pin_);
    if (s <= base_) return;
    const auto n = static_cast<std::size_t>(std::min<Seq>(s - base_, size_));
    // A dropped slot is overwritten whole by a later push; only the frame it may hold is let go now.
    // The frames among them are found from the last one back, by the numbers the entries keep
    // (withdrawn entries hold none).
    for (Seq frame = n > 0 ? at(n - 1).frame : 0; frame > base_;) {
        Entry& e = slot(frame - 1);
        e.word.frame.reset();
        frame = e.seq > base_ ? entry(e.seq - 1).frame : 0;
    }
    head_ = (head_ + n) & (ring_.size() - 1);
    size_ -= n;
    base_ += n;
}

void OutputLog::repin(Seq from, Seq to)
{
    if (from == to) return;
    const auto it = std::find(pins_.begin(), pins_.end(), from);
    if (it == pins_.end()) return;
    *it = to;
    join_pin(to);
    leave_pin(from);
}

void OutputLog::pin(Seq s)
{
    pins_.push_back(s);
    join_pin(s);
}

void OutputLog::join_pin(Seq s)
{
    if (lowest_stale_) return;
    if (s < lowest_pin_) {
        lowest_pin_ = s;
        at_lowest_ = 0;
    }
    at_lowest_ += s == lowest_pin_;
}

void OutputLog::leave_pin(Seq s)
{
    if (!lowest_stale_ && s == lowest_pin_ && --at_lowest_ == 0) lowest_stale_ = true;
}

void OutputLog::unpin(Seq s)
{
    const auto it = std::find(pins_.begin(), pins_.end(), s);
    if (it == pins_.end()) return;
    *it = pins_.back();
    pins_.pop_back();
    leave_pin(s);
}

}  // namespace fcal::loop
