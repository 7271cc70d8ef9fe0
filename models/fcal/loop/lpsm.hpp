#pragma once
// The Loop Port State Machine of one port with fairness, circuits and TRANSFER (docs/loop.md,
// "LPSM" and "Fairness") and loop initialization (docs/loop_init.md, "The LPSM in
// initialization"), without SystemC: it is told each word that reaches
// the port and decides what the port transmits. Tests drive it word by word.
//
// What the LPSM decides, the port carries out in time: next() names the next primitive or frame
// to send (or a state change that needs no word), the port waits for the word-spacing rules and
// then calls prepare() (which yields the word and takes a frame from the queue) and, once the word
// is on its way, commit(). fill() is the fill word the port transmits when it sends nothing of its
// own.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "fcal/loop/circuit_credit.hpp"
#include "fcal/loop/loop_init_procedure.hpp"
#include "fcal/loop/lpsm_state.hpp"
#include "fcal/loop/port_config.hpp"
#include "fcal/loop/primitive_sequence_detector.hpp"
#include "fcal/loop/transmit_queue.hpp"
#include "fcal/loop/word.hpp"
#include "fcal/loop/word_errors.hpp"

namespace fcal::loop {

// What happens in the LPSM, for the layer above and the statistics.
class LpsmObserver {
public:
    enum class Event {
        Requesting,              // has something to send and does not hold the loop
        ArbitrationWithoutAccess,  // began arbitrating while ACCESS was clear (unfair)
        Won,                     // won arbitration
        Transfer,                // opens another circuit through TRANSFER
        LeftLoop,                // gave the loop up
        CircuitOpened,           // sent OPN
        Preempted,               // closes with frames left for the peer
        RRdySent,
        RRdyReceived,
        // Faults (docs/faults.md, "Faults and recovery").
        FrameDiscarded,    // a frame for us failed its CRC, or our own frame came back (its OPN was lost)
        AlTimeExpired,     // a circuit waited AL_TIME for its peer
        CircuitAbandoned,  // a circuit given up: AL_TIME in OPENED, or a word no live circuit would bring
    };
    virtual ~LpsmObserver() = default;
    virtual void lpsm_event(Event e) = 0;
    virtual void state_changed(LpsmState from, LpsmState to) = 0;
    // A frame addressed to this port is complete (the word after its EOF arrived).
    virtual void frame_received(const FrameRef& frame) = 0;
    // A protocol violation by a peer or the layer above.
    virtual void protocol_error(const std::string& what) = 0;
    // Hit words found in a primitive signal or frame this port consumed (bit errors).
    virtual void code_violations(std::uint64_t count) { (void)count; }
};

// What a port records of a run of words it repeated or, arbitrating, passed on with its fill words
// replaced (Lpsm::repeated(const RepeatedWords&)): nothing but the last word, the last fill word and
// whether an IDLE was among them.
struct RepeatedWords {
    Word last;                     // the last word of the run
    std::optional<Word> last_fill;  // the last fill word of the run, if any
    bool idle = false;             // an IDLE was among them
};

// The fill word an arbitrating port with AL_PA `al_pa` transmits in place of `fill`: `fill` itself if
// it is an ARB of higher priority, else ARB(al_pa). Through several arbitrating ports a fill word
// comes out as it would through the one of highest priority alone.
Word arbitrating_fill(const Word& fill, phy::AlPa al_pa);

class Lpsm {
public:
    // The next thing to transmit, as next() decides it.
    struct Decision {
        enum class Kind {
            None,      // nothing: keep sending fill words
            Leave,     // end the circuit without a word of our own
            Opn,       // open the destination of the queue's head (primitive spacing)
            RRdy,      // grant a buffer (primitive spacing)
            Frame,     // the next frame for the peer (frame spacing)
            Cls,       // close (primitive spacing); in OPEN-INIT, the initialization's CLS
            // OPEN-INIT only, each no earlier than answer_delay_s() after the word that asked for it
            // arrived (docs/loop_init.md, "The LPSM in initialization"):
            InitFrame,  // the loop initialization frame the procedure answers (frame spacing)
            InitFill,   // the master: ARB(F0) becomes its fill word (no word of its own)
        };
        Kind kind = Kind::None;
        // Cls only: closing although frames for the peer are left (the queue preempts).
        bool frames_left = false;
        // Cls only: nothing is left for the peer right now, and nothing else of ours waits; a port
        // with a close timer may hold the circuit open a while for the next frame.
        bool idle_close = false;
    };

