#include "fcal/hba/command_first_queue.hpp"

#include <stdexcept>

namespace fcal::hba {


const char* to_string(CommandFifo f)
{
    switch (f) {
    case CommandFifo::Off: return "off";
    case CommandFifo::Reorder: return "reorder";
    case CommandFifo::CommandQueue: return "command_queue";
    }
    return "?";
}

CommandFirstQueue::CommandFirstQueue(const CommandFirst& policy, const FifoDepths& depths) : policy_(policy), depths_(depths)
{
    if (depths.frames < 1 || depths.commands < 1) throw std::invalid_argument("CommandFirstQueue: FIFO depths must be at least 1");
}

bool CommandFirstQueue::take_oldest_for(loop::FrameFifo& fifo, phy::AlPa dest, loop::OutgoingFrame& out)
{
    const std::size_t i = fifo.oldest_for(dest);
    if (i == fifo.size()) return false;
    out = fifo.take(i);
    return true;
}

bool to_command_fifo(const CommandFirst& policy, loop::FrameClass c)
{
    return c == loop::FrameClass::Command && policy.fifo == CommandFifo::CommandQueue;
}

bool CommandFirstQueue::can_push(loop::FrameClass c) const
{
    return to_command_fifo(policy_, c) ? commands_.size() < depths_.commands : frames_.size() < depths_.frames;
}

void CommandFirstQueue::do_push(loop::OutgoingFrame f)
{
    if (!can_push(f.frame_class())) throw std::logic_error("CommandFirstQueue: push into a full FIFO");
    const bool command = is_command(f);
    f.arbitrate_unfairly = command && policy_.arbitration;
    f.transfer_unfairly = command && policy_.preempt;
    if (to_command_fifo(policy_, f.frame_class())) {
        commands_.push_back(std::move(f));
    } else if (command && policy_.fifo == CommandFifo::Reorder) {
        // Behind the last command waiting, ahead of every data frame.
        std::size_t i = 0;
        while (i < frames_.size() && is_command(frames_[i])) ++i;
        frames_.insert(i, std::move(f));
    } else {
        frames_.push_back(std::move(f));
    }
}

bool CommandFirstQueue::may_take_head(const loop::OutgoingFrame& f) const
{
    return empty() || to_command_fifo(policy_, f.frame_class()) || (is_command(f) && policy_.fifo == CommandFifo::Reorder);
}

const loop::OutgoingFrame* CommandFirstQueue::front() const
{
    if (!commands_.empty()) return &commands_.front();
    return frames_.empty() ? nullptr : &frames_.front();
}

const loop::OutgoingFrame* CommandFirstQueue::front_for(phy::AlPa dest) const
{
    if (const std::size_t c = commands_.oldest_for(dest); c < commands_.size()) return &commands_[c];
    const std::size_t f = frames_.oldest_for(dest);
    return f == frames_.size() ? nullptr : &frames_[f];
}

loop::OutgoingFrame CommandFirstQueue::do_pop_for(phy::AlPa dest)
{
    loop::OutgoingFrame out;
    if (!take_oldest_for(commands_, dest, out) && !take_oldest_for(frames_, dest, out))
        throw std::logic_error("CommandFirstQueue::pop_for: no frame for destination");
    return out;
}

bool CommandFirstQueue::preempt(phy::AlPa open_peer) const
{
    if (!policy_.preempt) return false;
    const loop::OutgoingFrame* head = front();
    return head && is_command(*head) && head->frame->destination != open_peer;
}

}  // namespace fcal::hba
