#include "fcal/loop/lport.hpp"

#include <algorithm>

namespace fcal::loop {

using sc_core::sc_time;
using sc_core::sc_time_stamp;

std::uint64_t LPort::activations_ = 0;
std::uint64_t LPort::same_instant_limit_ = LPort::kDefaultSameInstantLimit;

LPort::LPort(sc_core::sc_module_name name, const PortConfig& config, const phy::LinkTiming& timing,
             const LoopDirectory& directory)
    : sc_module(name), cfg_(config), timing_(timing), word_(timing.word_time()),
      circuit_hold_(config.circuit_hold_s, sc_core::SC_SEC), directory_(directory),
      queue_(std::make_unique<FifoTransmitQueue>()), lpsm_(config, directory, *this), spacing_(timing)
{
    SC_METHOD(step);
    sensitive << rx_event_ << tx_event_ << kick_event_ << access_word_event_ << al_event_;
    dont_initialize();
    listen_to_queue();
}

void LPort::connect(LPort& downstream, const sc_time& hop_delay)
{
    downstream_ = &downstream;
    hop_delay_ = hop_delay;
}

void LPort::set_transmit_queue(std::unique_ptr<TransmitQueue> queue)
{
    queue_ = std::move(queue);
    listen_to_queue();
}

void LPort::set_bit_errors(double ber, std::uint64_t seed, const sc_time& al_time)
{
    al_time_ = al_time;
    if (ber <= 0.0) return;
    own_errors_ = std::make_unique<BitErrors>(ber, derive_seed(seed, cfg_.al_pa, 0));
    fill_errors_ = std::make_unique<BitErrors>(ber, derive_seed(seed, cfg_.al_pa, 1));
    if (downstream_) out_links_ = directory_.links(cfg_.al_pa, downstream_->al_pa());
    set_word_errors(own_errors_.get());
}

void LPort::set_word_errors(WordErrors* errors)
{
    words_hit_ = errors;
    lpsm_.set_word_errors(errors);
}

void LPort::listen_to_queue()
{
    queue_->set_head_listener([this] { frames_changed(); });
    lpsm_.set_queue(queue_.get());
}

// ---- Receive side and the fast path -------------------------------------------------------------

// Nothing stands in the way of passing a change through at once: the port is not observed, sends
// nothing of its own, and has no earlier change left to process.
bool LPort::can_pass_through() const { return !observed_ && !tx_own_ && !in_.busy() && downstream_; }

void LPort::receive(const sc_time& arrival, const Word& word)
{
    if (in_.replace_same_instant(arrival, word)) return;
    if (can_pass_through()) {
        if (lpsm_.unaffected_by(word)) {
            // Repeated as it is.
            in_.catch_up_to(sc_time_stamp(), [this](const EdgeLink::Change& c) { catch_up(c); });
            in_.pass(arrival, word);
            downstream_->receive(arrival + hop_delay_, word);
            return;
        }
        if (const auto out = lpsm_.fill_replacement(word)) {
            // An arbitrating port's fill word: it transmits `out` from `arrival` on, a change only
            // if it differs from what it sends until then (as update_fill() would decide).
            in_.catch_up_to(sc_time_stamp(), [this](const EdgeLink::Change& c) { catch_up(c); });
            const Word* before = in_.last_output();
            const bool changes = *out != (before ? *before : tx_word_);
            in_.pass_replaced(arrival, word, *out, changes);
            if (changes) downstream_->receive(arrival + hop_delay_, *out);
            return;
        }
    }
    if (in_.hold(arrival, word)) rx_event_.notify(arrival - sc_time_stamp());
}

void LPort::arm_rx_event()
{
    if (const auto at = in_.next_to_process()) rx_event_.notify(*at - sc_time_stamp());
}

// A change this port passed on reaches it now: take note of what it transmitted.
void LPort::catch_up(const EdgeLink::Change& c)
{
    lpsm_.repeated(c.word);
    if (!c.changes_output) return;
    if (fill_errors_) count_fill_errors(c.at);
    spacing_.ended(tx_word_, c.at);
    tx_word_ = c.output();
    tx_since_ = c.at;
}

// The port has something to send: changes it passed on but has not yet received must go through
// its own processing after all.
void LPort::recall_passed_through()
{
    const sc_time now = sc_time_stamp();
    if (!in_.recall_after(now)) return;
    downstream_->truncate_after(now + hop_delay_);
    arm_rx_event();
}

// Everything arriving after `cutoff` came from the upstream port's passing on, which it has
// recalled: drop it, and have the ports downstream drop what this one passed on in turn.
void LPort::truncate_after(const sc_time& cutoff)
{
    if (in_.truncate_after(cutoff)) downstream_->truncate_after(cutoff + hop_delay_);
}

// ---- The layer above ----------------------------------------------------------------------------

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
    lpsm_.release_buffer();
    sample_vcd();
    kick();
}