    Lpsm(const PortConfig& config, const LoopDirectory& directory, LpsmObserver& observer);

    void set_queue(TransmitQueue* queue) { queue_ = queue; }

    // A word that reaches the port and that it processes (it may absorb it).
    void receive(const Word& w);
    // A word the port repeated without processing: only the bookkeeping is left.
    void repeated(const Word& w);
    // Would the port forward `w` unchanged and without reacting to it, whatever else arrives
    // before it? (`w` a fill word: a monitoring port that wants nothing, or one that waits for the
    // access window and `w` is not IDLE; anything else: any repeating port unless `w` is an OPN
    // to it.)
    bool unaffected_by(const Word& w) const;
    // An arbitrating port alters only fill words, and receiving one (other than its own ARB) does
    // not change its state: the fill word it transmits in place of `w`, or nothing if `w` could
    // change its state or the port does not arbitrate.
    std::optional<Word> fill_replacement(const Word& w) const;
    // What the port would do with the words that arrive from now on, as long as none names it (an
    // OPN to it, its own ARB) and the layer above gives it nothing new. Anything but Acts lets the
    // port leave the chain of ports a change visits (docs/loop.md, "Fast path"): words
    // pass it as they would pass a passive node, its fill words replaced if it arbitrates. A port
    // with word errors set always Acts: its own words may come back.
    enum class Routine : std::uint8_t {
        Acts,          // may react to any word: it stays in the chain
        Repeats,       // monitoring with nothing to send: repeats every word
        AwaitsIdle,    // monitoring, waiting for the access window: repeats every word; an IDLE
                       // would start its arbitration
        ReplacesFill,  // arbitrating: repeats primitives and frames, sends arbitrating_fill() for
                       // every fill word (its own ARB would make it win)
    };
    Routine routine() const;
    // The layer above has just given a port in the Repeats routine its first frame: taking up the
    // request (update_arbitration()) would only leave it waiting for the next access window, in
    // the AwaitsIdle routine.
    bool request_awaits_idle() const;
    // The layer above took back every frame it had queued, in the instant the port took up its
    // request (LPort::discard_queued): a fair port still waiting for the access window withdraws its
    // bid, as if never asked (nothing was sent for it), whichever came first in that instant.
    void withdraw_request()
    {
        if (bid_ == Bid::Waiting && queue_->empty()) bid_ = Bid::None;
    }
    // A run of words a port in one of those routines received and passed on, none naming it (and,
    // for AwaitsIdle, no IDLE): the same as repeated(w) for each of them, in one step.
    void repeated(const RepeatedWords& run);
    // Receiving `w` changes nothing the port does before it next decides, and tells nobody (no
    // callback, no event): the port may take it when it next runs rather than the instant it
    // arrives (docs/loop.md, "Fast path"). A frame for the port: its effect waits for its
    // EOF, that is for the word after it (which the port must take in time). An R_RDY while the port
    // has credit or sends nothing. A fill word that leaves the port's fill word as it is
    // (`last_fill`: the last fill word received before it, if the LPSM has not taken it yet). Not for
    // a repeating port, nor with word errors set.
    bool may_wait(const Word& w, const Word* last_fill = nullptr) const;
    // A frame for the port is arriving (its EOF has not).
    bool receiving_frame() const { return frame_for_us(); }
    // The last word that reached the port.
    const Word& last_received() const { return rx_word_; }

