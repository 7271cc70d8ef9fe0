#pragma once
// One L_Port on the loop: the Loop Port State Machine, fairness, TRANSFER, alternative
// buffer-to-buffer credit and FC-2 word spacing, signalled by edge changes (docs/model.md, the
// sections "The loop: ...").
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
// to process. A quiet port stops being quiet only when the layer above gives it something to send;
// it then recalls the changes it passed on that have not yet reached it (truncating the queues
// downstream) and processes them itself. Watched or traced ports always take the full path, so a
// trace shows every word.
#include <cstdint>
#include <deque>
#include <memory>
#include <systemc>

#include "loop/lpsm_state.hpp"
#include "loop/port_config.hpp"
#include "loop/port_user.hpp"
#include "loop/port_watcher.hpp"
#include "loop/transmit_queue.hpp"
#include "loop/word.hpp"
#include "phy/link_timing.hpp"

namespace fcal::loop {

struct PortStats {
    std::uint64_t arbitrations_won = 0;
    std::uint64_t arbitrations_without_access = 0;  // began while ACCESS was clear (unfair)
    std::uint64_t transfers = 0;
    std::uint64_t preemptions = 0;  // circuits closed with frames left for the peer (TransmitQueue::preempt)
    std::uint64_t circuits_opened = 0;
    std::uint64_t frames_sent = 0;
    std::uint64_t frames_received = 0;
    std::uint64_t r_rdys_sent = 0;
    std::uint64_t r_rdys_received = 0;
    double arbitration_wait_total_s = 0;  // from wanting the loop to winning it
    double arbitration_wait_max_s = 0;
    double tenancy_s = 0;  // time as loop owner, from winning to giving the loop up
};

class LPort : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(LPort);
    LPort(sc_core::sc_module_name name, const PortConfig& config, const phy::LinkTiming& timing,
          const LoopDirectory& directory);

    // Wiring, done by Loop.
    void connect(LPort& downstream, const sc_core::sc_time& hop_delay);
    void receive(const sc_core::sc_time& arrival, const Word& word);

    // The layer above.
    void set_user(PortUser* user) { user_ = user; }
    void set_transmit_queue(std::unique_ptr<TransmitQueue> queue);
    TransmitQueue& transmit_queue() { return *queue_; }
    void queue_frame(std::shared_ptr<const LoopFrame> frame) { queue_frame(OutgoingFrame{std::move(frame)}); }
    void queue_frame(OutgoingFrame frame);
    // The transmit queue's head listener: a push changed what the port would be told.
    void frames_changed();
    void release_buffer();   // a received frame has been consumed; its buffer is free again

    // Observation.
    const PortConfig& config() const { return cfg_; }
    const phy::LinkTiming& timing() const { return timing_; }
    phy::AlPa al_pa() const { return cfg_.al_pa; }
    LpsmState state() const { return state_; }
    bool access() const { return access_; }
    bool arbitrating() const { return arbitrating_; }
    unsigned free_buffers() const { return free_buffers_; }
    int credit() const { return credit_; }
    unsigned login_credit_used() const { return login_credit_used_; }
    unsigned r_rdys_to_discard() const { return rrdy_to_discard_; }
    const Word& transmitting() const { return tx_word_; }
    const PortStats& stats() const { return stats_; }
    // Start the running maximum afresh (a measurement window opens).
    void restart_maxima() { stats_.arbitration_wait_max_s = 0; }
    void set_watcher(PortWatcher* watcher)
    {
        watcher_ = watcher;
        observed_ = watcher_ != nullptr;
    }
    void trace(sc_core::sc_trace_file* tf);
    // Process activations of all ports since the start (the benchmark's events per frame).
    static std::uint64_t activations() { return activations_; }

private:
    struct Change {
        sc_core::sc_time at;
        Word word;
        bool passed_through = false;  // already forwarded downstream; only bookkeeping remains
    };