// The layer above is taken up in the same instant (one delta later, so that its calls never
// re-enter the port's own processing).
void LPort::kick() { kick_event_.notify(sc_core::SC_ZERO_TIME); }

// ---- The port's process -------------------------------------------------------------------------

void LPort::step()
{
    ++activations_;
    const sc_time now = sc_time_stamp();
    guard_against_livelock(now);
    // The IDLE that set ACCESS has been repeated for its one word: arbitration acts from now on.
    if (lpsm_.repeats_access_word() && now >= access_word_end_) lpsm_.access_word_repeated();
    in_.take_arrived(now, [this](const EdgeLink::Change& c) {
        if (c.passed_through)
            catch_up(c);
        else
            lpsm_.receive(c.word);
    });
    arm_rx_event();

    if (tx_own_ && now >= tx_end_) {
        tx_own_ = false;
        ++own_words_ended_;  // progress for the AL_TIME watch
        spacing_.ended(tx_word_, now);
        if (tx_word_.kind == WordKind::Frame) {
            stats_.frame_sent();
            if (user_) user_->frame_sent(*tx_word_.frame);
        }
    } else if (tx_own_) {
        // Woken early (the close timer's wake-up was pending when the word started, and an earlier
        // notification wins): make sure the port wakes when its word ends.
        tx_event_.notify(tx_end_ - now);
    }
    lpsm_.update_arbitration();
    if (lpsm_.repeats_access_word() && access_word_end_ <= now) {
        // It started arbitrating on the IDLE arriving now: that word is repeated, the next replaced.
        access_word_end_ = now + word_;
        access_word_event_.notify(word_);
    }
    transmit();
    update_fill();
    if (words_hit_) watch_al_time(now);
    sample_vcd();
}

// AL_TIME (docs/faults.md, "Faults and recovery", "Bit errors on the loop"): a circuit that makes no progress
// (no word of it received or sent) for AL_TIME while waiting for its peer recovers, so that a lost
// R_RDY, OPN or CLS never leaves a port waiting for ever.
void LPort::watch_al_time(const sc_time& now)
{
    while (lpsm_.awaits_peer()) {
        // Sending a word of its own is progress until the word ends.
        const std::uint64_t progress = lpsm_.progress() + own_words_ended_;
        if (tx_own_ || !al_armed_ || progress != al_progress_) {
            al_armed_ = true;
            al_progress_ = progress;
            al_deadline_ = now + al_time_;
            al_event_.notify(al_time_);  // an earlier pending notification wins; step() re-arms then
            return;
        }
        if (now < al_deadline_) {
            al_event_.notify(al_deadline_ - now);
            return;
        }
        al_armed_ = false;
        lpsm_.al_time_expired();
        transmit();
        update_fill();
    }
    al_armed_ = false;
}

// The fill word sent until `until` crossed the links to the next port, each word a transmission that
// may be hit. A fill word is sent again and again: a hit one is replaced by the next one, a word
// later, so a hit costs a code violation (counted by the receiving port) and nothing else.
void LPort::count_fill_errors(const sc_time& until)
{
    if (!tx_word_.is_fill() || !downstream_) return;
    const auto words = static_cast<std::uint64_t>((until - tx_since_) / word_);
    if (const std::uint64_t n = fill_errors_->transmissions(words * out_links_)) downstream_->stats_.code_violations(n);
}