    // Start or stop arbitrating as the queue demands (after receiving, before transmitting).
    void update_arbitration();
    // The bid ends at the next update_arbitration(): everything queued went out on a circuit another
    // port opened (full duplex), and the fill word changes with it.
    bool bid_lapses() const { return arbitrating() && queue_->empty(); }
    // The IDLE that set ACCESS is still being repeated: the port started arbitrating on it, but its
    // decision acts on later words only (docs/loop.md, "Fairness"). While true, fill()
    // is that IDLE and nothing may pass the port unprocessed; the port calls
    // access_word_repeated() one word later (or the next word it receives ends it).
    bool repeats_access_word() const { return rx_ == Rx::AccessIdle && arbitrating(); }
    void access_word_repeated()
    {
        if (rx_ == Rx::AccessIdle) rx_ = Rx::Repeated;
    }
    Decision next();
    Word prepare(const Decision& d);
    void commit(const Decision& d);
    // The fill word to transmit when sending nothing of our own.
    Word fill() const;

    // The layer above freed a receive buffer.
    void release_buffer();

    // Faults (docs/faults.md, "Faults and recovery", "Bit errors on the loop"). With word errors set, the words this
    // port consumes may arrive hit, and a word that no live circuit would bring (a stale circuit's)
    // ends the circuit instead of being a protocol error. Null: every word arrives intact.
    void set_word_errors(WordErrors* errors) { errors_ = errors; }
    // In a circuit and waiting for the peer (OPEN, OPENED, XMITTED_CLOSE): AL_TIME bounds the wait.
    bool awaits_peer() const;
    // Counts the words of the circuit received and sent: the wait restarts whenever it changes.
    std::uint64_t progress() const { return progress_; }
    // AL_TIME passed without progress: OPEN closes, XMITTED_CLOSE stops waiting for the CLS, OPENED
    // abandons the circuit and repeats again.
    void al_time_expired();

    // Loop initialization (docs/loop_init.md, "The LPSM in initialization"). The port must
    // initialize (it powers on, E_D_TOV ran out, its receiver lost the signal): INITIALIZING, with
    // `lip` as its fill word (by default the procedure's initializing_lip()) until it recognises
    // LIP coming back. Any port recognising LIP (the third identical one in a row) enters OPEN-INIT;
    // CLS ends it in MONITORING with the AL_PA the procedure obtained. `join_arriving`: another
    // port's LIP run it recognised before and that still arrives is taken at once (false after
    // E_D_TOV: that run belongs to the initialization it abandons).
    void initialize(std::optional<phy::OrderedSet> lip = std::nullopt, bool join_arriving = true);
    bool in_initialization() const { return state_ >= LpsmState::Initializing; }
    // OPEN-INIT with nothing of its own to send: E_D_TOV bounds the wait, which restarts whenever
    // progress() changes.
    bool awaits_init() const;
    // E_D_TOV passed without progress: this initialization is abandoned and the port initializes.
    void e_d_tov_expired();
    // The port leaves the loop (pulled out, failed, bypassed; docs/loop_init.md, "Port bypass
    // circuits"): its circuit, arbitration or initialization is over and it repeats (MONITORING);
    // the frames stay queued. It initializes when it is back.
    void leave_loop();
    // The port's receiver lost the signal (docs/loop_init.md, "Port bypass circuits"): a primitive
    // sequence it was receiving is over.
    void lose_signal();
    // The LIPs of its own it sent were lost in an open loop (docs/loop_init.md, "Port bypass circuits"):
    // none can come back, so a LIP like them that arrives is another port's (LIP(F7,F7) names no
    // sender), not its own back.
    void own_lips_lost() { sent_lip_ = false; }
    // LIPs of its own may be on their way round: its own back would make it the originator.
    bool own_lips_out() const { return sent_lip_; }
    // The loop is whole again: the LIPs it sends from now on, if it still initializes, go round.
    void output_restored()
    {
        if (state_ == LpsmState::Initializing) sent_lip_ = true;
    }
    // The port's first LIP of this initialization has left (the port tells when it goes on the wire;
    // until then, a word of its own still on the wire, LIPs of its own are not out: own_lips_lost()).
    // A LIP is the port's own back only once it has sent it (docs/loop_init.md, "The LPSM in
    // initialization"): before, LIP(F7,F7) arriving is another port's.
    void own_lip_left() { output_restored(); }
    // The answer next() gives in OPEN-INIT waits this long after the word that asked for it arrived
    // (an LI frame's end: the port's processing time; 0 for ARB(F0) and CLS passed on) and, from an
    // originator, until the port has transmitted answer_min_lips() LIPs of its own.
    double answer_delay_s() const { return answer_delay_s_; }
    unsigned answer_min_lips() const { return answer_min_lips_; }
    // An answer is waiting to be sent (next() gives it once the port's timing allows).
    bool answer_pending() const { return answer_.has_value(); }
    // Answers given so far: one more means a new answer to time (one that replaced the last one too).
    std::uint64_t answers() const { return answers_; }
    // An originator whose LIPs came back before it had sent answer_min_lips() of them keeps sending
    // LIPs until the port says the minimum is out (minimum_lips_sent()), then IDLE: a run of fewer
    // than three would not be recognised downstream, and a port still INITIALIZING there would wait
    // for ever (docs/loop_init.md, "The LPSM in initialization").
    bool sends_minimum_lips() const { return init_fill_ == InitFill::MinimumLips; }
    void minimum_lips_sent()
    {
        if (init_fill_ == InitFill::MinimumLips) init_fill_ = InitFill::Idle;
    }
    const LoopInitProcedure& init_procedure() const { return init_; }
    // The port's AL_PA: configured, then the one its last initialization obtained.
    phy::AlPa al_pa() const { return cfg_.al_pa; }
    // Holds an AL_PA on the loop: never initialized, or its last initialization gave it one.
    bool participating() const { return init_.step() == LoopInitProcedure::Step::Idle || init_.participating(); }

