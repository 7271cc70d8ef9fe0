#pragma once
// The initiator HBA's outgoing frame FIFO with the Command-First Algorithm (docs/hba.md,
// "Command-First"); the reference model of the RTL block in rtl/ (cmdf_top), which must agree with
// it transaction by transaction:
//   fifo = Off:          one FIFO, frames leave in the order queued;
//   fifo = Reorder:      one FIFO, an FCP_CMND is inserted ahead of the data frames queued (behind
//                        the commands already waiting);
//   fifo = CommandQueue: a separate command FIFO, always checked before the frame FIFO.
// Both command-first variants keep order within each class. Level 2 (arbitration) marks commands
// arbitrate_unfairly; level 3 (preempt) marks them transfer_unfairly and asks the port to close a
// circuit when a command for another destination is at the head.
//
// The hardware's answers, which this model gives exactly: the head is the command FIFO's oldest
// entry, else the frame FIFO's; the frame for a destination is the oldest entry for it in the
// command FIFO, else in the frame FIFO (a per-destination search over all entries, as the RTL's
// comparators do); a pop removes that entry and the younger ones close the gap. The frame FIFO holds
// `depth` descriptors, the command FIFO `command_depth`; a full FIFO refuses pushes.
#include <cstddef>

#include "fcal/loop/frame_fifo.hpp"
#include "fcal/loop/transmit_queue.hpp"

namespace fcal::hba {

enum class CommandFifo { Off, Reorder, CommandQueue };
const char* to_string(CommandFifo f);  // "off", "reorder", "command_queue"

struct CommandFirst {
    CommandFifo fifo = CommandFifo::Off;
    bool arbitration = false;
    bool preempt = false;
};

// Which FIFO a frame of class `c` goes into under `policy`: true for the command FIFO.
bool to_command_fifo(const CommandFirst& policy, loop::FrameClass c);

struct FifoDepths {
    std::size_t frames = 64;    // the frame FIFO (every frame, or every non-command with CommandQueue)
    std::size_t commands = 16;  // the command FIFO (CommandQueue only)
};

class CommandFirstQueue : public loop::TransmitQueue {
public:
    explicit CommandFirstQueue(const CommandFirst& policy, const FifoDepths& depths = {});

    static bool is_command(const loop::OutgoingFrame& f) { return f.frame_class() == loop::FrameClass::Command; }

    bool can_push(loop::FrameClass c) const override;
    bool empty() const override { return commands_.empty() && frames_.empty(); }
    const loop::OutgoingFrame* front() const override;
    const loop::OutgoingFrame* front_for(phy::AlPa dest) const override;
    bool preempt(phy::AlPa open_peer) const override;

    std::size_t commands_queued() const { return commands_.size(); }
    std::size_t frames_queued() const { return frames_.size(); }
    const CommandFirst& policy() const { return policy_; }
    const FifoDepths& depths() const { return depths_; }

protected:
    void do_push(loop::OutgoingFrame f) override;
    loop::OutgoingFrame do_pop_for(phy::AlPa dest) override;
    // Only a frame that goes elsewhere than behind every frame queued (a command into its own FIFO, or
    // inserted ahead of the data) may take the head of a queue that is not empty.
    bool may_take_head(const loop::OutgoingFrame& f) const override;

private:
    CommandFirst policy_;
    FifoDepths depths_;
    // Oldest first. Rings that grow to the FIFOs' peak and stay: pushing and popping allocate nothing,
    // and taking the front entry moves none of the others (a write's data frames leave from the front);
    // a search for the open peer starts behind the frames for others it already passed (FrameFifo).
    static bool take_oldest_for(loop::FrameFifo& fifo, phy::AlPa dest, loop::OutgoingFrame& out);
    loop::FrameFifo commands_;  // CommandQueue only
    loop::FrameFifo frames_;    // everything else (all frames unless CommandQueue)
};

}  // namespace fcal::hba
