// Loop initialization in the running loop (docs/loop_init.md, "Initialization in the running
// loop"): the LPort's part, kept apart from its data path. The LPSM decides word by word; the port
// times it: a primitive sequence is one change, so the LPSM gets its word again one and two word
// times after it arrived (recognition at the third); an answer leaves no earlier than the port's
// processing time after the word that asked for it (and an originator's LISM not before it sent
// its minimum of LIPs); E_D_TOV is one deadline on the port's timer facility (docs/kernel.md,
// "Timers").
#include "fcal/loop/lport.hpp"

#include <algorithm>

#include "fcal/kernel/now.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

using sc_core::sc_time;

// The LPSM starts sending LIPs of its own by `lpsm_start` (Lpsm::initialize(), or
// Lpsm::e_d_tov_expired() for a new try): the port times them from the word it sends now.
template <class F>
void LPort::start_own_lips(F&& lpsm_start, const sc_time& now)
{
    const bool lips_out = lpsm_.own_lips_out();
    if (!lips_out) lips_out_since_.reset();  // its LIPs from now on (own_lip_sent())
    lpsm_start();
    init_busy_ = true;
    // Its LIPs start when the word it sends now ends (the LPSM counts them from there): now if that word
    // ended already (a port on the fast path takes note of its end, and of the fill word it sent ahead
    // after it, only in its next run; plan_own_word_end()).
    lips_since_ = tx_own_ ? std::max(tx_end_, now) : now;
    // Until then no LIP of its own is out: a LIP like it that arrives meanwhile is another port's, not its
    // own back (LIP(F7,F7) names no sender; docs/loop_init.md, "The LPSM in initialization"). The first
    // that leaves counts them (own_lip_sent()).
    if (!lips_out && tx_own_ && tx_end_ > now) lpsm_.own_lips_lost();
    // Its own LIPs still arriving made it the originator at once (Lpsm::initialize() drops any
    // earlier answer): its LISM waits for its minimum of LIPs, as for LIPs that come back later.
    if (lpsm_.answer_pending()) set_answer_at(now);
}

void LPort::initialize(std::optional<phy::OrderedSet> lip)
{
    wake();
    stop_train(kernel::now());
    take_deferred_frames();  // a frame whose EOF arrived was received before the LIP
    // What arrives from now on, initialization takes as it comes: nothing waits for the port's
    // next run, nor for a frame's slack (its run, one delta later, arms its process afresh).
    drop_deferred_frames_after(kernel::now());
    in_.stop_all_waiting();
    const bool started = !lpsm_.in_initialization();
    const sc_time now = kernel::now();
    start_own_lips([&] { lpsm_.initialize(lip); }, now);
    if (started) recall_passed_through(now);
    kick();
}

// The port starts sending a LIP of its own (INITIALIZING): from the first that leaves on a whole loop,
// LIPs like it that come back are its own (initialize()). LIPs of its own that reach nobody cannot
// come back (docs/loop_init.md, "Port bypass circuits": LIPs lost in the gap), and the LPSM must not
// take a LIP like them that arrives for its own back: LIP(F7,F7) names no sender, and another port's (a
// port just put into its slot, the one after a cut that initializes) would be removed by this port as
// its own, its sender never seeing it back, which keeps the loop in initialization for ever. While the
// loop is open (a slot open, the cable cut) the LIPs a port sends are lost in the gap; those it still
// sends when the loop is whole again go round (loop_closed()).
void LPort::own_lip_sent(const sc_time& now)
{
    if (downstream_ && !activity_.loop_open()) {
        if (!lips_out_since_) {
            lips_out_since_ = now;
            lpsm_.own_lip_left();
        }
    } else if (!lips_out_since_) {
        lpsm_.own_lips_lost();
    }
}

// The loop opens at the output of `cut` (a port pulled out, failed, or the cable cut after it): LIPs of
// its own whose first had not got past `cut` by now are lost in the gap with everything after them.
void LPort::loop_cut_at(const LPort& cut, const sc_time& now)
{
    if (!lips_out_since_) return;
    sc_time to_cut = sc_core::SC_ZERO_TIME;
    for (const LPort* p = this; p != &cut;) {
        to_cut += p->hop_delay_;
        p = p->downstream_;
        if (!p || p == this) return;
    }
    if (*lips_out_since_ + to_cut <= now) return;
    lips_out_since_.reset();
    lpsm_.own_lips_lost();
}

