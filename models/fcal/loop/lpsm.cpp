#include "fcal/loop/lpsm.hpp"

#include <stdexcept>

namespace fcal::loop {

namespace {

// The procedure's configuration: a port without a hard AL_PA of its own claims its configured one
// (if it is an AL_PA a port may hold: tests of the steady state use any byte).
LoopInitPortConfig init_config(const PortConfig& config)
{
    LoopInitPortConfig c = config.init;
    if (!c.hard_al_pa && phy::is_valid_al_pa(config.al_pa)) c.hard_al_pa = config.al_pa;
    return c;
}

// Out of line, so that prepare() stays as lean for the steady state as it was.
// The word's sender is the port that transmits this copy: every port stores and forwards an LI
// frame, so each copy crosses only the links to the next port (Lpsm::hit()).
[[gnu::noinline]] Word loop_init_frame_word(const LoopInitFrame& li, phy::AlPa sender)
{
    auto frame = kernel::make_ref<LoopFrame>();
    // D_ID = S_ID = 0000EF: the low byte, for traces; Sof::Il keeps routing away from it.
    frame->source = frame->destination = static_cast<phy::AlPa>(li.address & 0xFF);
    frame->payload_bytes = li.payload_bytes();
    frame->sof = Sof::Il;
    frame->content = std::make_shared<LoopInitFrame>(li);
    Word w = Word::frame_of(std::move(frame));
    w.sender = sender;
    return w;
}

}  // namespace

Lpsm::Lpsm(const PortConfig& config, const LoopDirectory& directory, LpsmObserver& observer)
    : cfg_(config), directory_(directory), observer_(observer), credit_(config.incoming_buffers, config.login_bb_credit),
      init_(init_config(config))
{
}

bool Lpsm::unaffected_by(const Word& w) const
{
    if (repeats_access_word()) return false;  // it changes its fill word one word from now
    if (sequences_.current()) return false;   // counting a primitive sequence: any word counts
    if (w.is_fill()) {
        // A monitoring port repeats fill words; it alters its own ARB, and the fill originator its
        // ARB(F0). An IDLE sets ACCESS, which matters only to a port with something to send: one
        // that waits for the access window starts arbitrating on it.
        if (state_ != LpsmState::Monitoring || arbitrating() || fill_ == Fill::Originator || w.is_arb(cfg_.al_pa)) return false;
        if (queue_->empty()) return true;
        return !access_ && w.kind != WordKind::Idle;  // waiting for the access window
    }
    // A primitive sequence may start loop initialization: every port must count it.
    return repeating() && !w.is_sequence() && !(w.kind == WordKind::Opn && w.y == cfg_.al_pa) && !own_word_back(w);
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
    // (In initialization a word may wait as in a circuit: a fill word that repeats the last one, an LI
    // frame until its end; a primitive sequence never.)
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
    if (acts_on_every_word()) return Routine::Acts;
    if (state_ == LpsmState::Arbitrating) return arbitrating() && !queue_->empty() ? Routine::ReplacesFill : Routine::Acts;
    if (!monitors_alone()) return Routine::Acts;
    const OutgoingFrame* next = queue_->front();
    if (!next) return Routine::Repeats;
    // Waiting for the next access window (maybe_start_arbitration() has run and held back).
    return bid_ == Bid::Waiting && waits_for_access(*next) ? Routine::AwaitsIdle : Routine::Acts;
}

bool Lpsm::request_awaits_idle() const
{
    const OutgoingFrame* next = queue_->front();
    return next && bid_ == Bid::None && waits_for_access(*next) && !acts_on_every_word() && monitors_alone();
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
    // (The primitive sequences are the last word kinds, the initialization states the last states.)
    if ((w.kind >= WordKind::Lip || state_ >= LpsmState::Initializing || sequences_.current()) && receive_init(w)) return;
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
        if (w.frame->loop_init()) {
            // A loop initialization frame reaches a port in a circuit that did not recognise the LIPs
            // before it (a run cut short by a bypass in the same instant): it names no port (its D_ID
            // 0000EF is a mark), and it is nothing for the port's user: discarded, as by a port in
            // OPEN-INIT out of step; the initialization recovers after E_D_TOV.
            observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
            break;
        }
        if (w.frame->destination != cfg_.al_pa) {
            if (w.frame->source == cfg_.al_pa) {
                // Our own frame came round: nobody took it, its destination left the loop
                // (docs/loop_init.md, "Port bypass circuits"). Lost, as in the open slot; the layer
                // above recovers it.
                observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
                break;
            }
            error("received a frame addressed to another port");
        }
        if (!credit_.frame_received()) error("received a frame without credit");
        rx_ = hit(w) ? Rx::FrameForUsHit : Rx::FrameForUs;
        break;
    case WordKind::Opn:
        if (w.sender == cfg_.al_pa && (state_ == LpsmState::Open || state_ == LpsmState::XmittedClose)) {
            // Our own OPN came round, also after we closed (Command-First preemption sends CLS
            // with frames left for the peer, before the OPN is back).
            destination_absent();
            break;
        }
        error("received OPN while in a circuit");
        break;
    default: break;
    }
}

