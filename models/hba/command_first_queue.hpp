#pragma once
// The initiator HBA's outgoing frame FIFO with the Command-First Algorithm (SPEC section 9):
//   fifo = Off:          one FIFO, frames leave in the order queued;
//   fifo = Reorder:      one FIFO, an FCP_CMND is inserted ahead of the data frames queued (behind
//                        the commands already waiting);
//   fifo = CommandQueue: a separate command FIFO, always checked before the data FIFO.
// Both command-first variants keep order within each class. Level 2 (arbitration) marks commands
// arbitrate_unfairly; level 3 (preempt) marks them transfer_unfairly and asks the port to close a
// circuit when a command for another destination is at the head.
#include <deque>

#include "loop/transmit_queue.hpp"

namespace fcal::hba {

enum class CommandFifo { Off, Reorder, CommandQueue };

struct CommandFirst {
    CommandFifo fifo = CommandFifo::Off;
    bool arbitration = false;
    bool preempt = false;
};

class CommandFirstQueue : public loop::TransmitQueue {
public:
    explicit CommandFirstQueue(const CommandFirst& policy) : policy_(policy) {}

    static bool is_command(const loop::OutgoingFrame& f);

    void push(loop::OutgoingFrame f) override;
    bool empty() const override { return commands_.empty() && frames_.empty(); }
    const loop::OutgoingFrame* front() const override;
    const loop::OutgoingFrame* front_for(phy::AlPa dest) const override;
    loop::OutgoingFrame pop_for(phy::AlPa dest) override;
    bool preempt(phy::AlPa open_peer) const override;

private:
    CommandFirst policy_;
    std::deque<loop::OutgoingFrame> commands_;  // CommandQueue only
    std::deque<loop::OutgoingFrame> frames_;    // everything else (all frames unless CommandQueue)
};

}  // namespace fcal::hba
