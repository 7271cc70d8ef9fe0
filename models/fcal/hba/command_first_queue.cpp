#include "fcal/hba/command_first_queue.hpp"

#include <algorithm>
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
    commands_.reserve(depths.commands);
    frames_.reserve(depths.frames);
}

CommandFirstQueue::Fifo::const_iterator CommandFirstQueue::oldest_for(const Fifo& fifo, phy::AlPa dest)
{
    return std::find_if(fifo.begin(), fifo.end(), [dest](const loop::OutgoingFrame& f) { return f.frame->destination == dest; });
}

bool CommandFirstQueue::take_oldest_for(Fifo& fifo, phy::AlPa dest, loop::OutgoingFrame& out)
{
    const auto it = oldest_for(fifo, dest);
    if (it == fifo.end()) return false;
    out = std::move(fifo[static_cast<std::size_t>(it - fifo.begin())]);
    fifo.erase(it);
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
        auto it = std::find_if(frames_.begin(), frames_.end(), [](const loop::OutgoingFrame& x) { return !is_command(x); });
        frames_.insert(it, std::move(f));
    } else {
        frames_.push_back(std::move(f));
    }
}

const loop::OutgoingFrame* CommandFirstQueue::front() const
{
    if (!commands_.empty()) return &commands_.front();
    return frames_.empty() ? nullptr : &frames_.front();
}

const loop::OutgoingFrame* CommandFirstQueue::front_for(phy::AlPa dest) const
{
    auto c = oldest_for(commands_, dest);
    if (c != commands_.end()) return &*c;
    auto f = oldest_for(frames_, dest);
    return f == frames_.end() ? nullptr : &*f;
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