// Our own OPN came back round: its destination is not on the loop (pulled out or bypassed;
// docs/loop_init.md, "Port bypass circuits"). Its queued frames are discarded (the layer above
// recovers them: FCP recovery, docs/faults.md) and the circuit closes, or the port would open it again
// and again. In XMITTED_CLOSE it has closed already: its CLS, behind the OPN, comes back and ends
// the circuit as usual.
void Lpsm::destination_absent()
{
    while (queue_->front_for(peer_)) {
        queue_->pop_for(peer_);
        observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
    }
    if (state_ == LpsmState::Open) ending_ = Ending::AlTimeOut;  // next() closes
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
    // (An LI frame's source is the header's EF, not the port that sent this copy: its sender.)
    const phy::AlPa from = w.kind == WordKind::Frame && !w.frame->loop_init() ? w.frame->source : w.sender;
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
    if (bid_lapses()) {
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
    if (waits_for_access(*next)) return;
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
    case LpsmState::OpenInit:
        if (!answer_) return {K::None};
        switch (answer_->kind) {
        case LoopInitProcedure::Output::Kind::Frame: return {K::InitFrame};
        case LoopInitProcedure::Output::Kind::ArbF0: return {K::InitFill};
        case LoopInitProcedure::Output::Kind::Cls: return {K::Cls};
        case LoopInitProcedure::Output::Kind::Nothing: break;
        }
        return {K::None};
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
    case K::InitFrame: return loop_init_frame_word(answer_->frame, cfg_.al_pa);
    case K::InitFill: return Word::arb(phy::kArbFairnessFill);
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
    case K::InitFrame: answer_.reset(); return;
    case K::InitFill:
        answer_.reset();
        init_fill_ = InitFill::ArbF0;
        return;
    case K::Cls:
        if (state_ == LpsmState::OpenInit) {
            answer_.reset();
            if (init_.done()) finish_init();  // a port that passed the master's CLS on
            return;
        }
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
    if (in_initialization()) return init_fill();
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

// Loop initialization (docs/loop_init.md, "The LPSM in initialization").

void Lpsm::initialize(std::optional<phy::OrderedSet> lip, bool join_arriving)
{
    const phy::OrderedSet sent = lip ? *lip : init_.initializing_lip();
    if (!sent.is_lip()) throw std::invalid_argument("Lpsm::initialize: " + sent.name() + " is no LIP");
    if (!in_initialization()) drop_circuit_and_bid();
    lip_ = Word::sequence(sent);
    lip_.sender = cfg_.al_pa;
    init_fill_ = InitFill::Lip;
    answer_.reset();
    ++progress_;
    sent_lip_ = true;
    last_lip_back_ = false;
    set_state(LpsmState::Initializing);
    // A port in INITIALIZING that receives LIP enters OPEN-INIT, but a LIP run it recognised before and
    // that still arrives would never begin again: it takes it now, before sending a LIP of its own
    // (docs/loop_init.md, "The LPSM in initialization"). Not after E_D_TOV: the LIPs it waited behind
    // are those of the initialization that failed, and they may be nobody's any more (their
    // originator taken out of the loop while it was open: only it removes them), so it sends its
    // own, which replace them; its own still arriving it takes as before.
    if (sequences_.recognised() && sequences_.current()->is_lip() && rx_word_.kind == WordKind::Lip &&
        (join_arriving || own_lip(*sequences_.current()))) {
        sent_lip_ = own_lip(*sequences_.current());  // the same LIP: taken for its own, as one coming back
        lip_recognised(sent_lip_);
    }
}

// A primitive sequence, or any word in initialization. False: a steady-state word the LPSM takes
// as usual (the primitive sequence counted before it is over).
bool Lpsm::receive_init(const Word& w)
{
    const auto recognised = sequences_.receive(w.is_sequence() ? std::optional<phy::OrderedSet>(w.ordered_set()) : std::nullopt);
    if (!w.is_sequence() && !in_initialization()) return false;
    if (frame_for_us()) {
        if (rx_word_.frame->loop_init()) {
            const bool hit = rx_ == Rx::FrameForUsHit;
            rx_ = Rx::Absorbed;
            ++progress_;
            // A hit one is lost: E_D_TOV recovers it.
            if (hit) observer_.lpsm_event(LpsmObserver::Event::FrameDiscarded);
            else init_frame_complete(static_cast<const LoopInitFrame&>(*rx_word_.frame->content));
        } else {
            frame_complete();
        }
    }
    rx_word_ = w;
    rx_ = Rx::Repeated;
    if (w.is_sequence()) {
        if (w == lip_) last_lip_back_ = true;
        if (in_initialization()) {
            rx_fill_ = w;  // (progress: a LIP recognised, lip_recognised())
        } else if (!repeating()) {
            rx_ = Rx::Absorbed;  // a port in a circuit sends its own fill words until it acts on it
        }
        // LPB and LPE act on the enclosure's bypass circuits, not on the LPSM.
        // Its own LIPs back make the port the originator; another port's it joins as a repeater, so
        // that they go on round to the port that sends them, the only one that removes them.
        if (recognised && recognised->is_lip() && !removes_own_lips(*recognised)) lip_recognised(sent_lip_ && own_lip(*recognised));
        return true;
    }
    // Fill words are no progress in initialization (but ARB(F0) in OPEN-INIT): a loop where only fill words
    // and LIPs go round makes none, and E_D_TOV ends the wait (docs/loop_init.md, "The LPSM in
    // initialization").
    if (!w.is_fill() || !in_initialization() || (state_ == LpsmState::OpenInit && w.is_arb(phy::kArbFairnessFill))) ++progress_;
    if (w.is_fill()) {
        rx_fill_ = w;
        // An originator's own IDLEs are back, behind the last LIP it sent: its LIPs are off the loop,
        // and it repeats from now on (the master's ARB(F0) must get round). The master keeps its own
        // fill words.
        if (state_ == LpsmState::OpenInit && init_fill_ == InitFill::Idle && !init_.master() && last_lip_back_)
            init_fill_ = InitFill::Repeat;
        if (state_ == LpsmState::OpenInit && w.is_arb(phy::kArbFairnessFill)) {
            auto out = init_.arb_f0_received();
            if (out.is(LoopInitProcedure::Output::Kind::Frame)) {
                // The master's ARB(F0) is back: the loop is clear; LIFA at once, IDLE from now on.
                init_fill_ = InitFill::Idle;
                answer(std::move(out), 0);
            }
        }
        return true;
    }
    rx_ = Rx::Absorbed;  // everything else stops here: LI frames are stored and forwarded
    if (state_ != LpsmState::OpenInit) return true;
    if (w.kind == WordKind::Frame && w.frame->loop_init()) {
        rx_ = hit(w) ? Rx::FrameForUsHit : Rx::FrameForUs;
    } else if (w.kind == WordKind::Cls) {
        answer(init_.cls_received(), 0);
        if (init_.done() && !answer_) finish_init();  // the master: its CLS is back
    }
    return true;
}

// A LIP this port sends, or sent in this initialization: it names the port's AL_PA as its sender,
// or it is the LIP it sends (LIP(F7,F7), LIP(F8,F7): no AL_PA named).
bool Lpsm::own_lip(const phy::OrderedSet& lip) const
{
    const phy::AlPa none = phy::OrderedSet::lip_initializing(std::nullopt).x();
    return lip == lip_.ordered_set() || (lip.x() != none && lip.x() == cfg_.al_pa);
}

// An originator removes its LIPs with its IDLEs until those come back: a run of its own LIPs that
// arrives meanwhile is one it sent before it knew it originated (a LIP(F7,x) it switched to after its
// LIP(F8,x) had filled the loop, say), not a new initialization (docs/loop_init.md, "The LPSM in
// initialization").
bool Lpsm::removes_own_lips(const phy::OrderedSet& lip) const
{
    if (state_ != LpsmState::OpenInit) return false;
    const bool removing = init_fill_ == InitFill::MinimumLips || (init_fill_ == InitFill::Idle && !init_.master());
    return removing && own_lip(lip);
}

void Lpsm::lip_recognised(bool originator)
{
    // A new initialization is progress; the LIP of the one it repeats arriving again is not (it restarts the
    // procedure but not the wait: LIPs nobody removes, their sender taken out of the loop, may go round
    // for ever among the others' words; docs/loop_init.md, "The LPSM in initialization").
    const phy::OrderedSet lip = rx_word_.ordered_set();
    if (originator || state_ != LpsmState::OpenInit || !open_init_lip_ || !(lip == *open_init_lip_)) ++progress_;
    open_init_lip_ = lip;
    if (originator) sent_lip_ = false;
    if (!in_initialization()) drop_circuit_and_bid();
    // An originator stops its LIPs (once it has sent the minimum) and sends IDLE, which removes them
    // when they come back round; every other port repeats what it receives, the LIPs first.
    init_fill_ = originator ? InitFill::MinimumLips : InitFill::Repeat;
    rx_fill_ = rx_word_;  // the LIP: what a repeating port sends from now on
    answer_.reset();
    set_state(LpsmState::OpenInit);
    answer(init_.enter_open_init(originator), 0, originator ? kLipsBeforeLism : 0);
}

void Lpsm::init_frame_complete(const LoopInitFrame& frame)
{
    if (state_ != LpsmState::OpenInit) return;
    answer(init_.frame_received(frame), cfg_.init_frame_processing_s);
}

void Lpsm::answer(LoopInitProcedure::Output out, double delay_s, unsigned min_lips)
{
    if (out.is(LoopInitProcedure::Output::Kind::Nothing)) return;
    if (answer_) {
        auto kept = init_.one_of(*answer_, out);
        if (!kept)
            return error("loop initialization: an answer (" + describe(out) + ") arrived while the last one (" +
                         describe(*answer_) + ") was still to be sent");
        if (kept->kind == answer_->kind && kept->frame == answer_->frame) return;  // the one still to be sent
        min_lips = std::max(min_lips, answer_min_lips_);  // an originator's LIPs still go out in full
    }
    ++answers_;
    answer_ = std::move(out);
    answer_delay_s_ = delay_s;
    answer_min_lips_ = min_lips;
}

void Lpsm::finish_init()
{
    open_init_lip_.reset();
    sent_lip_ = false;
    last_lip_back_ = true;
    if (const auto a = init_.al_pa()) cfg_.al_pa = *a;
    access_ = true;
    set_state(LpsmState::Monitoring);
}

bool Lpsm::awaits_init() const
{
    return state_ == LpsmState::OpenInit && !answer_ && !frame_for_us();
}

void Lpsm::e_d_tov_expired()
{
    if (state_ != LpsmState::OpenInit) return;
    init_.timed_out();
    initialize(std::nullopt, false);
}

// Whatever circuit or arbitration the port was in is over (the frames stay queued).
void Lpsm::drop_circuit_and_bid()
{
    credit_.close();
    ending_ = Ending::None;
    bid_ = Bid::None;
    fill_ = Fill::Repeats;
}

void Lpsm::leave_loop()
{
    // A frame for us whose EOF has not arrived never will: it is lost in the open slot with what
    // followed it (docs/loop_init.md, "Port bypass circuits"), and the buffer it took is free again,
    // so that back in the loop the port takes the frames its Login_BB_Credit promises. (An LI frame
    // took none.) Out of the loop it owes no R_RDY for it. The result needs no check: the frame took a
    // buffer when it began (receive() reports one that came without credit).
    if (frame_for_us() && !rx_word_.frame->loop_init()) (void)credit_.buffer_released(false);
    drop_circuit_and_bid();
    lose_signal();
    open_init_lip_.reset();
    sent_lip_ = false;
    last_lip_back_ = true;
    rx_ = Rx::Repeated;
    init_fill_ = InitFill::Repeat;
    answer_.reset();
    ++progress_;
    set_state(LpsmState::Monitoring);
}

// Nothing arrives any more (the port left the loop, or its receiver lost the signal): a primitive
// sequence it was receiving is over.
void Lpsm::lose_signal() { sequences_.reset(); }

Word Lpsm::init_fill() const
{
    switch (init_fill_) {
    case InitFill::Lip:
    case InitFill::MinimumLips: return lip_;
    case InitFill::Idle: return Word::idle();
    case InitFill::ArbF0: return Word::arb(phy::kArbFairnessFill);
    case InitFill::Repeat: break;
    }
    return rx_fill_;
}

}  // namespace fcal::loop
