#pragma once
// One L_Port on the loop (docs/loop.md): the SystemC module that puts
// together the pieces with one job each and runs them in time:
//   Lpsm          the Loop Port State Machine with fairness, circuits and TRANSFER (no SystemC);
//   CircuitCredit buffer-to-buffer credit, alternative and login (inside the Lpsm);
//   WordSpacing   when the next primitive or frame may start;
//   EdgeLink      the changes on their way to this port, with the fast path's books;
//   observers     PortStatistics, PortVcd, PortWatcher and the layer above (PortUser).
//
// Timing model. A change a port transmits reaches the next port's *output stage* after the cable
// delay plus that port's repeat delay (Loop folds both into one hop delay), so a repeating port
// forwards a change at the very instant it is handed to it, and a port reacts to what it receives
// with the same latency as repeating it. A loop round trip is therefore exactly
// nodes x port delay + total cable delay. Primitives are acted on at their first word, frames at the
// end of their EOF. Requests from the layer above are taken up in the instant they are made.
//
// Fast path (exact). A change handed to a port that cannot alter it by the time it arrives is
// forwarded downstream at once, without a kernel event; the port catches up with its bookkeeping
// when it next runs. That holds for a frame or primitive at any repeating port with nothing of its
// own left to process (only OPN to the port or ARB(own) could stop it repeating, and either would
// be queued ahead), and for any word at a *quiet* port: MONITORING, nothing to send, nothing queued
// to process (a port waiting for the access window: any fill word but IDLE). An arbitrating port
// passes fill words on replaced (Lpsm::fill_replacement). A quiet port stops being quiet only when
// the layer above gives it something to send; it then recalls the changes it passed on that have
// not yet reached it (truncating the queues downstream) and processes them itself.
//
// Folded ports. A port whose LPSM would only pass words on (Lpsm::routine: it repeats, waits for
// the access window, or arbitrates and replaces fill words) leaves the chain of ports a change
// visits: like a passive node, it is folded into the hop delay of the active port before it (its
// *source*), which logs what it sends (OutputLog) for the folded ports behind it (its *span*) and
// replaces fill words as their arbitrating ones would. A folded port reads what reached it from the
// log only when it needs to: it rejoins the chain the instant the layer above gives it something to
// send (wake(), also called for every port before a LIP; a port that would only wait for the next
// access window waits folded instead: await_idle_folded()), or a word it would act on (an OPN to it,
// its own ARB, an IDLE it waits for) enters its span; the log is compacted now and then.
//
// Fewer runs. A port in a circuit takes later the words it holds that change nothing it does before
// its next run (Lpsm::may_wait), and when it starts an own word after which it will only send its
// fill word, it sends that change ahead, stamped with the word's end, and wakes only when the next
// own word may start (plan_own_word_end); running earlier, it takes the change back and decides
// afresh. A buffer the layer above frees, owed as an R_RDY while the transmitter is free, is
// granted in that instant from the caller's activation rather than one delta later from the port's
// own (grant_at_once). Watched or traced ports do none of this and always take the full path, so a
// trace shows every word.
//
// Frame trains. A port that opened a circuit and sends the frames queued for its peer (in the order
// queued) sends them ahead, each with the fill word after it, at the instants they start as things
// stand (FrameTrain); an R_RDY handed to it, a frame queued or handed over ahead carries the train on
// without a run of the port. It takes note of the frames when it next runs, and takes back those not
// started by then; anything else it must process makes it run.
#include <bitset>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>
#include <systemc>

#include "fcal/loop/edge_link.hpp"
#include "fcal/loop/frame_train.hpp"
#include "fcal/loop/frames_ahead.hpp"
#include "fcal/loop/loop_activity.hpp"
#include "fcal/loop/lpsm.hpp"
#include "fcal/loop/output_log.hpp"
#include "fcal/loop/port_config.hpp"
#include "fcal/loop/port_statistics.hpp"
#include "fcal/loop/port_user.hpp"
#include "fcal/loop/port_vcd.hpp"
#include "fcal/loop/port_watcher.hpp"
#include "fcal/loop/transmit_queue.hpp"
#include "fcal/loop/word.hpp"
#include "fcal/loop/word_errors.hpp"
#include "fcal/loop/word_spacing.hpp"
#include "fcal/kernel/ring_queue.hpp"
#include "fcal/kernel/timers.hpp"
#include "fcal/phy/link_timing.hpp"