    LpsmState state() const { return state_; }
    // The other port of the circuit (while in one).
    phy::AlPa peer() const { return peer_; }
    bool access() const { return access_; }
    bool arbitrating() const { return bid_ == Bid::Arbitrating; }
    bool owner() const { return is_owner(fill_); }
    bool repeating() const { return state_ == LpsmState::Monitoring || state_ == LpsmState::Arbitrating; }
    const CircuitCredit& credit() const { return credit_; }

private:
    void handle_fill(const Word& w);
    void handle_cls();
    void become_opened(const Word& opn);
    void win();
    void maybe_start_arbitration();
    // (INITIALIZING and OPEN-INIT act on every word: the routines are for steady states; a
    // primitive sequence being counted may start initialization.)
    bool acts_on_every_word() const { return errors_ || frame_for_us() || rx_ == Rx::AccessIdle || sequences_.current(); }
    // Monitoring, not arbitrating and not the originator of a circuit's fill word.
    bool monitors_alone() const { return state_ == LpsmState::Monitoring && !arbitrating() && fill_ != Fill::Originator; }
    // A fair port holds `next` back until the next access window (an unfair frame does not wait).
    bool waits_for_access(const OutgoingFrame& next) const { return !access_ && cfg_.fair && !next.arbitrate_unfairly; }
    void start_circuit_as_opener();
    void leave_circuit();
    Word substitute(const Word& fill) const;
    void set_state(LpsmState s);
    void error(const std::string& what) { observer_.protocol_error(what); }
    bool hit(const Word& w);
    void frame_complete();
    bool receive_init(const Word& w);
    // An originator (its own LIPs are back) sends IDLE; every other port repeats the LIPs.
    bool own_lip(const phy::OrderedSet& lip) const;
    void lip_recognised(bool originator);
    bool removes_own_lips(const phy::OrderedSet& lip) const;
    void drop_circuit_and_bid();
    void init_frame_complete(const LoopInitFrame& frame);
    void answer(LoopInitProcedure::Output out, double delay_s, unsigned min_lips = 0);
    void finish_init();
    Word init_fill() const;
    bool stale_circuit_word(const Word& w);
    bool own_word_back(const Word& w) const;
    void destination_absent();

    PortConfig cfg_;
    const LoopDirectory& directory_;
    LpsmObserver& observer_;
    TransmitQueue* queue_ = nullptr;
    CircuitCredit credit_;

