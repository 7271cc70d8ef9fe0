#pragma once
// A frame in a port's transmit queue, with what the queue's policy asks of the port for it
// (docs/hba.md, "The transmit queue").
#include <memory>

#include "fcal/loop/loop_frame.hpp"

namespace fcal::loop {

struct OutgoingFrame {
    FrameRef frame;
    // Arbitrate for this frame even when fairness forbids it in this access window
    // (Command-First arbitration).
    bool arbitrate_unfairly = false;
    // Open its destination through TRANSFER even when other ports are arbitrating (preemptive
    // command transfer).
    bool transfer_unfairly = false;

    FrameClass frame_class() const { return frame->frame_class; }
};

}  // namespace fcal::loop