namespace fcal::loop {

class LPort;

// Told when a port enters or leaves loop initialization (INITIALIZING, OPEN-INIT): the loop keeps
// the account of its initializations (docs/loop_init.md, "Initialization in the running loop").
class InitObserver {
public:
    virtual ~InitObserver() = default;
    virtual void init_state_changed(LPort& port, LpsmState from, LpsmState to) = 0;
};

class LPort : public sc_core::sc_module, private LpsmObserver {
public:
    SC_HAS_PROCESS(LPort);
    LPort(sc_core::sc_module_name name, const PortConfig& config, const phy::LinkTiming& timing,
          const LoopDirectory& directory, LoopActivity& activity);

    // Wiring, done by Loop: the next L_Port on the ring and the delay to its output stage.
    void connect(LPort& downstream, const sc_core::sc_time& hop_delay);
    void receive(const sc_core::sc_time& arrival, const Word& word);

    // The layer above.
    void set_user(PortUser* user) { user_ = user; }
    // Frames handed over ahead go, when due, to `taker` (PortUser::frame_due) rather than straight
    // into the queue; nullptr: straight in.
    void set_due_frame_taker(PortUser* taker) { due_taker_ = taker; }
    void set_transmit_queue(std::unique_ptr<TransmitQueue> queue);
    TransmitQueue& transmit_queue() { return *queue_; }
    void queue_frame(FrameRef frame) { queue_frame(OutgoingFrame{std::move(frame)}); }
    void queue_frame(OutgoingFrame frame);
    // A frame the layer above hands over before it is due: it counts as queued from `due` on
    // (loop/frames_ahead.hpp). `tag` names what it belongs to (an exchange) for withdraw_ahead().
    void queue_frame_ahead(OutgoingFrame frame, const sc_core::sc_time& due, std::uint64_t tag);
    // The frames of `tag` handed over ahead and due after now are taken back: how many.
    std::size_t withdraw_ahead(std::uint64_t tag);
    // The frames handed over ahead that are due by now go into the queue now (a layer above that
    // takes them itself, set_due_frame_taker(), asks before it looks at the queue).
    void take_due_frames();
    // A due frame the layer above hands on (PortUser::frame_due): into the queue now.
    void push_due(OutgoingFrame frame);
    // The transmit queue's head listener: a push changed what the port would be told.
    void frames_changed();
    // A folded port rejoins the chain of ports a change visits (the layer above has something for
    // it; Loop::start_lip wakes every port before a LIP). Nothing if not folded.
    void wake();
    void release_buffer();   // a received frame has been consumed; its buffer is free again
    // When the frame frame_received() hands over ended (its EOF arrived), which may be before now
    // (PortUser::frame_slack).
    const sc_core::sc_time& frame_end() const { return frame_end_; }

    // Loop initialization (docs/loop_init.md, "Initialization in the running loop"; lport_init.cpp).
    // The port initializes now: it sends `lip` (by default LIP(F7,F7) or LIP(F7,x)). Loop::start_lip
    // wakes every port first.
    void initialize(std::optional<phy::OrderedSet> lip = std::nullopt);
    bool in_initialization() const { return lpsm_.in_initialization(); }
    const LoopInitProcedure& init_procedure() const { return lpsm_.init_procedure(); }
    void set_init_observer(InitObserver* observer) { init_observer_ = observer; }

