#pragma once
// Callbacks from an L_Port to the layer above it (the HBA, or a test endpoint).
#include <stdexcept>
#include <systemc>

#include "fcal/loop/loop_frame.hpp"
#include "fcal/loop/lpsm_state.hpp"
#include "fcal/loop/outgoing_frame.hpp"

namespace fcal::loop {

class PortUser {
public:
    virtual ~PortUser() = default;
    // A whole frame addressed to this port arrived (end of EOF). It occupies one incoming buffer
    // until the user calls LPort::release_buffer().
    virtual void frame_received(FrameRef frame) = 0;
    // How long after its EOF the user may be handed `frame` without anything changing: its own
    // processing takes that long and shows nothing before its end, and it takes the frame's EOF time
    // from LPort::frame_end(). The port then hands the frame over when that time is up, in the run
    // that also sends what the processing frees (docs/loop.md, "Fast path"). Zero: at its EOF.
    virtual sc_core::sc_time frame_slack(const LoopFrame& /*frame*/) const { return sc_core::SC_ZERO_TIME; }
    // The last word of a frame of ours left the port.
    virtual void frame_sent(const LoopFrame& /*frame*/) {}
    // False: the port never calls frame_sent(), and need not run at the end of each frame it sends
    // (docs/loop.md, "Fast path").
    virtual bool wants_frame_sent() const { return true; }
    virtual void state_changed(LpsmState /*from*/, LpsmState /*to*/) {}
    // A frame it handed over ahead (LPort::queue_frame_ahead) is due, for a user that takes its due
    // frames itself (LPort::set_due_frame_taker): it hands it on with LPort::push_due(), or holds it
    // while the queue has no room (docs/loop.md, "Frames handed over ahead").
    virtual void frame_due(OutgoingFrame /*frame*/) { throw std::logic_error("a due frame for a port user that takes none"); }
};

}  // namespace fcal::loop