// What the LPSM decides, sent as soon as word spacing (and the close timer) allow.
void LPort::transmit()
{
    using K = Lpsm::Decision::Kind;
    while (!tx_own_) {
        const Lpsm::Decision d = lpsm_.next();
        if (d.kind == K::None) return;
        if (d.kind != K::Leave) {
            if (!may_send_at(earliest(d))) return;
            send_own(lpsm_.prepare(d));
        }
        lpsm_.commit(d);
    }
}

sc_time LPort::earliest(const Lpsm::Decision& d) const
{
    const sc_time now = sc_time_stamp();
    if (d.kind == Lpsm::Decision::Kind::Frame) return spacing_.frame_earliest(now, tx_word_, tx_own_);
    sc_time t = spacing_.primitive_earliest(now, tx_word_, tx_own_);
    // The close timer: wait a while for another frame for the peer.
    if (d.idle_close) t = std::max(t, spacing_.last_end() + circuit_hold_);
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

void LPort::update_fill()
{
    if (tx_own_) return;
    const Word w = lpsm_.fill();
    if (w != tx_word_) emit(w);
}

void LPort::send_own(const Word& w)
{
    tx_own_ = true;
    tx_end_ = sc_time_stamp() + timing_.words(w.words());
    emit(w);
    tx_event_.notify(tx_end_ - sc_time_stamp());
}

// An activation more in this instant; far too many mean that the port re-arms itself without
// simulated time ever advancing: end the run with an internal error rather than hang.
void LPort::guard_against_livelock(const sc_time& now)
{
    if (now != last_step_at_) {
        last_step_at_ = now;
        steps_at_instant_ = 0;
        return;
    }
    if (++steps_at_instant_ <= same_instant_limit_) return;
    SC_REPORT_ERROR("fcal/loop", (std::string(name()) + ": internal error: livelock: " + std::to_string(steps_at_instant_) +
                                  " activations at " + now.to_string() + " without simulated time advancing")
                                     .c_str());
}

void LPort::emit(const Word& w)
{
    const sc_time now = sc_time_stamp();
    // What the port sends changes now: changes it passed on that reach it later were forwarded as
    // it stood before; they must go through its processing, or the port downstream would receive
    // this change after changes that come later.
    recall_passed_through();
    if (fill_errors_) count_fill_errors(now);
    spacing_.ended(tx_word_, now);
    if (watcher_) {
        const auto lasted = static_cast<std::uint64_t>((now - tx_since_) / word_ + 0.5);
        watcher_->record(now.to_seconds() * 1e9, cfg_.al_pa, lpsm_.state(), lasted, loop::name(tx_word_), loop::name(w));
    }
    tx_word_ = w;
    tx_since_ = now;
    if (downstream_) downstream_->receive(now + hop_delay_, w);
}

// ---- Observers ----------------------------------------------------------------------------------

void LPort::lpsm_event(Event e) { stats_.on(e, sc_time_stamp()); }

void LPort::state_changed(LpsmState from, LpsmState to)
{
    if (user_) user_->state_changed(from, to);
}

void LPort::frame_received(const std::shared_ptr<const LoopFrame>& frame)
{
    stats_.frame_received();
    if (user_) user_->frame_received(frame);
}

void LPort::protocol_error(const std::string& what)
{
    SC_REPORT_ERROR("fcal/loop", (std::string(name()) + ": " + what).c_str());
}

void LPort::sample_vcd()
{
    if (vcd_) vcd_->sample(lpsm_, tx_word_);
}

void LPort::trace(sc_core::sc_trace_file* tf)
{
    vcd_ = std::make_unique<PortVcd>(tf, name());
    observed_ = true;
    sample_vcd();
}

}  // namespace fcal::loop
