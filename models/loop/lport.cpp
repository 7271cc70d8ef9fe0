#include "loop/lport.hpp"

#include <algorithm>

namespace fcal::loop {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

std::uint64_t LPort::activations_ = 0;

namespace {
constexpr unsigned kFrameGapWords = 6;      // fill words (or primitives) between frames
constexpr unsigned kPrimitiveGapWords = 2;  // fill words before and after a primitive signal
}  // namespace

LPort::LPort(sc_core::sc_module_name name, const PortConfig& config, const phy::LinkTiming& timing,
             const LoopDirectory& directory)
    : sc_module(name), cfg_(config), timing_(timing), word_(timing.word_time()), directory_(directory),
      queue_(std::make_unique<FifoTransmitQueue>()), own_fill_(Word::arb(phy::kArbFairnessFill)),
      free_buffers_(config.incoming_buffers)
{
    SC_METHOD(step);
    sensitive << rx_event_ << tx_event_ << kick_event_;
    dont_initialize();
    vcd_free_buffers_ = static_cast<int>(free_buffers_);
    listen_to(*queue_);
}

void LPort::listen_to(TransmitQueue& queue)
{
    queue.set_head_listener([this] { frames_changed(); });
}

void LPort::connect(LPort& downstream, const sc_time& hop_delay)
{
    downstream_ = &downstream;
    hop_delay_ = hop_delay;
}

bool LPort::can_pass_through(const Word& w) const
{
    if (observed_ || tx_own_ || rx_to_process_ > 0 || !downstream_) return false;
    if (w.is_fill()) {
        const bool quiet = state_ == LpsmState::Monitoring && !arbitrating_ && !fill_originator_ && queue_->empty();
        return quiet && !w.is_arb(cfg_.al_pa);
    }
    return repeating() && !(w.kind == WordKind::Opn && w.y == cfg_.al_pa);
}

void LPort::receive(const sc_time& arrival, const Word& word)
{
    // Two changes at one instant: the first lasted no time at all.
    if (!rx_queue_.empty() && rx_queue_.back().at == arrival && !rx_queue_.back().passed_through) {
        rx_queue_.back().word = word;
        return;
    }
    if (can_pass_through(word)) {
        // Everything queued was passed through too (a port passes nothing while it has changes of
        // its own to process). What has already arrived needs only its bookkeeping: do it now, so
        // that a port that never wakes up keeps only the changes still on their way to it.
        const sc_time now = sc_time_stamp();
        while (!rx_queue_.empty() && rx_queue_.front().at <= now) {
            catch_up(rx_queue_.front());
            rx_queue_.pop_front();
        }
        rx_queue_.push_back({arrival, word, true});
        downstream_->receive(arrival + hop_delay_, word);
        return;
    }
    rx_queue_.push_back({arrival, word, false});
    if (++rx_to_process_ == 1) rx_event_.notify(arrival - sc_time_stamp());
}

void LPort::arm_rx_event()
{
    if (rx_to_process_ == 0) return;
    for (const auto& c : rx_queue_)
        if (!c.passed_through) {
            rx_event_.notify(c.at - sc_time_stamp());
            return;
        }
}

// A change this port passed on reaches it now: take note of what it transmitted.
void LPort::catch_up(const Change& c)
{
    rx_word_ = c.word;
    rx_absorbed_ = false;
    if (c.word.is_fill()) {
        rx_fill_ = c.word;
        handle_fill(c.word);  // bookkeeping only: a quiet port's state does not change
    }
    note_nonfill_end(tx_word_, c.at);
    tx_word_ = c.word;
    tx_since_ = c.at;
    vcd_word_ = static_cast<int>(c.word.kind);
}

// The port has something to send: changes it passed on but has not yet received must go through
// its own processing after all.
void LPort::recall_passed_through()
{
    const sc_time now = sc_time_stamp();
    bool recalled = false;
    for (auto& c : rx_queue_)
        if (c.passed_through && c.at > now) {
            c.passed_through = false;
            ++rx_to_process_;
            recalled = true;
        }
    if (!recalled) return;
    downstream_->truncate_after(now + hop_delay_);
    arm_rx_event();
}

// Everything arriving after `cutoff` came from the upstream port's passing on, which it has
// recalled: drop it, and have the ports downstream drop what this one passed on in turn.
void LPort::truncate_after(const sc_time& cutoff)
{
    bool passed_on = false;
    while (!rx_queue_.empty() && rx_queue_.back().at > cutoff) {
        if (rx_queue_.back().passed_through)
            passed_on = true;
        else
            --rx_to_process_;
        rx_queue_.pop_back();
    }
    if (passed_on) downstream_->truncate_after(cutoff + hop_delay_);
}

void LPort::set_transmit_queue(std::unique_ptr<TransmitQueue> queue)
{
    queue_ = std::move(queue);
    listen_to(*queue_);
}

void LPort::queue_frame(OutgoingFrame out)
{
    const auto& frame = out.frame;
    // An OPN to nobody, or to itself, would come back round to the sender: refuse it here.
    if (frame->destination == cfg_.al_pa || !directory_.on_loop(frame->destination))
        protocol_error("frame for " + phy::al_pa_hex(frame->destination) + ", which is not another port on this loop");
    if (!queue_->can_push(frame->frame_class))
        protocol_error(std::string("transmit queue full for a ") + to_string(frame->frame_class) + " frame (the producer must hold it)");
    queue_->push(std::move(out));  // the queue calls frames_changed() when it matters
}

void LPort::frames_changed()
{
    recall_passed_through();
    kick();
}

void LPort::release_buffer()
{
    if (free_buffers_ >= cfg_.incoming_buffers) protocol_error("release_buffer() without a buffer in use");
    ++free_buffers_;
    vcd_free_buffers_ = static_cast<int>(free_buffers_);
    if (receiving_ && (state_ == LpsmState::Open || state_ == LpsmState::Opened)) ++rrdy_owed_;
    kick();
}

// The layer above is taken up in the same instant (one delta later, so that its calls never
// re-enter the port's own processing).
void LPort::kick() { kick_event_.notify(sc_core::SC_ZERO_TIME); }

void LPort::step()
{
    ++activations_;
    const sc_time now = sc_time_stamp();
    while (!rx_queue_.empty() && rx_queue_.front().at <= now) {
        const Change c = std::move(rx_queue_.front());
        rx_queue_.pop_front();
        if (c.passed_through) {
            catch_up(c);
            continue;
        }
        --rx_to_process_;
        handle_rx(c.word);
    }
    arm_rx_event();

    if (tx_own_ && now >= tx_end_) {
        tx_own_ = false;
        note_nonfill_end(tx_word_, now);
        if (tx_word_.kind == WordKind::Frame) {
            ++stats_.frames_sent;
            if (user_) user_->frame_sent(*tx_word_.frame);
        }
    }
    if (arbitrating_ && queue_->empty()) {
        // Everything went out on a circuit another port opened (full duplex): stop arbitrating.
        arbitrating_ = false;
        vcd_arbitrating_ = false;
        requesting_ = false;
        if (state_ == LpsmState::Arbitrating) set_state(LpsmState::Monitoring);
    }
    if (state_ == LpsmState::Monitoring) maybe_start_arbitration();
    try_transmit();
    update_fill();
}

void LPort::handle_rx(const Word& w)
{
    if (rx_frame_for_us_) {
        // Whatever follows a frame marks the end of its EOF: the frame is complete.
        rx_frame_for_us_ = false;
        ++stats_.frames_received;
        if (user_) user_->frame_received(rx_word_.frame);
    }
    rx_word_ = w;
    rx_absorbed_ = false;
    if (w.is_fill()) {
        rx_fill_ = w;
        handle_fill(w);
        return;
    }
    if (repeating()) {
        if (w.kind == WordKind::Opn && w.y == cfg_.al_pa) {
            rx_absorbed_ = true;
            become_opened(w);
        }
        return;  // everything else passes through
    }
    rx_absorbed_ = true;
    switch (w.kind) {
    case WordKind::Cls: handle_cls(); break;
    case WordKind::RRdy: handle_r_rdy(); break;
    case WordKind::Frame:
        if (w.frame->destination != cfg_.al_pa) protocol_error("received a frame addressed to another port");
        if (!receiving_ || free_buffers_ == 0) protocol_error("received a frame without credit");
        --free_buffers_;
        vcd_free_buffers_ = static_cast<int>(free_buffers_);
        rx_frame_for_us_ = true;
        break;
    case WordKind::Opn: protocol_error("received OPN while in a circuit"); break;
    default: break;
    }
}

void LPort::handle_fill(const Word& w)
{
    if (owner_) {
        // The owner learns from its own fill word whether anybody else wants the loop.
        if (w.is_arb(phy::kArbFairnessFill)) {
            // Nobody replaced ARB(F0): end the access window. The ARB(F0)s sent until now are
            // still on their way round: the tail that must not outlive this tenancy.
            if (own_fill_.is_arb(phy::kArbFairnessFill)) fill_tail_in_flight_ = true;
            own_fill_ = Word::idle();
            others_arbitrating_ = false;
        } else if (w.kind == WordKind::Idle) {
            others_arbitrating_ = false;
            fill_tail_in_flight_ = false;  // our own IDLE came back: the tail has passed
        } else if (w.y != cfg_.al_pa && w.y != phy::kArbFF) {
            others_arbitrating_ = true;
            fill_tail_in_flight_ = false;  // an arbitrating port replaces what is left of it
        }
        return;
    }
    if (state_ == LpsmState::Monitoring) {
        if (w.kind == WordKind::Idle) access_ = true;  // IDLEs around the loop open a new access window
        if (!w.is_arb(phy::kArbFairnessFill)) fill_originator_ = false;
        vcd_access_ = access_;
    } else if (state_ == LpsmState::Arbitrating && w.is_arb(cfg_.al_pa)) {
        win();
    }
}

void LPort::win()
{
    const sc_time now = sc_time_stamp();
    set_state(LpsmState::ArbitrationWon);
    owner_ = true;
    arbitrating_ = false;
    access_ = false;  // one win per access window for a fair port; an unfair one ignores ACCESS
    own_fill_ = Word::arb(phy::kArbFairnessFill);
    others_arbitrating_ = false;
    fill_originator_ = false;
    fill_tail_in_flight_ = false;
    owner_since_ = now;
    ++stats_.arbitrations_won;
    const double wait = (now - request_since_).to_seconds();
    stats_.arbitration_wait_total_s += wait;
    stats_.arbitration_wait_max_s = std::max(stats_.arbitration_wait_max_s, wait);
    requesting_ = false;
    vcd_access_ = access_;
    vcd_arbitrating_ = arbitrating_;
}

void LPort::maybe_start_arbitration()
{
    const OutgoingFrame* next = queue_->front();
    if (!next || arbitrating_) return;
    if (!requesting_) {
        requesting_ = true;
        request_since_ = sc_time_stamp();
    }
    if (!access_ && cfg_.fair && !next->arbitrate_unfairly) return;  // wait for the next access window
    if (!access_) ++stats_.arbitrations_without_access;
    arbitrating_ = true;
    vcd_arbitrating_ = true;
    set_state(LpsmState::Arbitrating);
}

void LPort::become_opened(const Word& opn)
{
    set_state(LpsmState::Opened);
    fill_originator_ = false;
    peer_ = opn.x;  // for OPN(yy) the opener is unknown; only full duplex needs it
    receiving_ = true;
    rrdy_owed_ = free_buffers_;
    sending_ = opn.opn_full_duplex();
    peer_login_credit_ = sending_ ? directory_.login_bb_credit(peer_) : 0;
    credit_ = static_cast<int>(peer_login_credit_);
    rrdy_to_discard_ = peer_login_credit_;
    login_credit_used_ = 0;
    vcd_credit_ = credit_;
}

void LPort::start_circuit_as_opener()
{
    const phy::AlPa dest = queue_->front()->frame->destination;
    send_own(Word::opn(dest, cfg_.al_pa, cfg_.full_duplex));
    set_state(LpsmState::Open);
    ++stats_.circuits_opened;
    peer_ = dest;
    sending_ = true;
    receiving_ = cfg_.full_duplex;
    rrdy_owed_ = receiving_ ? free_buffers_ : 0;
    peer_login_credit_ = directory_.login_bb_credit(dest);
    credit_ = static_cast<int>(peer_login_credit_);
    rrdy_to_discard_ = peer_login_credit_;
    login_credit_used_ = 0;
    vcd_credit_ = credit_;
}

void LPort::handle_cls()
{
    switch (state_) {
    case LpsmState::Open:
    case LpsmState::Opened:
        set_state(LpsmState::ReceivedClose);
        rrdy_owed_ = 0;  // hand out no more credit on a closing circuit
        break;
    case LpsmState::XmittedClose: cls_received_ = true; break;
    default: break;
    }
}

void LPort::handle_r_rdy()
{
    ++stats_.r_rdys_received;
    if (!sending_) return;
    if (rrdy_to_discard_ > 0)
        --rrdy_to_discard_;  // repays a buffer the login credit had already granted
    else
        ++credit_;
    vcd_credit_ = credit_;
}

sc_time LPort::primitive_earliest() const
{
    // A repeated primitive or frame still on the output ends now, when the port starts its own.
    if (!tx_own_ && !tx_word_.is_fill()) return sc_time_stamp() + timing_.words(kPrimitiveGapWords);
    return sent_nonfill_ ? last_nonfill_end_ + timing_.words(kPrimitiveGapWords) : sc_core::SC_ZERO_TIME;
}

sc_time LPort::frame_earliest() const
{
    sc_time t = primitive_earliest();
    if (!tx_own_ && tx_word_.kind == WordKind::Frame) return std::max(t, sc_time_stamp() + timing_.words(kFrameGapWords));
    if (sent_frame_) t = std::max(t, last_frame_end_ + timing_.words(kFrameGapWords));
    return t;
}

// True when the transmitter may start now; otherwise wakes the port when it may.
bool LPort::may_send_at(const sc_time& earliest)
{
    const sc_time now = sc_time_stamp();
    if (earliest <= now) return true;
    tx_event_.notify(earliest - now);
    return false;
}

void LPort::try_transmit()
{
    if (tx_own_) return;
    const bool guaranteed = free_buffers_ >= cfg_.login_bb_credit;  // login credit for the next circuit
    switch (state_) {
    case LpsmState::ArbitrationWon:
    case LpsmState::Transfer:
        if (!queue_->front()) {
            leave_circuit();  // nothing left to open (cannot happen with a well-behaved queue)
            return;
        }
        if (guaranteed && may_send_at(primitive_earliest())) start_circuit_as_opener();
        return;
    case LpsmState::Open:
    case LpsmState::Opened: {
        if (rrdy_owed_ > 0) {
            if (may_send_at(primitive_earliest())) {
                --rrdy_owed_;
                ++stats_.r_rdys_sent;
                send_own(Word::r_rdy());
            }
            return;
        }
        const OutgoingFrame* next = sending_ ? queue_->front_for(peer_) : nullptr;
        const bool preempt = state_ == LpsmState::Open && queue_->preempt(peer_);
        if (next && !preempt) {
            if (credit_ > 0 && may_send_at(frame_earliest())) send_next_frame();
            return;
        }
        if (state_ == LpsmState::Open && may_send_at(primitive_earliest())) {
            if (next) ++stats_.preemptions;  // closing with frames left for the peer
            send_own(Word::cls());
            set_state(LpsmState::XmittedClose);
            rrdy_owed_ = 0;
        }
        return;
    }
    case LpsmState::ReceivedClose: {
        const OutgoingFrame* next = sending_ && credit_ > 0 ? queue_->front_for(peer_) : nullptr;
        if (next) {
            if (may_send_at(frame_earliest())) send_next_frame();
            return;
        }
        if (guaranteed && may_send_at(primitive_earliest())) {
            send_own(Word::cls());
            leave_circuit();
        }
        return;
    }
    case LpsmState::XmittedClose:
        if (cls_received_ && guaranteed) leave_circuit();
        return;
    default: return;
    }
}

// One frame for the peer, on one credit.
void LPort::send_next_frame()
{
    OutgoingFrame f = queue_->pop_for(peer_);
    --credit_;
    if (login_credit_used_ < peer_login_credit_) ++login_credit_used_;
    vcd_credit_ = credit_;
    send_own(Word::frame_of(f.frame));
}

void LPort::leave_circuit()
{
    const sc_time now = sc_time_stamp();
    rrdy_owed_ = 0;
    sending_ = receiving_ = false;
    cls_received_ = false;
    credit_ = 0;
    vcd_credit_ = 0;
    if (owner_) {
        const OutgoingFrame* next = queue_->front();
        const bool nobody_waiting = own_fill_.kind == WordKind::Idle && !others_arbitrating_;
        if (next && (!cfg_.fair || next->transfer_unfairly || nobody_waiting)) {
            ++stats_.transfers;
            set_state(LpsmState::Transfer);
            try_transmit();
            return;
        }
        owner_ = false;
        stats_.tenancy_s += (now - owner_since_).to_seconds();
        // Our ARB(F0) may still be circulating with nobody to remove it only if no other port
        // replaced it; a port that did will win and fill the loop itself. That holds while we still
        // fill with ARB(F0), and also for the tail of it when we switched to IDLE less than a round
        // trip ago.
        const bool other_arb = rx_fill_.kind == WordKind::Arb && rx_fill_.y != phy::kArbFairnessFill && rx_fill_.y != cfg_.al_pa;
        const bool f0_on_the_wire = own_fill_.is_arb(phy::kArbFairnessFill) || fill_tail_in_flight_;
        fill_originator_ = f0_on_the_wire && !others_arbitrating_ && !other_arb;
        fill_tail_in_flight_ = false;
    }
    set_state(arbitrating_ ? LpsmState::Arbitrating : LpsmState::Monitoring);
    if (state_ == LpsmState::Monitoring) maybe_start_arbitration();
}

Word LPort::substitute(const Word& fill) const
{
    if (arbitrating_) {
        const bool higher = fill.kind == WordKind::Arb && phy::higher_priority(fill.y, cfg_.al_pa);
        return higher ? fill : Word::arb(cfg_.al_pa);
    }
    if (state_ == LpsmState::Monitoring) {
        // The last owner removes its ARB(F0) when it comes back unreplaced; a stale ARB of our own
        // is removed likewise, so nothing circulates without an owner.
        if (fill_originator_ && fill.is_arb(phy::kArbFairnessFill)) return Word::idle();
        if (fill.is_arb(cfg_.al_pa)) return Word::idle();
    }
    return fill;
}

Word LPort::desired_fill() const
{
    if (owner_) return own_fill_;
    if (repeating() && !rx_word_.is_fill() && !rx_absorbed_) return rx_word_;
    return substitute(rx_fill_);
}

void LPort::update_fill()
{
    if (tx_own_) return;
    const Word w = desired_fill();
    if (w != tx_word_) emit(w);
}

void LPort::send_own(const Word& w)
{
    tx_own_ = true;
    tx_end_ = sc_time_stamp() + timing_.words(w.words());
    emit(w);
    tx_event_.notify(tx_end_ - sc_time_stamp());
}

// The word being transmitted ends now: remember when the last primitive or frame ended, for the
// spacing rules.
void LPort::note_nonfill_end(const Word& ending, const sc_time& at)
{
    if (ending.is_fill()) return;
    sent_nonfill_ = true;
    last_nonfill_end_ = at;
    if (ending.kind == WordKind::Frame) {
        sent_frame_ = true;
        last_frame_end_ = last_nonfill_end_;
    }
}

void LPort::emit(const Word& w)
{
    const sc_time now = sc_time_stamp();
    note_nonfill_end(tx_word_, now);
    if (watcher_) {
        const auto lasted = static_cast<std::uint64_t>((now - tx_since_) / word_ + 0.5);
        watcher_->record(now.to_seconds() * 1e9, cfg_.al_pa, state_, lasted, loop::name(tx_word_), loop::name(w));
    }
    tx_word_ = w;
    tx_since_ = now;
    vcd_word_ = static_cast<int>(w.kind);
    if (downstream_) downstream_->receive(now + hop_delay_, w);
}

void LPort::set_state(LpsmState s)
{
    if (s == state_) return;
    const LpsmState from = state_;
    state_ = s;
    // Back to monitoring: the fill word arriving now counts as if it had just arrived, so IDLEs
    // that ended the access window while this port was busy in a circuit still open it.
    if (s == LpsmState::Monitoring && rx_fill_.kind == WordKind::Idle) {
        access_ = true;
        vcd_access_ = true;
    }
    vcd_state_ = static_cast<int>(s);
    if (user_) user_->state_changed(from, s);
}

void LPort::protocol_error(const std::string& what) const
{
    SC_REPORT_ERROR("fcal/loop", (std::string(name()) + ": " + what).c_str());
}

void LPort::trace(sc_core::sc_trace_file* tf)
{
    observed_ = true;
    const std::string p = name();
    sc_core::sc_trace(tf, vcd_state_, p + ".lpsm_state");
    sc_core::sc_trace(tf, vcd_access_, p + ".access");
    sc_core::sc_trace(tf, vcd_arbitrating_, p + ".arbitrating");
    sc_core::sc_trace(tf, vcd_word_, p + ".tx_word");
    sc_core::sc_trace(tf, vcd_credit_, p + ".credit");
    sc_core::sc_trace(tf, vcd_free_buffers_, p + ".free_buffers");
}

}  // namespace fcal::loop
