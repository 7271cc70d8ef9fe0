#pragma once
// What an active port sent downstream while ports that only pass words on are folded out of the
// chain behind it (docs/loop.md, "Fast path"): every change, stamped with the instant it
// left the port's output stage, numbered in the order sent. A folded port reads its input from here
// (the changes shifted by its distance from the port) whenever it needs to know what it has seen:
// when it rejoins the chain, when the log is compacted, or when its source changes.
//
// A folded port only repeats, so of a run of changes it needs only what repeating records: the last
// word, the last fill word, whether an IDLE was among them, and when the last primitive or frame it
// repeated ended. Each entry keeps the numbers of the last such words up to it, so that a run of any
// length is summed up in constant time.
//
// Numbers are never given twice: entries taken back (truncate_after) stay as withdrawn ones, so that
// a reader that stopped reading this log at some number before (a folded port whose source changed,
// which pins what it has still to read) never mistakes a later entry for one of its own.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>
#include <systemc>

#include "fcal/loop/lpsm.hpp"
#include "fcal/loop/word.hpp"

namespace fcal::loop {

// A run of changes a port repeated: what its LPSM records of them, and when the words it transmitted
// started and ended.
struct RepeatedRun {
    RepeatedWords words;
    sc_core::sc_time last_at;  // when the last change started (at the port)
    // When the last primitive or frame the port transmitted ended, if it ended within the run
    // (that word may be the one it transmitted before the run).
    std::optional<sc_core::sc_time> primitive_or_frame_end, frame_end;
};

class OutputLog {
public:
    using Seq = std::uint64_t;

    struct Entry {
        sc_core::sc_time at;  // when it left the logging port's output stage
        Word word;
        Seq seq = 0;
        bool withdrawn = false;  // taken back: read as if it were not there
        // 1 + the number of the last IDLE / fill word / primitive or frame / frame up to and including
        // this entry, withdrawn ones aside; 0: none since the log began.
        Seq idle = 0, fill = 0, nonfill = 0, frame = 0;
    };

    // The number of the first entry kept, and the number the next entry will get.
    Seq begin() const { return base_; }
    Seq end() const { return base_ + size_; }
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }

    void push(const sc_core::sc_time& at, const Word& w);
    // The first entry numbered from `from` on (and before `to`) that reaches a point `offset`
    // downstream after `now`; `to` if all have reached it by then.
    Seq first_after(Seq from, Seq to, const sc_core::sc_time& offset, const sc_core::sc_time& now) const;
    // The entries numbered in [from, to), as repeated by a port that transmitted `before` until then,
    // `offset` downstream; nothing if there are none.
    std::optional<RepeatedRun> run(Seq from, Seq to, const Word& before, const sc_core::sc_time& offset) const;
    // Some entry numbered in [from, to) is an IDLE (withdrawn ones aside).
    bool has_idle(Seq from, Seq to) const
    {
        from = std::max(from, begin());
        to = std::min(to, end());
        return to > from && entry(to - 1).idle > from;
    }
    // Every entry numbered in [from, to), oldest first, withdrawn ones aside.
    template <class F>
    void for_each(Seq from, Seq to, F&& f) const
    {
        for (Seq s = std::max(from, begin()); s < std::min(to, end()); ++s)
            if (!entry(s).withdrawn) f(entry(s));
    }
    const Entry& entry(Seq s) const { return at(static_cast<std::size_t>(s - base_)); }
    // Drops the entries that left after `cutoff` (they were recalled); true if there were any.
    bool truncate_after(const sc_core::sc_time& cutoff);
    // Drops the entries numbered before `s` that no pinned reader needs.
    void drop_before(Seq s);
    void clear() { drop_before(end()); }
    // A reader that is no longer among the folded ports behind the logging port still has the
    // entries from `s` on to read: keep them until it unpins.
    void pin(Seq s);
    void repin(Seq from, Seq to);
    void unpin(Seq s);

private:
    // A ring buffer, like EdgeLink's: refilled as fast as it drains, it stops allocating early on.
    Entry& at(std::size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    const Entry& at(std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    Entry& slot(Seq s) { return at(static_cast<std::size_t>(s - base_)); }
    // The first entry not withdrawn numbered `s` or later, before `to` (`to` if none).
    Seq next_standing(Seq s, Seq to) const;

    std::vector<Entry> ring_ = std::vector<Entry>(16);  // size a power of two
    std::size_t head_ = 0, size_ = 0;
    Seq base_ = 0;  // number of the entry at head_
    std::vector<Seq> pins_;
    // The lowest of pins_ (none: the highest number) and how many pins hold it, for drop_before():
    // the pins are many at 64 disks, many of them at one number. Stale once the last of those moved
    // or went, until drop_before() looks again.
    Seq lowest_pin_ = ~Seq{0};
    std::size_t at_lowest_ = 0;
    bool lowest_stale_ = false;
    void join_pin(Seq s);   // a pin now at `s`
    void leave_pin(Seq s);  // a pin no longer at `s`
};

}  // namespace fcal::loop