    // Port bypass circuits in the running loop (docs/loop_init.md, "Port bypass circuits";
    // lport_bypass.cpp), called by Loop with every port awake. cut_output: from `now` on what the
    // port transmits goes nowhere (the slot downstream is open or about to be rewired); what it had
    // passed on or sent ahead that would leave after `now` is withdrawn. splice_to: from `now` on it
    // transmits to `to`, `hop` later (what it transmits now arrives then). leave_ring: the port is
    // out of the loop (pulled, failed, bypassed): it receives nothing, sends nowhere, and its LPSM
    // drops whatever it was doing.
    void cut_output(const sc_core::sc_time& now);
    void splice_to(LPort& to, const sc_core::sc_time& hop, const sc_core::sc_time& now);
    void leave_ring(const sc_core::sc_time& now);
    // Its receiver loses the signal (the slot upstream opened): a primitive sequence it was
    // receiving is over, and it sends `lip` (LIP(F8,x)).
    void lose_signal(const phy::OrderedSet& lip);
    // The loop opens at the output of `cut` (Loop tells every port first, with every port awake): LIPs
    // of its own that had not got past it are lost (lport_init.cpp).
    void loop_cut_at(const LPort& cut, const sc_core::sc_time& now);
    // The loop is whole again: a wait in OPEN-INIT is bounded by E_D_TOV from now on, and the LIPs it
    // still sends go round.
    void loop_closed();
    // The layer above lost its link (docs/faults.md, "Loop failure"): the frames still waiting in
    // the transmit queue are dropped, each counted in frames_discarded.
    void discard_queued();

    // Faults (docs/faults.md, "Faults and recovery", "Bit errors on the loop"); set up by Loop after connect().
    // Bit errors at `ber` on every link, drawn from streams derived from `seed`; AL_TIME bounds every
    // wait for the peer of a circuit. ber 0 with no word errors set: nothing changes, no timer runs.
    void set_bit_errors(double ber, std::uint64_t seed, const sc_core::sc_time& al_time);
    // A test's own choice of the words that arrive hit, instead of the random ones (the fill words
    // keep their rate).
    void set_word_errors(WordErrors* errors);

