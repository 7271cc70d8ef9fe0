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
    Entry e{t, w};
    if (size_ > 0) {
        const Entry& prev = at(size_ - 1);
        e.idle = prev.idle;
        e.fill = prev.fill;
        e.nonfill = prev.nonfill;
        e.frame = prev.frame;
    }
    const Seq number = end() + 1;
    if (w.kind == WordKind::Idle) e.idle = number;
    if (w.is_fill())
        e.fill = number;
    else
        e.nonfill = number;
    if (w.kind == WordKind::Frame) e.frame = number;
    at(size_) = std::move(e);
    ++size_;
}

OutputLog::Seq OutputLog::first_after(Seq from, const sc_time& offset, const sc_time& now) const
{
    // What is still on its way is the recent end of the log: search from there.
    Seq s = end();
    while (s > from && (*this)[s - 1].at + offset > now) --s;
    return s;
}

RepeatedRun OutputLog::run(Seq from, Seq to, const Word& before, const sc_time& offset) const
{
    const Entry& last = (*this)[to - 1];
    RepeatedRun r;
    r.words.last = last.word;
    r.last_at = last.at + offset;
    if (last.fill > from) r.words.last_fill = (*this)[last.fill - 1].word;
    r.words.idle = last.idle > from;
    // A word ends when the next change starts: the words before the last one all ended in the run,
    // and so did `before`, when the first one started.
    const Entry* ended = to - 1 > from ? &(*this)[to - 2] : nullptr;
    if (ended && ended->nonfill > from)
        r.primitive_or_frame_end = (*this)[ended->nonfill].at + offset;
    else if (!before.is_fill())
        r.primitive_or_frame_end = (*this)[from].at + offset;
    if (ended && ended->frame > from)
        r.frame_end = (*this)[ended->frame].at + offset;
    else if (before.kind == WordKind::Frame)
        r.frame_end = (*this)[from].at + offset;
    return r;
}

bool OutputLog::truncate_after(const sc_time& cutoff)
{
    bool dropped = false;
    while (size_ > 0 && at(size_ - 1).at > cutoff) {
        at(size_ - 1) = Entry{};  // drop the frame it may hold
        --size_;
        dropped = true;
    }
    return dropped;
}

void OutputLog::drop_before(Seq s)
{
    while (size_ > 0 && base_ < s) {
        at(0) = Entry{};
        head_ = (head_ + 1) & (ring_.size() - 1);
        --size_;
        ++base_;
    }
    if (size_ == 0) base_ = s > base_ ? s : base_;
}

}  // namespace fcal::loop