    // What the port did with the word arriving now. A frame for us stays "arriving" until the word
    // after its EOF; a hit one fails its CRC then.
    enum class Rx : std::uint8_t {
        Repeated,       // passed on (or, arbitrating, its fill word replaced)
        AccessIdle,     // the IDLE that set ACCESS, still being repeated as it is
        Absorbed,       // consumed by this port
        FrameForUs,     // a frame for this port, its EOF not yet arrived
        FrameForUsHit,  // the same, hit by a bit error: discarded when complete
    };
    // Where the port stands in getting the loop (an owner no longer bids: see Fill).
    enum class Bid : std::uint8_t {
        None,
        Waiting,      // told the observer it wants the loop; waits for the access window
        Arbitrating,  // replacing lower-priority fill words with ARB(own)
    };
    // The port's duty for the loop's fill word (docs/loop.md, "Fairness").
    enum class Fill : std::uint8_t {
        Repeats,     // sends the fill word it receives (substituted as substitute() says)
        Originator,  // left the loop while its ARB(F0) was still circulating: removes it
        // The loop owner sources its own fill words:
        OwnerArbF0,           // ARB(F0), nobody else seen arbitrating
        OwnerArbF0Contested,  // ARB(F0), another port's ARB seen
        OwnerIdleTail,        // IDLE since its ARB(F0) came back; its last ARB(F0)s not yet back
        OwnerIdle,            // IDLE, its own IDLE back or the tail passed
        OwnerIdleContested,   // IDLE, another port's ARB seen
    };
    // How a circuit this port is in is ending, beside its state.
    enum class Ending : std::uint8_t {
        None,
        AlTimeOut,  // OPEN: AL_TIME passed, close
        ClsBack,    // XMITTED_CLOSE: the CLS came back (or will not)
    };
    static bool is_owner(Fill f) { return f >= Fill::OwnerArbF0; }
    bool frame_for_us() const { return rx_ == Rx::FrameForUs || rx_ == Rx::FrameForUsHit; }
    // The owner's fill word.
    Word own_fill() const
    {
        return fill_ == Fill::OwnerArbF0 || fill_ == Fill::OwnerArbF0Contested ? Word::arb(phy::kArbFairnessFill) : Word::idle();
    }
    bool others_arbitrating() const { return fill_ == Fill::OwnerArbF0Contested || fill_ == Fill::OwnerIdleContested; }

    // What arrives.
    Word rx_word_;  // the word arriving now
    Word rx_fill_;  // the last fill word that arrived (in initialization, or primitive sequence)
    Rx rx_ = Rx::Repeated;

    LpsmState state_ = LpsmState::Monitoring;
    bool access_ = true;  // the standard's ACCESS flag: independent of everything else here
    Bid bid_ = Bid::None;
    Fill fill_ = Fill::Repeats;
    Ending ending_ = Ending::None;
    phy::AlPa peer_ = 0;

    // Loop initialization.
    // What the port transmits as its fill word in INITIALIZING and OPEN-INIT.
    enum class InitFill : std::uint8_t {
        Lip,     // INITIALIZING: its own LIP
        MinimumLips,  // OPEN-INIT, an originator: its own LIP until it has sent the minimum, then Idle
        Repeat,  // the fill word or primitive sequence it receives
        Idle,    // an originator (removes its LIPs coming back), and the master once its ARB(F0) is back
        ArbF0,   // the master until its ARB(F0) comes back
    };
    LoopInitProcedure init_;
    PrimitiveSequenceDetector sequences_;
    InitFill init_fill_ = InitFill::Repeat;
    Word lip_;  // INITIALIZING: the LIP it sends
    std::optional<phy::OrderedSet> open_init_lip_;  // OPEN-INIT: the LIP it recognised last
    bool sent_lip_ = false;  // it sent LIP of its own, not yet back: its LIPs back make it the originator
    // The LIP it sent last has come back (or it sent none): an originator that switched LIPs (LIP(F8,x)
    // to LIP(F7,x)) removes LIPs until its IDLEs are back behind the last (removes_own_lips()).
    bool last_lip_back_ = true;
    // The procedure's answer, not yet sent (next() gives it).
    std::optional<LoopInitProcedure::Output> answer_;
    double answer_delay_s_ = 0;
    unsigned answer_min_lips_ = 0;
    std::uint64_t answers_ = 0;

    // Faults.
    WordErrors* errors_ = nullptr;
    std::uint64_t progress_ = 0;
};

}  // namespace fcal::loop