// A change the port processes while a primitive sequence or loop initialization concerns it.
void LPort::take_in_init(const EdgeLink::Change& c)
{
    repeat_sequence(c.at, false);  // the run before this change lasted until it
    sequence_repeats_ = 0;
    init_busy_ = true;
    receive_init_word(c.word, c.at);
    if (c.word.is_sequence()) {
        sequence_word_ = c.word;
        sequence_at_ = c.at + word_;
        sequence_repeats_ = phy::kPrimitiveSequenceRecognition - 1;
    }
}

// The words of the current primitive sequence run, one a word time, that arrive before `limit`
// (or at it, `inclusive`).
void LPort::repeat_sequence(const sc_time& limit, bool inclusive)
{
    while (sequence_repeats_ > 0 && (sequence_at_ < limit || (inclusive && sequence_at_ == limit))) {
        --sequence_repeats_;
        receive_init_word(sequence_word_, sequence_at_);
        sequence_at_ += word_;
    }
}

// The LPSM receives `w`, arrived at `at`; an answer it gives then leaves no earlier than its delay
// after `at`.
void LPort::receive_init_word(const Word& w, const sc_time& at)
{
    const std::uint64_t answers = lpsm_.answers();
    frame_end_ = at;  // the EOF, if w completes a frame (frame_received()), as in run()
    lpsm_.receive(w);
    if (lpsm_.answers() == answers || !lpsm_.answer_pending()) return;
    set_answer_at(at);
}

// The answer the LPSM has just given leaves no earlier than its delay after `at` and, from an
// originator, than its minimum of LIPs.
void LPort::set_answer_at(const sc_time& at)
{
    answer_at_ = at + sc_time(lpsm_.answer_delay_s(), sc_core::SC_SEC);
    if (lpsm_.answer_min_lips() > 0) answer_at_ = std::max(answer_at_, lips_since_ + lpsm_.answer_min_lips() * word_);
}

// An originator sends IDLE in place of its LIPs once it has sent the minimum of them
// (Lpsm::sends_minimum_lips()).
void LPort::end_minimum_lips(const sc_time& now)
{
    if (!lpsm_.sends_minimum_lips()) return;
    const sc_time end = lips_since_ + lpsm_.answer_min_lips() * word_;
    if (now >= end) lpsm_.minimum_lips_sent();
    else wake_at(end, now);
}

// At the end of the port's step: a wake-up for the rest of a primitive sequence run, and E_D_TOV.
void LPort::after_init_step(const sc_time& now)
{
    init_busy_ = sequence_repeats_ > 0 || lpsm_.in_initialization();
    if (sequence_repeats_ > 0) wake_at(sequence_at_, now);
    update_e_d_tov();
}

// E_D_TOV runs while the port waits in OPEN-INIT on a loop that is whole, from the last progress on.
void LPort::update_e_d_tov()
{
    if (lpsm_.awaits_init() && !activity_.loop_open()) {
        if (!init_timers_.is_running(e_d_tov_) || lpsm_.progress() != e_d_tov_progress_) {
            init_timers_.cancel(e_d_tov_);
            e_d_tov_ = init_timers_.start(sc_time(cfg_.e_d_tov_s, sc_core::SC_SEC), 0);
            e_d_tov_progress_ = lpsm_.progress();
        }
    } else {
        init_timers_.cancel(e_d_tov_);
    }
}

// E_D_TOV passed in a wait of OPEN-INIT without progress: the port abandons this initialization and
// initializes (docs/loop_init.md, "Timers").
void LPort::e_d_tov_expired()
{
    if (!lpsm_.awaits_init() || lpsm_.progress() != e_d_tov_progress_ || activity_.loop_open()) return;
    start_own_lips([this] { lpsm_.e_d_tov_expired(); }, kernel::now());
    kick();
}

}  // namespace fcal::loop
