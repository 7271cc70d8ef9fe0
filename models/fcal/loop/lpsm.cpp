#include "fcal/loop/lpsm.hpp"

namespace fcal::loop {

Lpsm::Lpsm(const PortConfig& config, const LoopDirectory& directory, LpsmObserver& observer)
    : cfg_(config), directory_(directory), observer_(observer), credit_(config.incoming_buffers, config.login_bb_credit)
{
}

bool Lpsm::unaffected_by(const Word& w) const
{
    if (repeats_access_word()) return false;  // it changes its fill word one word from now
    if (w.is_fill()) {
        // A monitoring port repeats fill words; it alters its own ARB, and the fill originator its
        // ARB(F0). An IDLE sets ACCESS, which matters only to a port with something to send: one
        // that waits for the access window starts arbitrating on it.
        if (state_ != LpsmState::Monitoring || arbitrating() || fill_ == Fill::Originator || w.is_arb(cfg_.al_pa)) return false;
        if (queue_->empty()) return true;
        return !access_ && w.kind != WordKind::Idle;  // waiting for the access window
    }
    return repeating() && !(w.kind == WordKind::Opn && w.y == cfg_.al_pa) && !own_word_back(w);
}

std::optional<Word> Lpsm::fill_replacement(const Word& w) const
{
    if (state_ != LpsmState::Arbitrating || !w.is_fill() || w.is_arb(cfg_.al_pa) || frame_for_us() || repeats_access_word())
        return std::nullopt;
    return substitute(w);
}

Word arbitrating_fill(const Word& fill, phy::AlPa al_pa)
{
    const bool higher = fill.kind == WordKind::Arb && phy::higher_priority(fill.y, al_pa);
    return higher ? fill : Word::arb(al_pa);
}

bool Lpsm::may_wait(const Word& w, const Word* last_fill) const
{
    if (errors_ || repeating()) return false;
    switch (w.kind) {
    case WordKind::Frame: return w.frame->destination == cfg_.al_pa;
    case WordKind::RRdy: return !credit_.sending() || credit_.credit() > 0;
    case WordKind::Idle:
    case WordKind::Arb:
        // The owner's fill word changes only when its ARB(F0) comes back; any other port in a
        // circuit sends the fill word it receives (substitute()).
        if (owner()) return !(w.is_arb(phy::kArbFairnessFill) && own_fill().is_arb(phy::kArbFairnessFill));
        return substitute(w) == substitute(last_fill ? *last_fill : rx_fill_);
    default: return false;
    }
}

Lpsm::Routine Lpsm::routine() const
{
    if (errors_ || frame_for_us() || rx_ == Rx::AccessIdle) return Routine::Acts;
    if (state_ == LpsmState::Arbitrating) return arbitrating() && !queue_->empty() ? Routine::ReplacesFill : Routine::Acts;
    if (state_ != LpsmState::Monitoring || arbitrating() || fill_ == Fill::Originator) return Routine::Acts;
    const OutgoingFrame* next = queue_->front();
    if (!next) return Routine::Repeats;
    // Waiting for the next access window (maybe_start_arbitration() has run and held back).
    const bool waits = bid_ == Bid::Waiting && !access_ && cfg_.fair && !next->arbitrate_unfairly;
    return waits ? Routine::AwaitsIdle : Routine::Acts;
}

void Lpsm::repeated(const RepeatedWords& run)
{
    // For these routines handle_fill() does nothing but set ACCESS on an IDLE while monitoring.
    rx_word_ = run.last;
    rx_ = Rx::Repeated;
    if (run.last_fill) rx_fill_ = *run.last_fill;
    if (run.idle && state_ == LpsmState::Monitoring) access_ = true;
}

void Lpsm::repeated(const Word& w)
{
    rx_word_ = w;
    rx_ = Rx::Repeated;
    if (w.is_fill()) {
        rx_fill_ = w;
        handle_fill(w);  // bookkeeping only: a port unaffected by the word does not change state
    }
    rx_ = Rx::Repeated;  // it did not start arbitrating on the IDLE
}

void Lpsm::receive(const Word& w)
{
    // Whatever follows a frame marks the end of its EOF: the frame is complete.
    if (frame_for_us()) frame_complete();
    rx_word_ = w;
    rx_ = Rx::Repeated;  // a later word: the decisions taken on the previous one apply to it
    if (w.is_fill()) {
        rx_fill_ = w;
        handle_fill(w);
        return;
    }
    if (!repeating() && stale_circuit_word(w)) {
        // The circuit is over although nobody closed it (its CLS was lost): repeat again and take
        // the word as a repeating port does.
        observer_.lpsm_event(LpsmObserver::Event::CircuitAbandoned);
        leave_circuit();
    }
    if (repeating()) {
        if (own_word_back(w)) {
            // Nobody took it (its circuit is gone): removed here, or it would circulate for ever.
            rx_ = Rx::Absorbed;
            if (w.kind == WordKind::Frame) observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
            return;
        }
        if (w.kind == WordKind::Opn && w.y == cfg_.al_pa) {
            rx_ = Rx::Absorbed;
            if (hit(w)) return;  // not recognised: the port sends its fill word in its place
            ++progress_;
            become_opened(w);
        }
        return;  // everything else passes through
    }
    rx_ = Rx::Absorbed;
    if (w.kind != WordKind::Cls && own_word_back(w)) {
        // Our own frame or R_RDY came back round: the port it was for was never opened (a lost
        // OPN). (Our CLS coming back ends the circuit as usual.)
        if (w.kind == WordKind::Frame) observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
        return;
    }
    if (w.kind != WordKind::Frame && hit(w)) return;  // a primitive signal hit by an error is lost
    ++progress_;
    switch (w.kind) {
    case WordKind::Cls: handle_cls(); break;
    case WordKind::RRdy:
        observer_.lpsm_event(LpsmObserver::Event::RRdyReceived);
        credit_.r_rdy_received();
        break;
    case WordKind::Frame:
        if (w.frame->destination != cfg_.al_pa) error("received a frame addressed to another port");
        if (!credit_.frame_received()) error("received a frame without credit");
        rx_ = hit(w) ? Rx::FrameForUsHit : Rx::FrameForUs;
        break;
    case WordKind::Opn: error("received OPN while in a circuit"); break;
    default: break;
    }
}

// A whole frame for us has arrived. One that fails its CRC is discarded: its buffer is free at
// once and, in the circuit, earns the sender its R_RDY as a consumed frame would.
void Lpsm::frame_complete()
{
    const bool hit = rx_ == Rx::FrameForUsHit;
    rx_ = Rx::Absorbed;
    ++progress_;
    if (!hit) {
        observer_.frame_received(rx_word_.frame);
        return;
    }
    observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
    release_buffer();
}

// Hit words in a primitive signal or frame this port consumes, counted over the links it crossed.
bool Lpsm::hit(const Word& w)
{
    if (!errors_) return false;
    const phy::AlPa from = w.kind == WordKind::Frame ? w.frame->source : w.sender;
    const std::uint64_t n = errors_->hits(w, directory_.links(from, cfg_.al_pa));
    if (n == 0) return false;
    observer_.code_violations(n);
    return true;
}

// With faults, a port that is not the loop owner and still thinks itself in a circuit whose CLS it
// missed learns that the loop has moved on when an OPN, or a frame neither for it nor from it,
// arrives: no live circuit brings either.
bool Lpsm::stale_circuit_word(const Word& w)
{
    if (!errors_ || owner()) return false;
    if (w.kind == WordKind::Opn) return true;
    return w.kind == WordKind::Frame && w.frame->destination != cfg_.al_pa && w.frame->source != cfg_.al_pa;
}

// With faults, a primitive signal or frame this port sent that has come all the way round.
bool Lpsm::own_word_back(const Word& w) const
{
    if (!errors_) return false;
    return (w.kind == WordKind::Frame ? w.frame->source : w.sender) == cfg_.al_pa;
}

bool Lpsm::awaits_peer() const
{
    // (XMITTED_CLOSE with its CLS back waits only for its own buffers; a frame arriving is progress
    // until its EOF.)
    if (frame_for_us()) return false;
    return state_ == LpsmState::Open || state_ == LpsmState::Opened || (state_ == LpsmState::XmittedClose && ending_ != Ending::ClsBack);
}

void Lpsm::al_time_expired()
{
    observer_.lpsm_event(LpsmObserver::Event::AlTimeExpired);
    switch (state_) {
    case LpsmState::Open: ending_ = Ending::AlTimeOut; break;     // next() closes the circuit
    case LpsmState::XmittedClose: ending_ = Ending::ClsBack; break;  // the CLS will not come back
    case LpsmState::Opened:
        observer_.lpsm_event(LpsmObserver::Event::CircuitAbandoned);
        leave_circuit();
        break;
    default: break;
    }
}

void Lpsm::handle_fill(const Word& w)
{
    if (owner()) {
        // The owner learns from its own fill word whether anybody else wants the loop.
        const bool arb_f0 = own_fill().is_arb(phy::kArbFairnessFill);
        if (w.is_arb(phy::kArbFairnessFill)) {
            // Nobody replaced ARB(F0): end the access window. The ARB(F0)s sent until now are
            // still on their way round: the tail that must not outlive this tenancy.
            if (arb_f0) fill_ = Fill::OwnerIdleTail;
            else if (fill_ == Fill::OwnerIdleContested) fill_ = Fill::OwnerIdle;
            // The window it ends is over for this port too: the next one is open to it, even if
            // others start arbitrating before it gives the loop up.
            access_ = true;
        } else if (w.kind == WordKind::Idle) {
            // Our own IDLE came back: the tail has passed.
            fill_ = arb_f0 ? Fill::OwnerArbF0 : Fill::OwnerIdle;
        } else if (w.y != cfg_.al_pa && w.y != phy::kArbFF) {
            // An arbitrating port replaces what is left of the tail.
            fill_ = arb_f0 ? Fill::OwnerArbF0Contested : Fill::OwnerIdleContested;
        }
        return;
    }
    if (state_ == LpsmState::Monitoring) {
        if (w.kind == WordKind::Idle) {
            // IDLEs around the loop open a new access window. The IDLE that sets ACCESS is repeated
            // as it is, even if the port starts arbitrating on it, so that it reaches the ports
            // downstream and sets theirs too.
            if (!access_) rx_ = Rx::AccessIdle;
            access_ = true;
        }
        if (!w.is_arb(phy::kArbFairnessFill) && fill_ == Fill::Originator) fill_ = Fill::Repeats;
    } else if (state_ == LpsmState::Arbitrating && w.is_arb(cfg_.al_pa)) {
        win();
    }
}

void Lpsm::win()
{
    set_state(LpsmState::ArbitrationWon);
    fill_ = Fill::OwnerArbF0;
    bid_ = Bid::None;
    access_ = false;  // one win per access window for a fair port; an unfair one ignores ACCESS
    observer_.lpsm_event(LpsmObserver::Event::Won);
}

void Lpsm::update_arbitration()
{
    if (arbitrating() && queue_->empty()) {
        // Everything went out on a circuit another port opened (full duplex): stop arbitrating.
        bid_ = Bid::None;
        if (state_ == LpsmState::Arbitrating) set_state(LpsmState::Monitoring);
    }
    if (state_ == LpsmState::Monitoring) maybe_start_arbitration();
    if (!arbitrating()) access_word_repeated();  // only an arbitrating port would have altered it
}

void Lpsm::maybe_start_arbitration()
{
    const OutgoingFrame* next = queue_->front();
    if (!next || arbitrating()) return;
    if (bid_ == Bid::None) {
        bid_ = Bid::Waiting;
        observer_.lpsm_event(LpsmObserver::Event::Requesting);
    }
    if (!access_ && cfg_.fair && !next->arbitrate_unfairly) return;  // wait for the next access window
    if (!access_) observer_.lpsm_event(LpsmObserver::Event::ArbitrationWithoutAccess);
    bid_ = Bid::Arbitrating;
    set_state(LpsmState::Arbitrating);
}

void Lpsm::become_opened(const Word& opn)
{
    set_state(LpsmState::Opened);
    if (fill_ == Fill::Originator) fill_ = Fill::Repeats;
    peer_ = opn.x;  // for OPN(yy) the opener is unknown; only full duplex needs it
    const bool sending = opn.opn_full_duplex();
    credit_.open(sending, true, sending ? directory_.login_bb_credit(peer_) : 0);
}

void Lpsm::handle_cls()
{
    switch (state_) {
    case LpsmState::Open:
    case LpsmState::Opened:
        set_state(LpsmState::ReceivedClose);
        credit_.stop_granting();  // hand out no more credit on a closing circuit
        break;
    case LpsmState::XmittedClose: ending_ = Ending::ClsBack; break;
    default: break;
    }
}

Lpsm::Decision Lpsm::next()
{
    using K = Decision::Kind;
    const bool guaranteed = credit_.login_credit_guaranteed();  // login credit for the next circuit
    switch (state_) {
    case LpsmState::ArbitrationWon:
    case LpsmState::Transfer:
        // Nothing left to open cannot happen with a well-behaved queue.
        if (!queue_->front()) return {K::Leave};
        return {guaranteed ? K::Opn : K::None};
    case LpsmState::Open:
    case LpsmState::Opened: {
        if (ending_ == Ending::AlTimeOut) return {K::Cls};  // AL_TIME: the peer does not answer
        if (credit_.r_rdys_owed() > 0) return {K::RRdy};
        const OutgoingFrame* next = credit_.sending() ? queue_->front_for(peer_) : nullptr;
        const bool preempt = state_ == LpsmState::Open && queue_->preempt(peer_);
        if (next && !preempt) return {credit_.credit() > 0 ? K::Frame : K::None};
        if (state_ != LpsmState::Open) return {K::None};
        Decision d{K::Cls};
        d.frames_left = next != nullptr;
        d.idle_close = !next && cfg_.circuit_hold_s > 0 && queue_->empty();
        return d;
    }
    case LpsmState::ReceivedClose: {
        const OutgoingFrame* next = credit_.sending() && credit_.credit() > 0 ? queue_->front_for(peer_) : nullptr;
        if (next) return {K::Frame};
        return {guaranteed ? K::Cls : K::None};
    }
    case LpsmState::XmittedClose: return {ending_ == Ending::ClsBack && guaranteed ? K::Leave : K::None};
    default: return {K::None};
    }
}

Word Lpsm::prepare(const Decision& d)
{
    using K = Decision::Kind;
    ++progress_;
    switch (d.kind) {
    case K::Opn: {
        peer_ = queue_->front()->frame->destination;
        Word opn = Word::opn(peer_, cfg_.al_pa, cfg_.full_duplex);
        opn.sender = cfg_.al_pa;
        return opn;
    }
    case K::RRdy: {
        credit_.r_rdy_sent();
        observer_.lpsm_event(LpsmObserver::Event::RRdySent);
        Word r_rdy = Word::r_rdy();
        r_rdy.sender = cfg_.al_pa;
        return r_rdy;
    }
    case K::Frame: {
        // One frame for the peer, on one credit.
        OutgoingFrame f = queue_->pop_for(peer_);
        credit_.frame_sent();
        return Word::frame_of(std::move(f.frame));
    }
    case K::Cls: {
        if (d.frames_left) observer_.lpsm_event(LpsmObserver::Event::Preempted);  // closing with frames left for the peer
        Word cls = Word::cls();
        cls.sender = cfg_.al_pa;
        return cls;
    }
    default: return Word::idle();
    }
}

void Lpsm::commit(const Decision& d)
{
    using K = Decision::Kind;
    switch (d.kind) {
    case K::Opn:
        set_state(LpsmState::Open);
        observer_.lpsm_event(LpsmObserver::Event::CircuitOpened);
        credit_.open(true, cfg_.full_duplex, directory_.login_bb_credit(peer_));
        return;
    case K::Cls:
        if (state_ == LpsmState::ReceivedClose) {
            leave_circuit();
        } else {
            set_state(LpsmState::XmittedClose);
            credit_.stop_granting();
            ending_ = Ending::None;
        }
        return;
    case K::Leave: leave_circuit(); return;
    default: return;
    }
}

void Lpsm::leave_circuit()
{
    credit_.close();
    ending_ = Ending::None;
    if (owner()) {
        const OutgoingFrame* next = queue_->front();
        const bool nobody_waiting = own_fill().kind == WordKind::Idle && !others_arbitrating();
        if (next && (!cfg_.fair || next->transfer_unfairly || nobody_waiting)) {
            observer_.lpsm_event(LpsmObserver::Event::Transfer);
            set_state(LpsmState::Transfer);
            return;  // the port asks next() again: the next OPN
        }
        observer_.lpsm_event(LpsmObserver::Event::LeftLoop);
        // Our ARB(F0) may still be circulating with nobody to remove it only if no other port
        // replaced it; a port that did will win and fill the loop itself. That holds while we still
        // fill with ARB(F0), and also for the tail of it when we switched to IDLE less than a round
        // trip ago.
        const bool other_arb = rx_fill_.kind == WordKind::Arb && rx_fill_.y != phy::kArbFairnessFill && rx_fill_.y != cfg_.al_pa;
        const bool f0_on_the_wire = fill_ == Fill::OwnerArbF0 || fill_ == Fill::OwnerIdleTail;
        fill_ = f0_on_the_wire && !other_arb ? Fill::Originator : Fill::Repeats;
    }
    set_state(arbitrating() ? LpsmState::Arbitrating : LpsmState::Monitoring);
    if (state_ == LpsmState::Monitoring) maybe_start_arbitration();
}

void Lpsm::release_buffer()
{
    if (!credit_.buffer_released(state_ == LpsmState::Open || state_ == LpsmState::Opened))
        error("release_buffer() without a buffer in use");
}

Word Lpsm::substitute(const Word& fill) const
{
    if (arbitrating()) return arbitrating_fill(fill, cfg_.al_pa);
    if (state_ == LpsmState::Monitoring) {
        // The last owner removes its ARB(F0) when it comes back unreplaced; a stale ARB of our own
        // is removed likewise, so nothing circulates without an owner.
        if (fill_ == Fill::Originator && fill.is_arb(phy::kArbFairnessFill)) return Word::idle();
        if (fill.is_arb(cfg_.al_pa)) return Word::idle();
    }
    return fill;
}

Word Lpsm::fill() const
{
    if (owner()) return own_fill();
    if (repeats_access_word()) return rx_word_;  // the IDLE that set ACCESS, unchanged
    if (repeating() && !rx_word_.is_fill() && rx_ == Rx::Repeated) return rx_word_;
    return substitute(rx_fill_);
}

void Lpsm::set_state(LpsmState s)
{
    if (s == state_) return;
    const LpsmState from = state_;
    state_ = s;
    // Back to monitoring: the fill word arriving now counts as if it had just arrived, so IDLEs
    // that ended the access window while this port was busy in a circuit still open it.
    if (s == LpsmState::Monitoring && rx_fill_.kind == WordKind::Idle) access_ = true;
    observer_.state_changed(from, s);
}

}  // namespace fcal::loop
