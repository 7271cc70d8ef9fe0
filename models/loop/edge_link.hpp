#pragma once
// The changes on their way to one port (docs/model.md, "The loop: edge changes"): what the upstream
// port transmitted, each change stamped with the instant it reaches this port's output stage.
//
// Fast path. A change the port could not alter is forwarded downstream at once and kept here only
// as `passed_through`, for the port's bookkeeping when it arrives. If the port later finds it must
// process such changes after all, it recalls them (they become changes to process) and has the ports
// downstream truncate what it passed on. Which changes a port cannot alter is the LPSM's answer
// (Lpsm::unaffected_by); this class only keeps the books.
#include <deque>
#include <optional>
#include <systemc>

#include "loop/word.hpp"

namespace fcal::loop {

class EdgeLink {
public:
    struct Change {
        sc_core::sc_time at;
        Word word;
        bool passed_through = false;  // already forwarded downstream; only bookkeeping remains
        // Passed through: what the port transmits from `at` on, and whether that is a change.
        Word out;
        bool changes_output = true;
    };

    // Changes queued that the port has still to process itself: nothing may overtake them.
    bool busy() const { return to_process_ > 0; }

    // Two changes at one instant: the first lasted no time at all. True if `word` replaced the
    // last change to process (which arrives at `at`).
    bool replace_same_instant(const sc_core::sc_time& at, const Word& word);
    // A change the port processes; true if it is the only one queued to process.
    bool hold(const sc_core::sc_time& at, const Word& word);
    // Before passing a change on: everything queued was passed through too, and what has already
    // arrived by `now` is handed to `catch_up` now, so that a port that never wakes up keeps only
    // the changes still on their way to it.
    template <class F>
    void catch_up_to(const sc_core::sc_time& now, F&& catch_up)
    {
        while (!queue_.empty() && queue_.front().at <= now) {
            catch_up(queue_.front());
            queue_.pop_front();
        }
    }
    // What the port will be transmitting after the changes passed through so far (nothing if none
    // is queued: then it is what it transmits now).
    const Word* last_output() const { return queue_.empty() ? nullptr : &queue_.back().out; }
    // A change the port passed through, transmitting `out` from `at` on (`changes_output`: out
    // differs from what it transmitted before, and was forwarded downstream).
    void pass(const sc_core::sc_time& at, const Word& word, const Word& out, bool changes_output)
    {
        queue_.push_back({at, word, true, out, changes_output});
    }
    // Hands every change that has arrived by `now` to `on_change`, oldest first; the change is off
    // the queue by then, so the callee may recall or truncate.
    template <class F>
    void take_arrived(const sc_core::sc_time& now, F&& on_change)
    {
        while (!queue_.empty() && queue_.front().at <= now) {
            const Change c = std::move(queue_.front());
            queue_.pop_front();
            if (!c.passed_through) --to_process_;
            on_change(c);
        }
    }
    // When the next change to process arrives.
    std::optional<sc_core::sc_time> next_to_process() const;
    // Changes passed through that arrive after `now` become changes to process; true if any did.
    bool recall_after(const sc_core::sc_time& now);
    // Drops the changes arriving after `cutoff`; true if some of them had been passed on.
    bool truncate_after(const sc_core::sc_time& cutoff);

private:
    std::deque<Change> queue_;
    unsigned to_process_ = 0;
};

}  // namespace fcal::loop