    // Observation.
    const PortConfig& config() const { return cfg_; }
    const phy::LinkTiming& timing() const { return timing_; }
    phy::AlPa al_pa() const { return cfg_.al_pa; }
    LpsmState state() const { return lpsm_.state(); }
    bool access() const;
    bool arbitrating() const { return lpsm_.arbitrating(); }
    unsigned free_buffers() const { return lpsm_.credit().free_buffers(); }
    int credit() const { return lpsm_.credit().credit(); }
    unsigned login_credit_used() const { return lpsm_.credit().login_credit_used(); }
    unsigned r_rdys_to_discard() const { return lpsm_.credit().r_rdys_to_discard(); }
    // What it transmits now.
    Word transmitting() const;
    // Folded out of the chain (docs/loop.md, "Fast path").
    bool folded() const { return folded_; }
    PortStats stats() const;
    // One line of a diagnosis: "  name AL_PA state access=.. arbitrating=.. credit=.. free_buffers=.. tx=..".
    void print_state(std::ostream& out) const;
    // Start the running maximum afresh (a measurement window opens).
    void restart_maxima() { stats_.restart_maxima(); }
    void set_watcher(PortWatcher* watcher)
    {
        wake();
        end_train_now(sc_core::sc_time_stamp());
        watcher_ = watcher;
        observed_ = watcher_ != nullptr || vcd_ != nullptr;
        if (!ahead_.empty()) plan_frames_ahead(sc_core::sc_time_stamp());  // from now on each at its due time
    }
    void trace(sc_core::sc_trace_file* tf);
    // Stops sampling into the trace file (before it is closed, mid-run: fcal-sim --vcd-window); the
    // port may fold again.
    void untrace();
    // Takes note now of the changes it passed on that have reached it (a port on the fast path
    // otherwise does when it next runs): the fill words hit on its link to the next port are
    // counted when the fill word they belong to ends (Loop::settle_ports, at the end of a run). The
    // frames handed over ahead and due by now go in through a layer above that takes them itself.
    void settle_passed_changes();
    // Frame trains (docs/loop.md, "Frame trains"): on by default; a test compares a run without.
    void send_trains(bool on) { trains_allowed_ = on; }
private:
    void listen_to_queue();
    void push_frame(OutgoingFrame out);
    // A frame the layer above queues now (due now, if handed over ahead).
    void queue_now(OutgoingFrame out, const sc_core::sc_time& now);
    // Frames handed over ahead: those due by `now` enter the queue; the port wakes (its own process,
    // admit_frames_ahead) at the due time of the next if its entry will tell it something.
    void take_frames_ahead(const sc_core::sc_time& now);
    void plan_frames_ahead(const sc_core::sc_time& now);
    void admit_frames_ahead();
    void step();
    void run(const sc_core::sc_time& now);
    bool grant_at_once();
    // The port's own processing takes the time of its run (`now`) from its caller.
    void transmit(const sc_core::sc_time& now);
    bool may_send_at(const sc_core::sc_time& earliest, const sc_core::sc_time& now);
    sc_core::sc_time earliest(const Lpsm::Decision& d, const sc_core::sc_time& now) const;
    void send_own(const Word& w, const sc_core::sc_time& now);
    void end_own_word(const sc_core::sc_time& now);
    bool plan_own_word_end(const sc_core::sc_time& now);
    void realize_own_word_end();
    void emit(const Word& w, const sc_core::sc_time& now);
    void update_fill(const sc_core::sc_time& now);
    bool can_pass_through() const;
    const Word* passes_as(const Word& word, Word& replacement) const;
    static bool changes_output(const Word& out, const Word& before);
    void pass_held_changes(const sc_core::sc_time& now);
    void catch_up(const EdgeLink::Change& c);
    void catch_up(const RepeatedRun& run);
    void recall_passed_through(const sc_core::sc_time& now);
    void truncate_after(const sc_core::sc_time& cutoff);
    void withdraw_after(const sc_core::sc_time& t);
    void forward(const sc_core::sc_time& at, const Word& w, const Word& before);
    const Word& last_sent() const;
    // What leaves the port at `now`, and since when (`since`). At the instant a word ends it is
    // that word (AtWordEnd::TheWord: what the port is transmitting) or the fill word after it
    // (AtWordEnd::TheFill: what the wire carries from then on).
    enum class AtWordEnd { TheWord, TheFill };
    Word output_at(const sc_core::sc_time& now, AtWordEnd at_end, sc_core::sc_time& since) const;
    // Folding (docs/loop.md, "Fast path").
    void try_fold();
    void fold();
    void rejoin();
    void survey_span();
    void clear_span();  // no folded ports behind it
    void wake_in_span(const Word& w);
    bool await_idle_folded();
    // Frame trains (docs/loop.md, "Frame trains").
    bool may_train(const Lpsm::Decision& d) const;
    void start_train(const sc_core::sc_time& now);
    void extend_train(const sc_core::sc_time& now);
    void stop_train(const sc_core::sc_time& now);
    void end_train_now(const sc_core::sc_time& now);
    void end_train_soon();
    void realize_car();
    Word car_word(const FrameTrain::Car& car) const;
    bool idle_on_its_way() const;
    struct Feed;
    Word as_received(const Word& w, phy::AlPa arb_before) const;
    Word as_sent(const Word& w) const;
    std::optional<RepeatedRun> arrived(const Feed& f, OutputLog::Seq to, const sc_core::sc_time& now, OutputLog::Seq& end) const;
    template <class F>
    void for_each_arrived(F&& f) const;
    void settle();
    void let_go(const Feed& f);
    void switch_source(LPort* to, const sc_core::sc_time& offset);
    void materialize();
    void pass_in_flight(const Feed& f, OutputLog::Seq to);
    void clip_input_after(const sc_core::sc_time& cutoff);
    void compact_log();
    void arm_rx_event(const sc_core::sc_time& now);
    bool may_wait(const sc_core::sc_time& arrival, const Word& word, sc_core::sc_time& frame_deadline) const;
    void take_deferred_frames();
    void drop_deferred_frames_after(const sc_core::sc_time& cutoff);
    void wake_at(const sc_core::sc_time& t, const sc_core::sc_time& now);
    // Inline: it runs at every activation; the report is out of line.
    void guard_against_livelock(const sc_core::sc_time& now)
    {
        if (now != last_step_at_) {
            last_step_at_ = now;
            steps_at_instant_ = 0;
        } else if (++steps_at_instant_ > activity_.same_instant_limit()) {
            report_livelock(now);
        }
    }
    [[noreturn]] void report_livelock(const sc_core::sc_time& now) const;
    void kick();
    void sample_vcd();
    void count_fill_errors(const sc_core::sc_time& until);
    void watch_al_time(const sc_core::sc_time& now);
    // Loop initialization (lport_init.cpp).
    // (Word kinds from LIP on are the primitive sequences.)
    bool takes_in_init(const EdgeLink::Change& c) const { return c.word.kind >= WordKind::Lip || init_busy_; }
    void take_in_init(const EdgeLink::Change& c);
    void repeat_sequence(const sc_core::sc_time& limit, bool inclusive);
    void receive_init_word(const Word& w, const sc_core::sc_time& at);
    void set_answer_at(const sc_core::sc_time& at);
    template <class F>
    void start_own_lips(F&& lpsm_start, const sc_core::sc_time& now);
    void own_lip_sent(const sc_core::sc_time& now);
    void after_init_step(const sc_core::sc_time& now);
    void end_minimum_lips(const sc_core::sc_time& now);
    void update_e_d_tov();
    void e_d_tov_expired();

