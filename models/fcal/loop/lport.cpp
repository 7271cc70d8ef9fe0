#include "fcal/loop/lport.hpp"

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <stdexcept>

#include "fcal/kernel/now.hpp"

namespace fcal::loop {

using sc_core::sc_time;

LPort::LPort(sc_core::sc_module_name name, const PortConfig& config, const phy::LinkTiming& timing,
             const LoopDirectory& directory, LoopActivity& activity)
    : sc_module(name), cfg_(config), timing_(timing), word_(timing.word_time()),
      circuit_hold_(config.circuit_hold_s, sc_core::SC_SEC), directory_(directory), activity_(activity),
      queue_(std::make_unique<FifoTransmitQueue>()), lpsm_(config, directory, *this), spacing_(timing), train_(timing),
      init_timers_("init_timers", [this](int&) { e_d_tov_expired(); })
{
    SC_METHOD(step);
    sensitive << rx_event_ << tx_event_ << kick_event_ << access_word_event_ << al_event_;
    dont_initialize();
    SC_METHOD(admit_frames_ahead);
    sensitive << ahead_event_;
    dont_initialize();
    listen_to_queue();
}

void LPort::connect(LPort& downstream, const sc_time& hop_delay)
{
    downstream_ = &downstream;
    hop_delay_ = hop_delay;
    next_ = &downstream;
    downstream.upstream_ = this;
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
    // Hit fill words are counted on the link to the next port, and own words may come back: every
    // port stays in the chain.
    fold_allowed_ = false;
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

namespace {

// What decides whether a word is a change after the fill words are replaced: a fill word itself, or
// any primitive signal for everything else.
Word fill_or_other(const Word& w) { return w.is_fill() ? w : Word::r_rdy(); }

}  // namespace

// What the port transmits for `word` if it may pass it on at once: the word as it is (it cannot
// alter it: Lpsm::unaffected_by), or an arbitrating port's fill word (`replacement`, set here:
// Lpsm::fill_replacement); nothing if the port must process it itself.
const Word* LPort::passes_as(const Word& word, Word& replacement) const
{
    if (lpsm_.unaffected_by(word)) return &word;
    if (const auto out = lpsm_.fill_replacement(word)) {
        replacement = *out;
        return &replacement;
    }
    return nullptr;
}

// Passing `out` on changes what the port transmits after `before` (fill_or_other()) unless it is the
// fill word it transmits already (as update_fill() would decide; on a ring of a few words, that fill
// word would otherwise come round to the port and go on round again and again in the same instant).
bool LPort::changes_output(const Word& out, const Word& before) { return !(out.is_fill() && out == before); }

// Nothing stands in the way of passing a change through at once: the port is not observed, sends
// nothing of its own, and has no earlier change left to process.
bool LPort::can_pass_through() const { return !observed_ && !tx_own_ && !train_.live() && !in_.busy() && downstream_; }

void LPort::receive(const sc_time& arrival, const Word& word)
{
    if (folded_) rejoin();  // only a test hands a folded port a change; the chain never does
    const sc_time now = kernel::now();
    if (planned_ && now > tx_end_ && !train_.live()) realize_own_word_end();
    if (EdgeLink::Change* same = in_.same_instant(arrival)) {
        if (train_.live()) end_train_soon();  // it may have counted the change it replaces
        same->word = word;  // the change it replaces lasted no time at all
        if (same->waits) {
            in_.stop_waiting(*same);
            rx_event_.notify(arrival - now);
        }
        return;
    }
    if (train_.live() && train_.end() != FrameTrain::End::Frozen) {
        if (word.kind == WordKind::RRdy) {
            // Credit for the train's next frame from its arrival; the port counts it when it next runs.
            in_.hold(arrival, word, true);
            train_.r_rdy(arrival);
            if (train_.end() == FrameTrain::End::Credit) extend_train(now);
            return;
        }
        // A fill word that changes nothing it does (Lpsm::may_wait) waits as it would behind the
        // R_RDYs and fill words a train holds; anything else ends the train.
        if (word.is_fill() && lpsm_.may_wait(word, train_.last_fill())) {
            in_.hold(arrival, word, true);
            train_.fill_held(word);
            return;
        }
        end_train_soon();
    }
    if (can_pass_through()) {
        Word replacement;
        if (const Word* out = passes_as(word, replacement)) {
            in_.catch_up_to(now, [this](const EdgeLink::Change& c) { catch_up(c); });
            const Word before = fill_or_other(last_sent());
            const bool changes = changes_output(*out, before);
            if (out == &replacement)
                in_.pass_replaced(arrival, word, replacement, changes);
            else
                in_.pass(arrival, word, changes);
            if (changes) forward(arrival, *out, before);
            if (++passed_since_run_ >= kFoldAfterPassing) try_fold();
            return;
        }
    }
    // Inside its own run (a change that came round the loop from what it sent) the port arms its
    // process at the end of the run (arm_rx_event), which spares the kernel a notification that the
    // earlier one it makes then would cancel.
    sc_time frame_deadline;
    if (in_.hold(arrival, word, may_wait(arrival, word, frame_deadline)) && !running_) rx_event_.notify(arrival - now);
    if (frame_deadline > arrival) {
        deferred_frames_.push_back({arrival, frame_deadline});
        if (!running_) rx_event_.notify(frame_deadline - now);  // an earlier notification wins: arm_rx_event() re-arms then
    }
}

// At the end of a run the port has processed everything that has arrived. Changes it holds that
// arrive later were handed to it while it still held an earlier one, so they were held too: had they
// been handed to it now, it would pass on those it cannot alter at once (receive()). It does so now,
// in order, up to the first it must process itself; otherwise a port handed two changes per run of
// the port upstream, with the hop longer than the words between them, would never stop processing
// changes one by one (docs/loop.md, "Fast path").
void LPort::pass_held_changes(const sc_time& now)
{
    if (observed_ || tx_own_ || train_.live() || !downstream_) return;
    while (EdgeLink::Change* c = in_.first_held_after(now)) {
        Word replacement;
        const Word* out = passes_as(c->word, replacement);
        if (!out) return;
        const Word* passed = in_.output_before_held();
        const Word before = fill_or_other(passed ? *passed : tx_word_);
        const bool changes = changes_output(*out, before);
        const sc_time at = c->at;
        const Word sent = *out;  // forward() may reach this port again round a short ring
        if (out == &replacement)
            in_.pass_held_replaced(*c, replacement, changes);
        else
            in_.pass_held(*c, changes);
        if (changes) forward(at, sent, before);
    }
}

// A change this port must process may wait for its next run when the port runs by then anyway and
// the change alters nothing it does before (Lpsm::may_wait), judged on what the port will have
// received by then. Behind a change that alters the LPSM's state (CLS, OPN): never. As the word after a
// frame for the port (it completes that frame, held or already being received): only within the
// frame's slack (PortUser::frame_slack), `frame_deadline` then being when the slack ends. An R_RDY:
// only if the port runs by its arrival anyway, and, when it has frames to send and no credit, only
// while it sends a word of its own it planned nothing past.
bool LPort::may_wait(const sc_time& arrival, const Word& word, sc_time& frame_deadline) const
{
    if (observed_ || words_hit_) return false;
    const Word* last_fill = nullptr;
    const Word* last = nullptr;
    bool alters_state = false;
    in_.for_each([&](const EdgeLink::Change& c) {
        if (c.passed_through) return;
        last = &c.word;
        if (c.word.is_fill())
            last_fill = &c.word;
        else if (c.word.kind != WordKind::RRdy && c.word.kind != WordKind::Frame)
            alters_state = true;
    });
    const bool completes_frame = last ? last->kind == WordKind::Frame : lpsm_.receiving_frame();
    if (alters_state) return false;
    // An R_RDY the LPSM waits for (it has frames to send and no credit) changes nothing while the
    // port sends a word of its own that it did not plan past: the port runs at the word's end, when
    // it decides what follows, and takes the R_RDY first.
    const bool credit_for_later = word.kind == WordKind::RRdy && !completes_frame && !running_ && lpsm_.credit().sending() &&
                                  !lpsm_.repeating() && tx_own_ && !planned_ && arrival <= tx_end_;
    if (!lpsm_.may_wait(word, last_fill) && !credit_for_later) return false;
    if (completes_frame) {
        // Only a frame for this port and its layer above (not one passing through, nor a loop
        // initialization frame) whose layer above has slack: the frame held, or the one the LPSM
        // receives (a run took its start before this word arrived: a sender without a train sends
        // its frames word by word, as they go out). Not in initialization, which takes every word
        // as it comes.
        if (init_busy_ || lpsm_.in_initialization()) return false;
        const LoopFrame* frame = last ? last->frame.get() : lpsm_.last_received().frame.get();
        if (!frame || !user_ || frame->destination != cfg_.al_pa || frame->loop_init()) return false;
        const sc_time slack = user_->frame_slack(*frame);
        if (slack == sc_core::SC_ZERO_TIME) return false;
        frame_deadline = arrival + slack;
        return true;
    }
    // A frame's effect waits for the word that completes it, which comes in time; a fill word's only
    // for the port's next decision. An R_RDY is counted: the port must run by the time it arrives.
    return word.kind != WordKind::RRdy || (wake_at_ && arrival <= *wake_at_);
}

// The port's process runs at `t` (or earlier: an earlier notification wins).
void LPort::wake_at(const sc_time& t, const sc_time& now)
{
    tx_event_.notify(t - now);
    if (!wake_at_ || t < *wake_at_) wake_at_ = t;
}

// The last change this port sent downstream: the last one it passed through, else what it
// transmits.
const Word& LPort::last_sent() const
{
    const Word* passed = in_.last_output();
    return passed ? *passed : tx_word_;
}

// The process runs when the next change to process arrives, and by the time the last waiting one
// has arrived (if it would not anyway).
void LPort::arm_rx_event(const sc_time& now)
{
    auto at = in_.next_to_process();
    // (A train counts the R_RDYs that wait: LPort::receive.)
    if (const auto last = in_.last_waiting(); last && !train_.live() && !(wake_at_ && *last <= *wake_at_)) {
        const sc_time first = *in_.first_waiting();
        at = at ? std::min(*at, first) : first;
    }
    if (!deferred_frames_.empty()) {
        const sc_time& deadline = deferred_frames_.front().deadline;
        at = at ? std::min(*at, deadline) : deadline;
    }
    if (at) rx_event_.notify(*at - now);
}

// Frames whose EOF has arrived but which the port takes within their slack are taken now, before
// something changes what the port does with what it receives (initialization, leaving the ring).
void LPort::take_deferred_frames()
{
    if (running_ || deferred_frames_.empty() || deferred_frames_.front().eof > kernel::now()) return;
    run(kernel::now());
}

void LPort::drop_deferred_frames_after(const sc_time& cutoff)
{
    while (!deferred_frames_.empty() && deferred_frames_.back().eof > cutoff) deferred_frames_.pop_back();
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
void LPort::recall_passed_through(const sc_time& now)
{
    if (!in_.recall_after(now)) return;
    withdraw_after(now);
    arm_rx_event(now);
}

// Everything arriving after `cutoff` came from the upstream port's passing on, which it has
// recalled: drop it, and have the ports downstream drop what this one passed on in turn.
void LPort::truncate_after(const sc_time& cutoff)
{
    if (train_.live() && in_.r_rdy_after(cutoff)) end_train_soon();  // its train counted that credit
    drop_deferred_frames_after(cutoff);
    if (in_.truncate_after(cutoff)) withdraw_after(cutoff);
}

// What this port sent downstream after `t` (at its output stage) is withdrawn: from its log, from
// the folded ports of its span and from the ports downstream.
void LPort::withdraw_after(const sc_time& t)
{
    if (!log_.empty()) log_.truncate_after(t);  // also for readers that have moved on
    for (LPort* r = next_; r != downstream_; r = r->next_) r->clip_input_after(t + r->offset_);
    if (downstream_) downstream_->truncate_after(t + hop_delay_);  // none: its output is cut (lport_bypass.cpp)
}

// Every change leaves for the next active port, through the folded ports of the span: it is logged
// for them, its fill word replaced as their arbitrating ones replace it, and it goes on only if it
// is still a change then (`before`: what this port sent before, fill_or_other()). A word that names
// a folded port, or an IDLE for one that waits for the access window, brings that port back into
// the chain first.
void LPort::forward(const sc_time& at, const Word& w, const Word& before)
{
    if (span_size_ > 0) {
        if (w.kind == WordKind::Idle) {
            if (idle_waker_) idle_waker_->rejoin();
        } else if ((w.kind == WordKind::Opn || w.kind == WordKind::Arb) && span_.test(w.y)) {
            wake_in_span(w);
        }
    }
    if (span_size_ == 0) {
        downstream_->receive(at + hop_delay_, w);
        return;
    }
    log_.push(at, w);
    if (log_.size() >= compact_at_) compact_log();
    if (span_best_ == kNoArbitrator || !w.is_fill()) {
        downstream_->receive(at + hop_delay_, w);
        return;
    }
    const Word out = arbitrating_fill(w, span_best_);
    if (!before.is_fill() || out != arbitrating_fill(before, span_best_)) downstream_->receive(at + hop_delay_, out);
}

// ---- Folding (docs/loop.md, "Fast path") ---------------------------------------------

// A port whose LPSM has a routine for what arrives, and that has nothing of its own on the wire or
// left to process, leaves the chain. Watched or traced ports stay, and so does the last active port.
// Asked once the port has passed on kFoldAfterPassing changes since it last ran (receive()).
void LPort::try_fold()
{
    if (!fold_allowed_ || observed_ || activity_.initializing() || tx_own_ || words_hit_ || !upstream_ || upstream_ == this || in_.busy()) return;
    const Lpsm::Routine r = lpsm_.routine();
    if (r == Lpsm::Routine::Acts) return;
    routine_ = r;
    fold();
}

void LPort::fold()
{
    LPort* const up = upstream_;
    // The folded ports behind this one read the upstream port's log from now on (after what they
    // still have to read of this one's).
    for (LPort* r = next_; r != downstream_; r = r->next_) r->switch_source(up, r->offset_ + up->hop_delay_);
    log_.clear();  // but what they have still to read
    compact_at_ = kCompactEntries;
    // Its own input: what its EdgeLink holds (passed through already), then the upstream port's log.
    source_ = up;
    source_pos_ = up->log_.end();
    offset_ = up->hop_delay_;
    up->downstream_ = downstream_;
    up->hop_delay_ += hop_delay_;
    downstream_->upstream_ = up;
    folded_ = true;
    clear_span();
    up->survey_span();
}

// Back into the chain, knowing everything that reached it, with what is still on its way to it as
// changes it passed through (as the fast path would have them), so that it may recall them.
void LPort::rejoin()
{
    LPort* const up = source_;
    passed_since_run_ = 0;
    materialize();
    // The folded ports behind this one read this port's log from now on.
    for (LPort* r = next_; r != up->downstream_; r = r->next_) r->switch_source(this, r->offset_ - offset_);
    downstream_ = up->downstream_;
    hop_delay_ = up->hop_delay_ - offset_;
    downstream_->upstream_ = this;
    upstream_ = up;
    up->downstream_ = this;
    up->hop_delay_ = offset_;
    source_ = nullptr;
    folded_ = false;
    up->survey_span();
    survey_span();
    if (up->span_size_ == 0) up->log_.clear();
}

void LPort::clear_span()
{
    span_.reset();
    span_size_ = 0;
    span_best_ = kNoArbitrator;
    idle_waker_ = nullptr;
}

// The folded ports between this port and the next active one: which they are, the highest-priority
// ARB among the arbitrating ones before each of them and among all, and the first one an IDLE
// would start arbitrating.
void LPort::survey_span()
{
    clear_span();
    for (LPort* r = next_; r != downstream_; r = r->next_) {
        span_.set(r->al_pa());
        ++span_size_;
        r->arb_before_ = span_best_;
        if (r->routine_ == Lpsm::Routine::AwaitsIdle && span_best_ == kNoArbitrator && !idle_waker_) idle_waker_ = r;
        if (r->routine_ == Lpsm::Routine::ReplacesFill) span_best_ = std::min(span_best_, r->al_pa());
    }
}

// An OPN or ARB naming a folded port of the span: the port rejoins if the word reaches it (an ARB
// of lower priority than an arbitrating port before it is replaced on the way).
void LPort::wake_in_span(const Word& w)
{
    for (LPort* r = next_; r != downstream_; r = r->next_) {
        if (r->al_pa() != w.y) continue;
        if (w.kind == WordKind::Opn || phy::higher_priority(w.y, r->arb_before_)) r->rejoin();
        return;
    }
}

// A folded port that only repeats is given its first frame. While the access window is closed (no
// IDLE has reached it since it last won) and no IDLE is on its way to it, taking up the request only
// leaves it waiting for the next window (Lpsm::request_awaits_idle): it takes it up here, in the
// instant of the request as its run would, and stays folded in the AwaitsIdle routine, the first
// IDLE that reaches it bringing it back (its source wakes the first such port of its span with no
// arbitrating port before it: survey_span()) (docs/loop.md, "Fast path"). False: it must rejoin.
bool LPort::await_idle_folded()
{
    if (routine_ != Lpsm::Routine::Repeats) return false;
    settle();
    if (!lpsm_.request_awaits_idle() || idle_on_its_way()) return false;
    lpsm_.update_arbitration();
    routine_ = Lpsm::Routine::AwaitsIdle;
    source_->survey_span();
    return true;
}

// An IDLE has still to reach this folded port: in what its EdgeLink holds after settle(), or among
// the entries of the logs it has still to read (an IDLE that an arbitrating port before it replaces
// counts too: the check errs on the side of rejoining).
bool LPort::idle_on_its_way() const
{
    bool idle = false;
    in_.for_each([&](const EdgeLink::Change& c) { idle = idle || c.word.kind == WordKind::Idle; });
    for (const Feed& f : feeds_) idle = idle || f.owner->log_.has_idle(f.pos, f.end);
    return idle || source_->log_.has_idle(source_pos_, source_->log_.end());
}

// What reaches this folded port of a word a source sent: its fill word replaced by the arbitrating
// ports before it (the highest-priority of them: `arb_before`).
Word LPort::as_received(const Word& w, phy::AlPa arb_before) const
{
    return w.is_fill() && arb_before != kNoArbitrator ? arbitrating_fill(w, arb_before) : w;
}

// What this folded port transmits for a word it receives.
Word LPort::as_sent(const Word& w) const
{
    return w.is_fill() && routine_ == Lpsm::Routine::ReplacesFill ? arbitrating_fill(w, al_pa()) : w;
}

// What has reached this folded port by `now` of the entries [from, to) of `f`'s log, as it received
// them; `end` becomes the first entry still on its way (or `to`).
std::optional<RepeatedRun> LPort::arrived(const Feed& f, OutputLog::Seq to, const sc_time& now, OutputLog::Seq& end) const
{
    const OutputLog& log = f.owner->log_;
    end = log.first_after(f.pos, to, f.offset, now);
    auto run = log.run(f.pos, end, tx_word_, f.offset);
    if (!run) return run;
    run->words.last = as_received(run->words.last, f.arb_before);
    if (run->words.last_fill) run->words.last_fill = as_received(*run->words.last_fill, f.arb_before);
    run->words.idle = run->words.idle && f.arb_before == kNoArbitrator;
    return run;
}

// A folded port takes note of what has reached it by now: from its EdgeLink, from the logs of the
// sources it had before (each stretch it has read to the end is let go), and from its source's.
void LPort::settle()
{
    const sc_time now = kernel::now();
    in_.catch_up_to(now, [this](const EdgeLink::Change& c) { catch_up(c); });
    if (in_.arrives_after(now)) return;  // what comes from the logs arrives after these
    while (!feeds_.empty()) {
        Feed& f = feeds_.front();
        OutputLog::Seq end = 0;
        if (const auto run = arrived(f, f.end, now, end)) catch_up(*run);
        f.owner->log_.repin(f.pos, end);
        f.pos = end;
        if (end != f.end) return;  // the rest is on its way
        let_go(f);
        feeds_.erase(feeds_.begin());
    }
    OutputLog::Seq end = 0;
    const Feed live{source_, source_pos_, 0, offset_, arb_before_};
    if (const auto run = arrived(live, source_->log_.end(), now, end)) catch_up(*run);
    source_pos_ = end;
}

// A stretch of an old source's log is read: unpin it, and let the log go if nobody reads it now.
void LPort::let_go(const Feed& f)
{
    f.owner->log_.unpin(f.pos);
    if (f.owner->folded_ || f.owner->span_size_ == 0) f.owner->log_.clear();
}

// The folded port's source changes: what it has still to read of the old one's log stays pinned
// there, read before the new one's (too many such stretches: all it has still to read becomes
// changes passed through, as the fast path would have them).
void LPort::switch_source(LPort* to, const sc_time& offset)
{
    if (source_pos_ < source_->log_.end()) {
        if (feeds_.size() == kMaxFeeds) {
            materialize();
        } else {
            feeds_.push_back({source_, source_pos_, source_->log_.end(), offset_, arb_before_});
            source_->log_.pin(source_pos_);
        }
    }
    source_ = to;
    source_pos_ = to->log_.end();
    offset_ = offset;
}

// Everything this folded port has still to read becomes changes in its EdgeLink: what has reached
// it is taken note of, what is on its way is kept as changes passed through.
void LPort::materialize()
{
    settle();
    for (const Feed& f : feeds_) {
        pass_in_flight(f, f.end);
        let_go(f);
    }
    feeds_.clear();
    pass_in_flight({source_, source_pos_, 0, offset_, arb_before_}, source_->log_.end());
    source_pos_ = source_->log_.end();
}

// The entries [f.pos, to) of `f`'s log as changes this folded port passed through.
void LPort::pass_in_flight(const Feed& f, OutputLog::Seq to)
{
    f.owner->log_.for_each(f.pos, to, [&](const OutputLog::Entry& e) {
        const Word in = as_received(e.word, f.arb_before);
        const Word* last_in = in_.last_word();
        if (in.is_fill() && in == (last_in ? *last_in : lpsm_.last_received())) return;  // no change here
        const sc_time at = e.at + f.offset;
        if (routine_ == Lpsm::Routine::ReplacesFill && in.is_fill()) {
            const Word out = as_sent(in);
            in_.pass_replaced(at, in, out, out != last_sent());
        } else {
            in_.pass(at, in);
        }
    });
}

// Changes this folded port would receive after `cutoff` were withdrawn upstream.
void LPort::clip_input_after(const sc_time& cutoff)
{
    in_.truncate_after(cutoff);
    for (Feed& f : feeds_) f.end = f.owner->log_.first_after(f.pos, f.end, f.offset, cutoff);
}

// The folded ports of the span take note of what has reached them; the log keeps only the rest.
void LPort::compact_log()
{
    OutputLog::Seq keep = log_.end();
    for (LPort* r = next_; r != downstream_; r = r->next_) {
        r->settle();
        keep = std::min(keep, r->source_pos_);
    }
    log_.drop_before(keep);
    compact_at_ = std::max(kCompactEntries, 2 * log_.size());
}

// A run of changes reached this folded port, which repeated them or replaced their fill words.
void LPort::catch_up(const RepeatedRun& run)
{
    lpsm_.repeated(run.words);
    spacing_.repeated(run.primitive_or_frame_end, run.frame_end);
    tx_word_ = as_sent(run.words.last);
    tx_since_ = run.last_at;
}

// What has reached this folded port since it last took note: `f(what it transmits after it, or
// nothing if that did not change; an IDLE among it)` for each change or run of it, oldest first.
template <class F>
void LPort::for_each_arrived(F&& f) const
{
    const sc_time now = kernel::now();
    bool later = false;
    in_.for_each([&](const EdgeLink::Change& c) {
        if (c.at > now)
            later = true;
        else
            f(c.changes_output ? &c.output() : nullptr, c.word.kind == WordKind::Idle);
    });
    for (const Feed& feed : feeds_) {
        if (later) return;
        OutputLog::Seq end = 0;
        if (const auto run = arrived(feed, feed.end, now, end)) {
            const Word out = as_sent(run->words.last);
            f(&out, run->words.idle);
        }
        later = end != feed.end;
    }
    if (later) return;
    OutputLog::Seq end = 0;
    if (const auto run = arrived({source_, source_pos_, 0, offset_, arb_before_}, source_->log_.end(), now, end)) {
        const Word out = as_sent(run->words.last);
        f(&out, run->words.idle);
    }
}

bool LPort::access() const
{
    if (lpsm_.access() || !folded_) return lpsm_.access();
    bool idle = false;
    for_each_arrived([&](const Word*, bool idle_among) { idle = idle || idle_among; });
    return idle;
}

PortStats LPort::stats() const
{
    PortStats s = stats_.stats();
    // An own frame whose end the port has not yet taken note of (plan_own_word_end).
    if (planned_ && tx_word_.kind == WordKind::Frame && kernel::now() > tx_end_) ++s.frames_sent;
    // And those of its train that have ended.
    for (std::size_t i = 0; i < train_.cars().size() && train_.cars()[i].end < kernel::now(); ++i) ++s.frames_sent;
    // Frames for it whose EOF has arrived, taken within their slack (PortUser::frame_slack).
    for (std::size_t i = 0; i < deferred_frames_.size() && deferred_frames_[i].eof <= kernel::now(); ++i) ++s.frames_received;
    return s;
}

Word LPort::transmitting() const
{
    sc_time since;
    Word w = output_at(kernel::now(), AtWordEnd::TheWord, since);
    if (!folded_) return w;
    for_each_arrived([&](const Word* out, bool) {
        if (out) w = *out;
    });
    return w;
}

// The latest of: its train's car or own word that has started by `now` (the fill word it planned
// after it once that word has ended), and the last change it passed on that has reached it (on a
// tie the change passed on, as splicing always took it).
Word LPort::output_at(const sc_time& now, AtWordEnd at_end, sc_time& since) const
{
    const auto ended = [&](const sc_time& end) { return at_end == AtWordEnd::TheFill ? end <= now : end < now; };
    const FrameTrain::Car* car = nullptr;
    for (std::size_t i = 0; i < train_.cars().size() && train_.cars()[i].start <= now; ++i) car = &train_.cars()[i];
    Word w;
    if (car && ended(car->end)) {
        w = planned_fill_;
        since = car->end;
    } else if (car) {
        w = car_word(*car);
        since = car->start;
    } else if (planned_ && ended(tx_end_)) {
        w = planned_fill_;
        since = tx_end_;
    } else {
        w = tx_word_;
        since = tx_since_;
    }
    in_.for_each([&](const EdgeLink::Change& c) {
        if (!c.passed_through || !c.changes_output || c.at > now || c.at < since) return;
        w = c.output();
        since = c.at;
    });
    return w;
}

void LPort::settle_passed_changes()
{
    // The frames due by now that its layer above would have held are counted so.
    if (due_taker_) take_due_frames();
    if (folded_) {
        settle();
        return;
    }
    if (!in_.busy()) in_.catch_up_to(kernel::now(), [this](const EdgeLink::Change& c) { catch_up(c); });
}

// ---- The layer above ----------------------------------------------------------------------------

void LPort::queue_frame(OutgoingFrame out)
{
    const sc_time now = kernel::now();
    if (!ahead_.empty()) take_frames_ahead(now);  // those due by now were queued before it
    queue_now(std::move(out), now);
}

// A train carries on with a frame for its peer that goes out after its cars (none of them still
// aside: those are due later, so after it); any other ends it.
void LPort::queue_now(OutgoingFrame out, const sc_time& now)
{
    const bool for_train = train_.live() && out.frame->destination == train_.peer() && train_.aside() == 0;
    if (train_.live() && !for_train) end_train_soon();
    push_frame(std::move(out));
    if (for_train && train_.end() == FrameTrain::End::Frames) extend_train(now);
}

void LPort::queue_frame_ahead(OutgoingFrame out, const sc_time& due, std::uint64_t tag)
{
    const sc_time now = kernel::now();
    if (!ahead_.empty()) take_frames_ahead(now);
    if (due <= now) {  // (a transfer of no time)
        if (due_taker_)
            due_taker_->frame_due(std::move(out));
        else
            queue_now(std::move(out), now);
        return;
    }
    const bool for_train = train_.live() && out.frame->destination == train_.peer();
    if (train_.live() && !for_train) end_train_soon();
    ahead_.add(std::move(out), due, tag);
    if (ahead_.size() == 1) plan_frames_ahead(now);  // the plan depends on the first frame only
    if (for_train && train_.end() == FrameTrain::End::Frames) extend_train(now);
}

std::size_t LPort::withdraw_ahead(std::uint64_t tag)
{
    // (A car may be among them, or the frame the train waits credit for.)
    if (train_.live() && !ahead_.empty()) end_train_soon();
    return ahead_.withdraw(tag, kernel::now());
}

void LPort::take_frames_ahead(const sc_time& now)
{
    if (due_taker_)
        ahead_.admit_due(now, [this](OutgoingFrame f) { due_taker_->frame_due(std::move(f)); });
    else
        ahead_.admit_due(now, [this](OutgoingFrame f) { push_due(std::move(f)); });
}

void LPort::take_due_frames()
{
    if (!ahead_.empty()) take_frames_ahead(kernel::now());
}

void LPort::push_due(OutgoingFrame frame)
{
    if (train_.live()) train_.admitted();
    push_frame(std::move(frame));
}

// A port that reports every change takes each frame in at its due time. A frame its layer above
// would hold (the queue has no room for its class now: only the port's own runs free one, and each
// plans afresh) tells it nothing.
void LPort::plan_frames_ahead(const sc_time& now)
{
    if (due_taker_ && !observed_ && !ahead_.empty() && !queue_->can_push(ahead_.frame(0).frame_class())) return;
    if (const std::optional<sc_time> due = ahead_.wake_for(*queue_, observed_)) ahead_event_.notify(std::max(*due, now) - now);
}

// Its own process, as the layer above's would have been when it queued the frame.
void LPort::admit_frames_ahead()
{
    const sc_time now = kernel::now();
    take_frames_ahead(now);
    plan_frames_ahead(now);
}

void LPort::push_frame(OutgoingFrame out)
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
    if (train_.live()) end_train_soon();  // the queue's head changed, or a first frame for another port
    if (folded_ && await_idle_folded()) return;
    wake();
    recall_passed_through(kernel::now());
    kick();
}

void LPort::wake()
{
    if (folded_) rejoin();
}

void LPort::release_buffer()
{
    lpsm_.release_buffer();
    sample_vcd();
    // Inside its own run, by the layer above's processing of a frame the port took at the end of its
    // slack (PortUser::frame_slack): the run sends the R_RDY itself.
    if (running_ && frame_end_ < kernel::now()) return;
    if (!grant_at_once()) kick();
}

// A freed buffer is owed as an R_RDY, and the transmitter is free: the port runs in this very
// instant rather than one delta later (kick()), which sends the R_RDY at the same time without an
// activation of its own (docs/loop.md, "Fast path"). Every change that arrives now was handed to
// the port before (a hop takes at least a word), so the run sees what the delayed one would; a
// push to the queue in this instant runs the port again, and the R_RDY goes first either way
// (Lpsm::next). Not inside the port's own processing, not for watched or traced ports (they report
// each run), not with word errors.
bool LPort::grant_at_once()
{
    if (running_ || observed_ || words_hit_ || folded_ || lpsm_.credit().r_rdys_owed() == 0) return false;
    const sc_time now = kernel::now();
    stop_train(now);
    if (planned_ && now > tx_end_) realize_own_word_end();  // as receive() takes note of it
    if (tx_own_) return false;
    run(now);
    return true;
}

// The layer above is taken up in the same instant (one delta later, so that its calls never
// re-enter the port's own processing; a freed buffer may be granted at once: grant_at_once()).
void LPort::kick() { kick_event_.notify(sc_core::SC_ZERO_TIME); }

// ---- The port's process -------------------------------------------------------------------------

void LPort::step()
{
    activity_.ran();
    if (folded_) return;  // an event of before it folded: a port that only repeats has nothing to do
    run(kernel::now());
}

void LPort::run(const sc_time& now)
{
    if (!ahead_.empty()) take_frames_ahead(now);  // before anything reads the queue
    running_ = true;
    stop_train(now);
    passed_since_run_ = 0;
    guard_against_livelock(now);
    // The IDLE that set ACCESS has been repeated for its one word: arbitration acts from now on.
    if (lpsm_.repeats_access_word() && now >= access_word_end_) lpsm_.access_word_repeated();
    if (wake_at_ && *wake_at_ <= now) wake_at_.reset();  // that wake-up is this run or behind it
    in_.take_arrived(now, [this](const EdgeLink::Change& c) {
        if (c.passed_through)
            catch_up(c);
        else if (takes_in_init(c))
            take_in_init(c);
        else {
            frame_end_ = c.at;  // the EOF, if c completes a frame (frame_received())
            lpsm_.receive(c.word);
        }
    });
    while (!deferred_frames_.empty() && deferred_frames_.front().eof <= now) deferred_frames_.pop_front();  // taken
    if (sequence_repeats_ > 0) repeat_sequence(now, true);

    end_own_word(now);
    if (init_busy_) end_minimum_lips(now);
    lpsm_.update_arbitration();
    if (lpsm_.repeats_access_word() && access_word_end_ <= now) {
        // It started arbitrating on the IDLE arriving now: that word is repeated, the next replaced.
        access_word_end_ = now + word_;
        access_word_event_.notify(word_);
    }
    transmit(now);
    update_fill(now);
    if (words_hit_) watch_al_time(now);
    // A change held to be taken later waited for the port's next decision in a circuit; a port that
    // has just left its circuit by its own decision (XMITTED_CLOSE or RECEIVED_CLOSE to MONITORING)
    // repeats what arrives, at its arrival (docs/loop.md, "Fast path").
    if (lpsm_.repeating()) in_.stop_all_waiting();
    // Wake when its own word ends, unless it sent what follows ahead of time.
    if (tx_own_ && !planned_ && !plan_own_word_end(now)) wake_at(tx_end_, now);
    pass_held_changes(now);
    arm_rx_event(now);
    if (init_busy_) after_init_step(now);
    if (!ahead_.empty()) plan_frames_ahead(now);  // what it sent may leave a frame ahead the first for its peer
    sample_vcd();
    running_ = false;
}

// The port's own word is over by `now`, or it runs before the end of it. What it planned to do after
// the word (plan_own_word_end) stands if the word ended before `now`; in the instant the word ends
// or before it, anything may have changed: the port takes back the fill word it sent ahead and
// decides afresh.
void LPort::end_own_word(const sc_time& now)
{
    if (!tx_own_) return;
    if (planned_ && now > tx_end_) return realize_own_word_end();
    if (planned_) {
        withdraw_after(tx_end_ - sc_core::sc_get_time_resolution());
        planned_ = false;
    }
    if (now < tx_end_) return;
    tx_own_ = false;
    ++own_words_ended_;  // progress for the AL_TIME watch
    spacing_.ended(tx_word_, now);
    if (tx_word_.kind == WordKind::Frame) {
        stats_.frame_sent();
        if (user_ && user_->wants_frame_sent() && !tx_word_.frame->loop_init()) user_->frame_sent(*tx_word_.frame);
    }
}

// The port sends its own word until tx_end_ and, as things stand, will then send only its fill word
// until it sends the next word of its own (or until something changes): it sends that fill word
// now, ahead of time, and wakes only when the next word may start, if any, rather than also when
// this one ends (docs/loop.md, "Fast path"). Not for watched or traced ports (they report
// each change as it happens), nor with word errors, nor when the user wants frame_sent() in time.
bool LPort::plan_own_word_end(const sc_time& now)
{
    if (observed_ || words_hit_ || !downstream_ || lpsm_.in_initialization()) return false;
    if (tx_word_.kind == WordKind::Frame && user_ && user_->wants_frame_sent()) return false;
    // Its fill word after this word is the one update_arbitration() leaves at the word's end: not
    // known yet if the bid lapses then (its last frame for a full-duplex opener just went out).
    if (lpsm_.bid_lapses()) return false;
    const Lpsm::Decision d = lpsm_.next();
    if (d.kind == Lpsm::Decision::Kind::Leave) return false;  // taken the instant the word ends
    const bool train = may_train(d);
    if (d.kind != Lpsm::Decision::Kind::None && !train) {
        // When the next word may start, once this one has ended (as earliest() will see it then).
        WordSpacing after = spacing_;
        after.ended(tx_word_, tx_end_);
        const Word fill = lpsm_.fill();
        sc_time t = d.kind == Lpsm::Decision::Kind::Frame ? after.frame_earliest(tx_end_, fill, false)
                                                          : after.primitive_earliest(tx_end_, fill, false);
        if (d.idle_close) t = std::max(t, after.last_end() + circuit_hold_);
        wake_at(t, now);
    }
    planned_fill_ = lpsm_.fill();
    planned_ = true;
    forward(tx_end_, planned_fill_, fill_or_other(tx_word_));
    if (train) start_train(now);
    return true;
}

// The own word ended at tx_end_, followed by the fill word sent ahead: take note of both.
void LPort::realize_own_word_end()
{
    tx_own_ = false;
    planned_ = false;
    ++own_words_ended_;
    spacing_.ended(tx_word_, tx_end_);
    if (tx_word_.kind == WordKind::Frame) stats_.frame_sent();  // the user did not want frame_sent()
    tx_word_ = planned_fill_;
    tx_since_ = tx_end_;
}

// ---- Frame trains (docs/loop.md, "Frame trains") ---------------------------------------------

// A port that opened a circuit, in step with its queue: the queue sends in the order queued, and every
// frame queued or handed over ahead is for the peer (a frame for another port ends the train), what
// it decides after its own word is a frame, nothing (no credit) or its CLS, and it holds nothing to
// process but R_RDYs and fill words. Not when the layer above wants frame_sent() (plan_own_word_end
// checked the rest).
bool LPort::may_train(const Lpsm::Decision& d) const
{
    using K = Lpsm::Decision::Kind;
    if (!trains_allowed_ || lpsm_.state() != LpsmState::Open || lpsm_.arbitrating() || !queue_->sends_in_order()) return false;
    if (user_ && user_->wants_frame_sent()) return false;
    const bool closes_idle = d.kind == K::Cls && !d.frames_left && (d.idle_close || circuit_hold_ == sc_core::SC_ZERO_TIME);
    if (!(d.kind == K::Frame || d.kind == K::None || closes_idle)) return false;
    if (lpsm_.receiving_frame()) return false;  // the word that completes it is to be taken in time
    const phy::AlPa peer = lpsm_.peer();
    std::size_t ready = 0;
    for (; const OutgoingFrame* f = queue_->in_order(ready); ++ready)
        if (f->frame->destination != peer) return false;
    if (ready + ahead_.size() < kTrainFrames) return false;
    for (std::size_t i = 0; i < ahead_.size(); ++i)
        if (ahead_.frame(i).frame->destination != peer) return false;
    // It holds no word to process but R_RDYs and fill words (LPort::receive).
    bool only_credit_and_fill = true;
    in_.for_each([&](const EdgeLink::Change& c) {
        if (!c.passed_through && c.word.kind != WordKind::RRdy && !c.word.is_fill()) only_credit_and_fill = false;
    });
    return only_credit_and_fill;
}

// Behind the own word that ends at tx_end_ (its fill word sent ahead already): the R_RDYs on their
// way to the port are credit from their arrival.
void LPort::start_train(const sc_time& now)
{
    WordSpacing after = spacing_;
    after.ended(tx_word_, tx_end_);
    train_.begin(lpsm_.peer(), after, tx_end_, lpsm_.credit());
    in_.for_each([&](const EdgeLink::Change& c) {
        if (c.passed_through) return;
        if (c.word.kind == WordKind::RRdy && c.at > now) train_.r_rdy(c.at);
        if (c.word.is_fill()) train_.fill_held(c.word);
    });
    // Those it was to take at their arrival wait now: the run's end arms its process afresh
    // (arm_rx_event), without them. The cancelled notification stays in the kernel's heap until its
    // time, an R_RDY's arrival a few microseconds away: at most one per train, nothing accumulates
    // (docs/kernel.md, "Timers"); letting it fire would stop the train and plan it again.
    if (in_.set_r_rdys_waiting(now, true)) rx_event_.cancel();
    extend_train(now);
}

// Cars for the next frames, as the port would send them, each when word spacing, its credit and the
// frame itself allow: queued frames first, then those handed over ahead (available when due). The
// train ends for want of credit (the next R_RDY carries it on), or for want of a frame available by
// the time the port would close the circuit: the port wakes then, as it would have.
void LPort::extend_train(const sc_time& now)
{
    const Word& fill = planned_fill_;
    while (true) {
        const OutgoingFrame* next = queue_->in_order(train_.queued());
        sc_time available = now;
        bool aside = false;
        if (!next && train_.aside() < ahead_.size()) {
            next = &ahead_.frame(train_.aside());
            available = ahead_.due(train_.aside());
            aside = true;
        }
        // A frame the train waited credit for was there before the port would have closed.
        if (!next || (train_.end() != FrameTrain::End::Credit && available > train_.close_at(fill, circuit_hold_))) {
            train_.ends_for(FrameTrain::End::Frames);
            wake_at(train_.close_at(fill, circuit_hold_), now);
            return;
        }
        if (!train_.has_credit()) {
            train_.ends_for(FrameTrain::End::Credit);
            return;
        }
        const Word w = Word::frame_of(next->frame);
        FrameTrain::Car car;
        car.start = train_.next_start(fill, available);
        car.end = car.start + timing_.words(w.words());
        car.frame = next->frame.get();
        car.aside = aside;
        forward(car.start, w, fill_or_other(fill));
        forward(car.end, fill, fill_or_other(w));
        train_.add(car, w);
        train_.ends_for(FrameTrain::End::Frames);  // (until the next frame says otherwise)
    }
}

// The port takes note of the cars that started before `now` and takes back the others; it then
// decides afresh (in this run; elsewhere end_train_now()).
void LPort::stop_train(const sc_time& now)
{
    if (!train_.live()) return;
    train_.ends_for(FrameTrain::End::Frozen);
    if (!ahead_.empty()) take_frames_ahead(now);  // the cars that started are in the queue
    while (!train_.cars().empty() && train_.cars().front().start < now) realize_car();
    if (!train_.cars().empty()) withdraw_after(train_.cars().front().start - sc_core::sc_get_time_resolution());
    train_.clear();
    // The R_RDYs it counted that are still on their way: taken at their arrival, as by a port without
    // a train judging them now (which is what its runs decide with).
    in_.set_r_rdys_waiting(now, false);
}

// Outside its run: the port runs in this instant to decide afresh.
void LPort::end_train_now(const sc_time& now)
{
    if (!train_.live()) return;
    stop_train(now);
    kick();
}

// Something the train cannot follow: it carries on no further, and the port runs in this instant.
void LPort::end_train_soon()
{
    train_.ends_for(FrameTrain::End::Frozen);
    kick();
}

// The first car started: the own word before it ended (and the fill word after it was sent), and
// the LPSM sends the car's frame, as it would have at the car's start.
void LPort::realize_car()
{
    realize_own_word_end();
    const FrameTrain::Car car = train_.take_first();
    const Lpsm::Decision d{Lpsm::Decision::Kind::Frame};
    Word w = lpsm_.prepare(d);
    if (w.frame.get() != car.frame) throw std::logic_error(std::string(name()) + ": frame train out of step with the transmit queue");
    lpsm_.commit(d);
    tx_own_ = true;
    tx_word_ = std::move(w);
    tx_since_ = car.start;
    tx_end_ = car.end;
    planned_ = true;
}

// The frame of a car, as a word (for transmitting()).
Word LPort::car_word(const FrameTrain::Car& car) const
{
    for (std::size_t i = 0; const OutgoingFrame* f = queue_->in_order(i); ++i)
        if (f->frame.get() == car.frame) return Word::frame_of(f->frame);
    for (std::size_t i = 0; i < ahead_.size(); ++i)
        if (ahead_.frame(i).frame.get() == car.frame) return Word::frame_of(ahead_.frame(i).frame);
    return planned_fill_;  // not reached: a car's frame is queued or aside
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
        transmit(now);
        update_fill(now);
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
void LPort::transmit(const sc_time& now)
{
    using K = Lpsm::Decision::Kind;
    while (!tx_own_) {
        const Lpsm::Decision d = lpsm_.next();
        if (d.kind == K::None) return;
        if (d.kind != K::Leave) {
            if (!may_send_at(earliest(d, now), now)) return;
            send_own(lpsm_.prepare(d), now);
        }
        lpsm_.commit(d);
    }
}

sc_time LPort::earliest(const Lpsm::Decision& d, const sc_time& now) const
{
    // An answer in loop initialization: no earlier than the port's processing allows.
    if (lpsm_.state() == LpsmState::OpenInit) {
        const bool frame = d.kind == Lpsm::Decision::Kind::InitFrame;
        return std::max(answer_at_, frame ? spacing_.frame_earliest(now, tx_word_, tx_own_) : spacing_.primitive_earliest(now, tx_word_, tx_own_));
    }
    if (d.kind == Lpsm::Decision::Kind::Frame) return spacing_.frame_earliest(now, tx_word_, tx_own_);
    sc_time t = spacing_.primitive_earliest(now, tx_word_, tx_own_);
    // The close timer: wait a while for another frame for the peer.
    if (d.idle_close) t = std::max(t, spacing_.last_end() + circuit_hold_);
    return t;
}

// True when the transmitter may start now; otherwise wakes the port when it may.
bool LPort::may_send_at(const sc_time& earliest, const sc_time& now)
{
    if (earliest <= now) return true;
    wake_at(earliest, now);
    return false;
}

void LPort::update_fill(const sc_time& now)
{
    if (tx_own_) return;
    const Word w = lpsm_.fill();
    if (w != tx_word_) emit(w, now);
}

void LPort::send_own(const Word& w, const sc_time& now)
{
    tx_own_ = true;
    tx_end_ = now + timing_.words(w.words());
    emit(w, now);  // step() arranges to wake when it ends
}

// An activation more in this instant; far too many mean that the port re-arms itself without
// simulated time ever advancing: end the run with an internal error rather than hang.
void LPort::report_livelock(const sc_time& now) const
{
    SC_REPORT_ERROR("fcal/loop", (std::string(name()) + ": internal error: livelock: " + std::to_string(steps_at_instant_) +
                                  " activations at " + now.to_string() + " without simulated time advancing")
                                     .c_str());
    std::abort();  // SC_REPORT_ERROR throws; never reached
}

void LPort::emit(const Word& w, const sc_time& now)
{
    // What the port sends changes now: changes it passed on that reach it later were forwarded as
    // it stood before; they must go through its processing, or the port downstream would receive
    // this change after changes that come later.
    recall_passed_through(now);
    if (fill_errors_) count_fill_errors(now);
    spacing_.ended(tx_word_, now);
    if (watcher_) {
        const auto lasted = static_cast<std::uint64_t>((now - tx_since_) / word_ + 0.5);
        watcher_->record(now.to_seconds() * 1e9, cfg_.al_pa, lpsm_.state(), lasted, loop::name(tx_word_), loop::name(w));
    }
    const Word before = fill_or_other(tx_word_);
    tx_word_ = w;
    tx_since_ = now;
    if (downstream_) forward(now, w, before);
    if (w.kind == WordKind::Lip && lpsm_.state() == LpsmState::Initializing) own_lip_sent(now);
}

// ---- Observers ----------------------------------------------------------------------------------

void LPort::lpsm_event(Event e) { stats_.on(e, kernel::now()); }

void LPort::state_changed(LpsmState from, LpsmState to)
{
    const bool was = from >= LpsmState::Initializing, is = to >= LpsmState::Initializing;
    if (was != is) activity_.port_initializing(is);
    if ((was || is) && init_observer_) init_observer_->init_state_changed(*this, from, to);
    if (user_) user_->state_changed(from, to);
}

void LPort::frame_received(const FrameRef& frame)
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
    wake();
    end_train_now(kernel::now());
    vcd_ = std::make_unique<PortVcd>(tf, name());
    observed_ = true;
    if (!ahead_.empty()) plan_frames_ahead(kernel::now());  // from now on each at its due time
    sample_vcd();
}

void LPort::untrace()
{
    vcd_.reset();
    observed_ = watcher_ != nullptr;
}

void LPort::print_state(std::ostream& out) const
{
    out << "  " << name() << " " << phy::al_pa_hex(al_pa()) << " " << loop::name(state()) << " access=" << access()
        << " arbitrating=" << arbitrating() << " credit=" << credit() << " free_buffers=" << free_buffers()
        << " tx=" << loop::name(transmitting()) << "\n";
}

}  // namespace fcal::loop
