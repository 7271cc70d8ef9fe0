#pragma once
// Buffer-to-buffer credit of one port (docs/model.md, "The loop: credit"): the port's own receive
// buffers and the R_RDYs it owes for them, and, while a circuit is open, the credit it holds to send
// frames to the peer, alternative BB credit started at the peer's login credit. No SystemC: the
// LPSM drives it word by word.
#include <stdexcept>

namespace fcal::loop {

class CircuitCredit {
public:
    CircuitCredit(unsigned incoming_buffers, unsigned login_bb_credit)
        : incoming_buffers_(incoming_buffers), login_bb_credit_(login_bb_credit), free_buffers_(incoming_buffers)
    {
    }

    // A circuit opens. `sending`: frames may go to the peer, which promised `peer_login_credit`
    // buffers at login; `receiving`: the peer may send frames to us, so every free buffer is owed
    // as an R_RDY.
    void open(bool sending, bool receiving, unsigned peer_login_credit);
    // The circuit is over: no more credit either way.
    void close();
    // Hand out no more R_RDYs (a CLS was sent or received).
    void stop_granting() { rrdy_owed_ = 0; }

    // Sending: one frame on one credit; an R_RDY from the peer.
    void frame_sent();
    void r_rdy_received();
    // Receiving: an R_RDY went out; a frame took a buffer (false: none was granted); the layer
    // above freed a buffer (`in_circuit`: the circuit still takes R_RDYs). False when no buffer
    // was in use.
    void r_rdy_sent() { --rrdy_owed_; }
    bool frame_received();
    bool buffer_released(bool in_circuit);

    bool sending() const { return sending_; }
    bool receiving() const { return receiving_; }
    int credit() const { return credit_; }
    unsigned free_buffers() const { return free_buffers_; }
    unsigned r_rdys_owed() const { return rrdy_owed_; }
    unsigned login_credit_used() const { return login_credit_used_; }
    unsigned r_rdys_to_discard() const { return rrdy_to_discard_; }
    // Enough free buffers to honour our own login credit in the next circuit.
    bool login_credit_guaranteed() const { return free_buffers_ >= login_bb_credit_; }

private:
    unsigned incoming_buffers_;
    unsigned login_bb_credit_;
    unsigned free_buffers_;
    unsigned rrdy_owed_ = 0;
    bool sending_ = false;
    bool receiving_ = false;
    int credit_ = 0;
    unsigned peer_login_credit_ = 0;
    unsigned login_credit_used_ = 0;
    unsigned rrdy_to_discard_ = 0;
};

}  // namespace fcal::loop
