// The port bypass circuits in the running loop (docs/loop_init.md, "Port bypass circuits"): the
// LPort's part, kept apart from its data path. Loop rewires the ring when a slot opens (a port
// pulled out or failed), closes (the enclosure's bypass, LPB) or takes a port back (insert, LPE),
// always with every port awake (none folded), so a port's chain pointers are its ring neighbours.
#include "fcal/loop/lport.hpp"

#include "fcal/kernel/now.hpp"

namespace fcal::loop {

using sc_core::sc_time;

void LPort::cut_output(const sc_time& now)
{
    if (!downstream_) return;
    end_train_now(now);
    // Changes it passed on that have reached it by `now` are taken note of while it still transmits
    // to the next port: on the full path it counted the fill words they carried as it sent them
    // (count_fill_errors), and every draw of its stream of fill-word errors must come in the same
    // number and size on both paths (docs/faults.md, "Bit errors on the loop").
    in_.catch_up_to(now, [this](const EdgeLink::Change& c) { catch_up(c); });
    // Changes it passed on that arrive after `now` go through its own processing (and are withdrawn
    // downstream), and so does anything it sent that leaves after `now`.
    recall_passed_through(now);
    withdraw_after(now);
    if (planned_ && tx_end_ > now) {
        // The fill word it sent ahead of the end of its own word is gone with the rest: it decides
        // again when the word ends.
        planned_ = false;
        wake_at(tx_end_, now);
    }
    downstream_->upstream_ = nullptr;
    downstream_ = nullptr;
    next_ = nullptr;
}

void LPort::splice_to(LPort& to, const sc_time& hop, const sc_time& now)
{
    downstream_ = &to;
    next_ = &to;
    hop_delay_ = hop;
    to.upstream_ = this;
    // A port put back between `to` and its upstream port until now takes what was on its way from
    // there and had not reached the slot yet: what arrives at `to` later than this port's first word
    // would (otherwise `to` would receive that word before earlier-sent ones, out of order). A link
    // that gets longer (a port out of the loop) drops nothing.
    to.truncate_after(now + hop);
    // Nothing it passed on is on its way any more (cut_output came first): the new link starts with
    // what it transmits now, a change unless it is the fill word `to` received until then. A frame
    // or primitive signal that started before `now` is cut by the switch: what follows of it has no
    // SOF (no start of its word), nothing `to` recognises, and the word is lost (docs/loop_init.md,
    // "Port bypass circuits": splicing); `to` receives its next change. Handed on whole, it would
    // reach `to` a second time when `to` had it already by the old way (a frame through the bypassed
    // port: its destination took it twice, without the credit for the second).
    sc_time since;
    const Word w = output_at(now, AtWordEnd::TheFill, since);
    if (!w.is_fill() && !w.is_sequence() && since < now) return;
    const Word* last_in = to.in_.last_word();
    if (w.is_fill() && w == (last_in ? *last_in : to.lpsm_.last_received())) return;
    to.receive(now + hop, w);
}

void LPort::leave_ring(const sc_time& now)
{
    take_deferred_frames();  // a frame whose EOF arrived was received
    cut_output(now);
    if (upstream_) upstream_->cut_output(now);
    upstream_ = nullptr;
    // What was on its way to it is lost in the open slot (dropping it also keeps a LIP in flight
    // from putting the port into OPEN-INIT, out of the loop for ever).
    in_.truncate_after(sc_core::SC_ZERO_TIME);
    drop_deferred_frames_after(sc_core::SC_ZERO_TIME);
    sequence_repeats_ = 0;
    init_busy_ = false;
    init_timers_.cancel(e_d_tov_);
    lpsm_.leave_loop();
}

void LPort::lose_signal(const phy::OrderedSet& lip)
{
    sequence_repeats_ = 0;
    lpsm_.lose_signal();
    initialize(lip);
}

void LPort::loop_closed()
{
    // (Still ending a word of its own: its first LIP has not left; own_lip_sent() counts it.)
    if (lpsm_.state() == LpsmState::Initializing && !(tx_own_ && tx_end_ > kernel::now())) {
        // Its LIPs go round from now on (lport_init.cpp).
        lpsm_.output_restored();
        if (!lips_out_since_) lips_out_since_ = kernel::now();
    }
    if (init_busy_) update_e_d_tov();
}

void LPort::discard_queued()
{
    end_train_now(kernel::now());  // the frames of its train that started went out
    // Frames handed over ahead and due by now are in the queue; later ones are not yet.
    if (!ahead_.empty()) take_frames_ahead(kernel::now());
    while (const OutgoingFrame* f = queue_->front()) {
        queue_->pop_for(f->frame->destination);
        lpsm_event(Event::FrameDiscarded);
    }
    // A request taken up in this instant is withdrawn, whether the port took it up already (folded:
    // await_idle_folded) or would in its next run: the same either way.
    if (stats_.requested_at() == kernel::now()) {
        lpsm_.withdraw_request();
        if (folded_ && routine_ == Lpsm::Routine::AwaitsIdle) {
            routine_ = Lpsm::Routine::Repeats;
            source_->survey_span();
        }
    }
    if (!ahead_.empty()) plan_frames_ahead(kernel::now());
    kick();  // the LPSM takes note (its bid lapses) in its next run
}

}  // namespace fcal::loop
