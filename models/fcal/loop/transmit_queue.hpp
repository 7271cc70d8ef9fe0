#pragma once
// The frames a port has to send, and the policy that picks the next one: the HBA's outgoing frame
// FIFO. It is shaped like the hardware (docs/hba.md, "The transmit queue"): frames carry a class,
// the queue has a capacity per class (the producer holds what it cannot push), and it tells the port
// when a push changed what the port would be told. The port pulls from it: front() decides whom to
// open, front_for() what to send while a circuit is open, preempt() whether to close early.
// Implementations: FifoTransmitQueue (disks), hba::CommandFirstQueue (the controller's reference
// model), cosim::RtlTransmitQueue (the Verilated RTL).
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>

#include "fcal/loop/frame_fifo.hpp"
#include "fcal/loop/outgoing_frame.hpp"

namespace fcal::loop {

class TransmitQueue {
public:
    virtual ~TransmitQueue() = default;

    // Room for one more frame of this class (a full queue is back-pressure on the producer).
    virtual bool can_push(FrameClass c) const = 0;
    virtual bool empty() const = 0;
    // The frame to serve next when the port is free to choose whom to open.
    virtual const OutgoingFrame* front() const = 0;
    // The next frame for `dest` while a circuit to it is open, or nullptr.
    virtual const OutgoingFrame* front_for(phy::AlPa dest) const = 0;
    // While OPEN to `open_peer`: close now to serve another destination (preemption), even though
    // frames for the peer remain.
    virtual bool preempt(phy::AlPa /*open_peer*/) const { return false; }
    // The i-th frame queued, in the order they go out, for a policy that sends them in the order
    // queued (a FIFO): a port may then send a run of them ahead (docs/loop.md, "Frame trains").
    // Nothing past the end, and nothing ever from a policy that reorders.
    virtual const OutgoingFrame* in_order(std::size_t /*i*/) const { return nullptr; }
    virtual bool sends_in_order() const { return false; }
    // Its state follows a clock, so that a push is seen at the instant it is made (the RTL): frames
    // handed over ahead must then be pushed at their due time, not later (docs/hba.md, "Fetching
    // ahead").
    virtual bool clocked() const { return false; }

    // Queue a frame; the caller checked can_push(). Tells the head listener when the head changed
    // or the frame is the first one for its destination: only then can the port's next decision
    // differ.
    void push(OutgoingFrame f);
    // Take the frame front_for(dest) shows; tells the space listener that a slot is free.
    OutgoingFrame pop_for(phy::AlPa dest);
    // Whether push(f) now would tell the head listener: the first frame for its destination, or one
    // that may take the head.
    bool would_tell(const OutgoingFrame& f) const { return front_for(f.frame->destination) == nullptr || may_take_head(f); }

    void set_head_listener(std::function<void()> listener) { head_listener_ = std::move(listener); }
    void set_space_listener(std::function<void()> listener) { space_listener_ = std::move(listener); }

protected:
    virtual void do_push(OutgoingFrame f) = 0;
    virtual OutgoingFrame do_pop_for(phy::AlPa dest) = 0;
    // Whether pushing `f` now may change front() (a policy that reorders: unless it says otherwise).
    virtual bool may_take_head(const OutgoingFrame& /*f*/) const { return true; }

private:
    std::function<void()> head_listener_;
    std::function<void()> space_listener_;
};

// Plain first-in first-out without a limit: frames leave in the order queued; while a circuit is
// open the oldest frame for its destination goes next. A ring that grows to its peak and stays, so
// that a disk's stream of frames allocates nothing (docs/kernel.md, "No allocation per frame").
class FifoTransmitQueue : public TransmitQueue {
public:
    bool can_push(FrameClass) const override { return true; }
    bool empty() const override { return frames_.empty(); }
    const OutgoingFrame* front() const override { return frames_.empty() ? nullptr : &frames_.front(); }
    const OutgoingFrame* front_for(phy::AlPa dest) const override;
    const OutgoingFrame* in_order(std::size_t i) const override { return i < frames_.size() ? &frames_[i] : nullptr; }
    bool sends_in_order() const override { return true; }

protected:
    void do_push(OutgoingFrame f) override { frames_.push_back(std::move(f)); }
    OutgoingFrame do_pop_for(phy::AlPa dest) override;
    bool may_take_head(const OutgoingFrame&) const override { return frames_.empty(); }

private:
    FrameFifo frames_;
};

}  // namespace fcal::loop