    void step();
    void handle_rx(const Word& w);
    void handle_fill(const Word& w);
    void handle_cls();
    void handle_r_rdy();
    void become_opened(const Word& opn);
    void win();
    void maybe_start_arbitration();
    void try_transmit();
    void start_circuit_as_opener();
    void leave_circuit();
    void update_fill();
    Word desired_fill() const;
    Word substitute(const Word& fill) const;
    bool repeating() const { return state_ == LpsmState::Monitoring || state_ == LpsmState::Arbitrating; }
    bool may_send_at(const sc_core::sc_time& earliest);
    sc_core::sc_time primitive_earliest() const;
    sc_core::sc_time frame_earliest() const;
    void send_own(const Word& w);
    void send_next_frame();
    void emit(const Word& w);
    bool can_pass_through(const Word& w) const;
    void catch_up(const Change& c);
    void recall_passed_through();
    void truncate_after(const sc_core::sc_time& cutoff);
    void arm_rx_event();
    void note_nonfill_end(const Word& ending, const sc_core::sc_time& at);
    void set_state(LpsmState s);
    void kick();
    void protocol_error(const std::string& what) const;
    void listen_to(TransmitQueue& queue);

    PortConfig cfg_;
    phy::LinkTiming timing_;
    sc_core::sc_time word_;
    const LoopDirectory& directory_;
    LPort* downstream_ = nullptr;
    sc_core::sc_time hop_delay_;
    PortUser* user_ = nullptr;
    std::unique_ptr<TransmitQueue> queue_;
    PortWatcher* watcher_ = nullptr;

    // Receive side: changes on their way to this port's output stage.
    std::deque<Change> rx_queue_;
    sc_core::sc_event rx_event_;
    Word rx_word_;           // what arrives now
    Word rx_fill_;           // the last fill word that arrived
    bool rx_absorbed_ = false;  // rx_word_ is consumed by this port, not repeated
    bool rx_frame_for_us_ = false;
    unsigned rx_to_process_ = 0;  // queued changes that were not passed through
    bool observed_ = false;       // watched or traced: every change takes the full path

    // Transmit side.
    Word tx_word_;
    sc_core::sc_time tx_since_;
    bool tx_own_ = false;  // sending an own primitive or frame until tx_end_
    sc_core::sc_time tx_end_;
    bool sent_nonfill_ = false, sent_frame_ = false;
    sc_core::sc_time last_nonfill_end_, last_frame_end_;
    sc_core::sc_event tx_event_;
    sc_core::sc_event kick_event_;

    // LPSM.
    LpsmState state_ = LpsmState::Monitoring;
    bool access_ = true;
    bool arbitrating_ = false;      // replacing lower-priority fill words with ARB(own)
    bool owner_ = false;            // won arbitration and holds the loop
    Word own_fill_;                 // ARB(F0) until it came back, then IDLE
    bool others_arbitrating_ = false;
    bool fill_originator_ = false;  // left the loop while its ARB(F0) was still circulating
    bool fill_tail_in_flight_ = false;  // owner: switched ARB(F0) to IDLE, its last ARB(F0)s not yet back
    bool cls_received_ = false;     // XMITTED_CLOSE: the CLS came back

    // The circuit.
    phy::AlPa peer_ = 0;
    bool sending_ = false;    // may send frames in this circuit
    bool receiving_ = false;  // may receive frames (hands out R_RDYs)
    int credit_ = 0;
    unsigned peer_login_credit_ = 0;
    unsigned login_credit_used_ = 0;
    unsigned rrdy_to_discard_ = 0;
    unsigned free_buffers_ = 0;
    unsigned rrdy_owed_ = 0;

    // Statistics.
    PortStats stats_;
    bool requesting_ = false;
    sc_core::sc_time request_since_, owner_since_;
    // VCD mirrors (plain integers GTKWave shows as numbers).
    int vcd_state_ = 0, vcd_word_ = 0, vcd_credit_ = 0, vcd_free_buffers_ = 0;
    bool vcd_access_ = true, vcd_arbitrating_ = false;

    static std::uint64_t activations_;
};

}  // namespace fcal::loop
