#pragma once
// The frames a port has to send, and the policy that picks the next one. The port pulls from it:
// front() decides whom to open, front_for() what to send while a circuit is open. The HBA's
// transmit scheduler (Command-First policies, the RTL FIFO) implements this interface.
#include <deque>
#include <memory>

#include "loop/loop_frame.hpp"

namespace fcal::loop {

struct OutgoingFrame {
    std::shared_ptr<const LoopFrame> frame;
    // Arbitrate for this frame even when fairness forbids it in this access window
    // (Command-First arbitration, SPEC section 9 level 2).
    bool arbitrate_unfairly = false;
    // Open its destination through TRANSFER even when other ports are arbitrating (preemptive
    // command transfer, level 3).
    bool transfer_unfairly = false;
};

class TransmitQueue {
public:
    virtual ~TransmitQueue() = default;
    virtual void push(OutgoingFrame f) = 0;
    virtual bool empty() const = 0;
    // The frame to serve next when the port is free to choose whom to open.
    virtual const OutgoingFrame* front() const = 0;
    // The next frame for `dest` while a circuit to it is open, or nullptr.
    virtual const OutgoingFrame* front_for(phy::AlPa dest) const = 0;
    virtual OutgoingFrame pop_for(phy::AlPa dest) = 0;
    // While OPEN to `open_peer`: close now to serve another destination (preemption), even though
    // frames for the peer remain.
    virtual bool preempt(phy::AlPa /*open_peer*/) const { return false; }
};

// Plain first-in first-out: frames leave in the order queued; while a circuit is open the oldest
// frame for its destination goes next.
class FifoTransmitQueue : public TransmitQueue {
public:
    void push(OutgoingFrame f) override { frames_.push_back(std::move(f)); }
    bool empty() const override { return frames_.empty(); }
    const OutgoingFrame* front() const override { return frames_.empty() ? nullptr : &frames_.front(); }
    const OutgoingFrame* front_for(phy::AlPa dest) const override;
    OutgoingFrame pop_for(phy::AlPa dest) override;

private:
    std::deque<OutgoingFrame> frames_;
};

}  // namespace fcal::loop