    // LpsmObserver: statistics and the layer above.
    void lpsm_event(Event e) override;
    void state_changed(LpsmState from, LpsmState to) override;
    void frame_received(const FrameRef& frame) override;
    void protocol_error(const std::string& what) override;
    void code_violations(std::uint64_t count) override { stats_.code_violations(count); }

    PortConfig cfg_;
    phy::LinkTiming timing_;
    sc_core::sc_time word_;
    sc_core::sc_time circuit_hold_;
    const LoopDirectory& directory_;
    LoopActivity& activity_;  // shared by the loop's ports
    // The chain: the next active port and the delay to its output stage, and the active port before
    // this one (while this one is active).
    LPort* downstream_ = nullptr;
    sc_core::sc_time hop_delay_;
    LPort* upstream_ = nullptr;
    LPort* next_ = nullptr;  // the next L_Port on the ring, active or folded
    bool fold_allowed_ = true;  // not with bit errors on the loop
    bool folded_ = false;
    // A port folds only once it has passed on this many changes since it last ran (or rejoined):
    // folding and rejoining switch every folded port behind it to another log, and a port that has
    // just acted often acts again after a change or so (docs/loop.md, "Fast path").
    static constexpr unsigned kFoldAfterPassing = 2;
    unsigned passed_since_run_ = 0;
    // Active: what it sent downstream, for the folded ports up to downstream_ (its span), whose
    // AL_PAs are marked in span_: the highest-priority arbitrating one (span_best_) and the first
    // one an IDLE would wake. The log is compacted once it holds compact_at_ entries.
    static constexpr std::size_t kCompactEntries = 256;
    static constexpr phy::AlPa kNoArbitrator = 0xFF;  // below every AL_PA in priority
    OutputLog log_;
    std::bitset<256> span_;
    unsigned span_size_ = 0;
    phy::AlPa span_best_ = kNoArbitrator;
    LPort* idle_waker_ = nullptr;
    std::size_t compact_at_ = kCompactEntries;
    // Folded: what it does with words (the LPSM's routine when it folded); its input, after what its
    // EdgeLink holds, is source_'s log from source_pos_ on, offset_ later, its fill words replaced
    // as by an arbitrating port of priority arb_before_.
    Lpsm::Routine routine_ = Lpsm::Routine::Acts;
    LPort* source_ = nullptr;
    OutputLog::Seq source_pos_ = 0;
    sc_core::sc_time offset_;
    phy::AlPa arb_before_ = kNoArbitrator;
    // Before that, stretches of the logs of the sources it had before, which it has still to read
    // (pinned there), oldest first: a change of source costs no reading then.
    struct Feed {
        LPort* owner;
        OutputLog::Seq pos, end;
        sc_core::sc_time offset;
        phy::AlPa arb_before;
    };
    static constexpr std::size_t kMaxFeeds = 2;
    std::vector<Feed> feeds_;
    PortUser* user_ = nullptr;
    PortUser* due_taker_ = nullptr;
    std::unique_ptr<TransmitQueue> queue_;
    FramesAhead ahead_;
    sc_core::sc_event ahead_event_;
    Lpsm lpsm_;

