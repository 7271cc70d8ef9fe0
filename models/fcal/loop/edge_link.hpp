#pragma once
// The changes on their way to one port (docs/loop.md, "Edge changes"): what the upstream
// port transmitted, each change stamped with the instant it reaches this port's output stage.
//
// Fast path. A change the port could not alter is forwarded downstream at once and kept here only
// as `passed_through`, for the port's bookkeeping when it arrives. If the port later finds it must
// process such changes after all, it recalls them (they become changes to process) and has the ports
// downstream truncate what it passed on. Which changes a port cannot alter is the LPSM's answer
// (Lpsm::unaffected_by); this class only keeps the books.
#include <cstddef>
#include <optional>
#include <vector>
#include <systemc>

#include "fcal/loop/word.hpp"

namespace fcal::loop {

class EdgeLink {
public:
    struct Change {
        sc_core::sc_time at;
        Word word;
        bool passed_through = false;  // already forwarded downstream; only bookkeeping remains
        // Passed through: whether what the port transmits changes at `at`, and whether it
        // transmits `replacement` (an arbitrating port's fill word) rather than `word`.
        bool changes_output = true;
        bool replaced = false;
        Word replacement;
        // To process, but it may wait for the port's next run: it changes nothing the port does
        // before then (Lpsm::may_wait).
        bool waits = false;

        const Word& output() const { return replaced ? replacement : word; }
    };

    // Changes queued that the port has still to process itself: nothing may overtake them.
    bool busy() const { return to_process_ > 0; }
    bool empty() const { return size_ == 0; }
    // Every change queued, oldest first.
    template <class F>
    void for_each(F&& f) const
    {
        for (std::size_t i = 0; i < size_; ++i) f(at(i));
    }

    // Two changes at one instant: the first lasted no time at all. The last change to process, if
    // it arrives at `at` (the caller replaces its word).
    Change* same_instant(const sc_core::sc_time& at);
    // A change the port processes (`waits`: when it next runs); true if no other change to process
    // at its arrival is queued.
    bool hold(const sc_core::sc_time& at, const Word& word, bool waits = false);
    // A waiting change must be processed at its arrival after all.
    void stop_waiting(Change& c);
    // Every waiting change must be processed at its arrival after all.
    void stop_all_waiting();
    // The R_RDYs held that arrive after `t` wait for the port's next run (`waits`: a frame train
    // counts them), or are taken at their arrival; true if any changed.
    bool set_r_rdys_waiting(const sc_core::sc_time& t, bool waits);
    // Some R_RDY held arrives after `t`.
    bool r_rdy_after(const sc_core::sc_time& t) const;
    // The changes passed through that have arrived by `now`, up to the first the port holds to
    // process, are handed to `catch_up` now, oldest first: before passing a change on (everything
    // queued was passed through too), so that a port that never wakes up keeps only the changes
    // still on their way to it, and before its output is cut (LPort::cut_output).
    template <class F>
    void catch_up_to(const sc_core::sc_time& now, F&& catch_up)
    {
        while (!empty() && front().passed_through && front().at <= now) {
            catch_up(front());
            pop_front();
        }
    }
    // What the port will be transmitting after the changes passed through so far (nothing if none
    // is queued: then it is what it transmits now).
    const Word* last_output() const { return empty() ? nullptr : &back().output(); }
    // Some change queued arrives after `t`.
    bool arrives_after(const sc_core::sc_time& t) const { return !empty() && back().at > t; }
    // The last change queued (nothing if none).
    const Word* last_word() const { return empty() ? nullptr : &back().word; }
    // A change the port repeated as it is.
    // A word the port repeated (`changes_output`: it differs from what the port transmitted before,
    // and was forwarded downstream).
    void pass(const sc_core::sc_time& at, const Word& word, bool changes_output = true) { add(at, word, true, changes_output, false); }
    // A fill word the port replaced by `out` (`changes_output`: out differs from what it
    // transmitted before, and was forwarded downstream).
    void pass_replaced(const sc_core::sc_time& at, const Word& word, const Word& out, bool changes_output)
    {
        add(at, word, true, changes_output, true).replacement = out;
    }
    // Hands every change that has arrived by `now` to `on_change`, oldest first; the change is off
    // the queue by then, so the callee may recall or truncate.
    template <class F>
    void take_arrived(const sc_core::sc_time& now, F&& on_change)
    {
        while (!empty() && front().at <= now) {
            const Change c = std::move(front());
            pop_front();
            if (!c.passed_through) forget_to_process(c);
            on_change(c);
        }
    }
    // The first change the port holds to process, if it has not arrived by `now` (every change
    // before it was passed through), and what the port transmits after the changes before it
    // (nothing: what it transmits now). A held change the port finds it may pass on after all
    // becomes a change passed through (`changes_output`; `out` for a replaced fill word).
    Change* first_held_after(const sc_core::sc_time& now);
    const Word* output_before_held() const;
    void pass_held(Change& c, bool changes_output)
    {
        forget_to_process(c);
        c.passed_through = true;
        c.changes_output = changes_output;
    }
    void pass_held_replaced(Change& c, const Word& out, bool changes_output)
    {
        pass_held(c, changes_output);
        c.replaced = true;
        c.replacement = out;
    }
    // When the next change to process at its arrival arrives.
    std::optional<sc_core::sc_time> next_to_process() const;
    // When the first and the last waiting R_RDY arrive (the R_RDYs a port receives are counted: it
    // must take them by the time they arrive).
    std::optional<sc_core::sc_time> first_waiting() const;
    std::optional<sc_core::sc_time> last_waiting() const;
    // Changes passed through that arrive after `now` become changes to process; true if any did.
    bool recall_after(const sc_core::sc_time& now);
    // Drops the changes arriving after `cutoff`; true if some of them had been passed on.
    bool truncate_after(const sc_core::sc_time& cutoff);

private:
    // A ring buffer: a port's queue is refilled as fast as it drains, so after the first few frames
    // it never allocates again (a std::deque would allocate and free a block every few changes).
    Change& at(std::size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    const Change& at(std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    Change& front() { return at(0); }
    Change& back() { return at(size_ - 1); }
    const Change& back() const { return at(size_ - 1); }
    // A new change at the back, written into its slot in place (the slot's replacement is left
    // as it was: it counts only when `replaced`).
    Change& add(const sc_core::sc_time& at, const Word& word, bool passed_through, bool changes_output, bool replaced, bool waits = false);
    void pop_front()
    {
        front().word.frame.reset();  // drop the frame it may hold (a replacement is a fill word)
        head_ = (head_ + 1) & (ring_.size() - 1);
        --size_;
    }
    void pop_back()
    {
        back().word.frame.reset();
        --size_;
    }
    void forget_to_process(const Change& c)
    {
        --to_process_;
        if (!c.waits) --at_arrival_;
    }

    std::vector<Change> ring_ = std::vector<Change>(16);  // size a power of two
    std::size_t head_ = 0, size_ = 0;
    unsigned to_process_ = 0;
    unsigned at_arrival_ = 0;  // of those, the ones that do not wait
};

}  // namespace fcal::loop