    // Receive side.
    EdgeLink in_;
    sc_core::sc_event rx_event_;
    // Frames for the port whose EOF has arrived but which it takes later, within the layer above's
    // slack (PortUser::frame_slack): when each EOF arrived and by when the port runs to take it.
    struct DeferredFrame {
        sc_core::sc_time eof, deadline;
    };
    kernel::RingQueue<DeferredFrame> deferred_frames_;
    sc_core::sc_time frame_end_;

    // Transmit side.
    WordSpacing spacing_;
    Word tx_word_;
    sc_core::sc_time tx_since_;
    bool tx_own_ = false;  // sending an own primitive or frame until tx_end_
    sc_core::sc_time tx_end_;
    sc_core::sc_event tx_event_;
    sc_core::sc_event kick_event_;
    // The earliest wake-up of the process pending (tx_event_), if any.
    std::optional<sc_core::sc_time> wake_at_;
    // The fill word that follows the own word was sent ahead of time (plan_own_word_end).
    bool planned_ = false;
    Word planned_fill_;
    // The frames sent ahead behind the own word (docs/loop.md, "Frame trains").
    FrameTrain train_;
    bool trains_allowed_ = true;
    // A train starts only with this many frames for the peer ready (queued, or handed over ahead):
    // with fewer, planning it and taking note of it cost more than the runs it spares (docs/loop.md,
    // "Frame trains").
    static constexpr std::size_t kTrainFrames = 8;
    // Repeating the IDLE that set ACCESS until then (Lpsm::repeats_access_word()).
    sc_core::sc_time access_word_end_;
    sc_core::sc_event access_word_event_;

    // Observers.
    PortStatistics stats_;
    PortWatcher* watcher_ = nullptr;
    std::unique_ptr<PortVcd> vcd_;
    bool observed_ = false;  // watched or traced: every change takes the full path
    bool running_ = false;   // inside run(): a call from the layer above waits for the next delta


    // Faults: hit words in what the port consumes (words_hit_: the random ones or a test's), fill
    // words hit on the links to the next port (counted there), and the AL_TIME watch.
    std::unique_ptr<BitErrors> own_errors_, fill_errors_;
    WordErrors* words_hit_ = nullptr;
    unsigned out_links_ = 1;
    sc_core::sc_time al_time_;  // watched only with word errors set
    bool al_armed_ = false;
    std::uint64_t own_words_ended_ = 0;
    std::uint64_t al_progress_ = 0;
    sc_core::sc_time al_deadline_;
    sc_core::sc_event al_event_;

    // Loop initialization. A primitive sequence run is one change: the LPSM gets its word again
    // one and two word times after it arrived (sequence_repeats_ left, the next at sequence_at_);
    // an answer leaves no earlier than answer_at_; E_D_TOV on one deadline of the port's timers.
    InitObserver* init_observer_ = nullptr;
    bool init_busy_ = false;  // in initialization, or a primitive sequence run still to hand over
    Word sequence_word_;
    sc_core::sc_time sequence_at_;
    unsigned sequence_repeats_ = 0;
    sc_core::sc_time answer_at_;
    sc_core::sc_time lips_since_;  // an initializing port started its LIPs
    // The first LIP of its own in this initialization that went round left then (none: none did, or
    // they were lost in an open loop; lport_init.cpp).
    std::optional<sc_core::sc_time> lips_out_since_;
    kernel::Timers<int> init_timers_;
    kernel::Timers<int>::Handle e_d_tov_;
    std::uint64_t e_d_tov_progress_ = 0;

    // The livelock guard.
    sc_core::sc_time last_step_at_;
    std::uint64_t steps_at_instant_ = 0;
};

}  // namespace fcal::loop
