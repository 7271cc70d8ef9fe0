#include "hba/command_first_queue.hpp"

#include <algorithm>
#include <stdexcept>

#include "fcp/fc_frame.hpp"

namespace fcal::hba {

namespace {
using Queue = std::deque<loop::OutgoingFrame>;

Queue::const_iterator find_for(const Queue& q, phy::AlPa dest)
{
    return std::find_if(q.begin(), q.end(), [dest](const loop::OutgoingFrame& f) { return f.frame->destination == dest; });
}
}  // namespace

bool CommandFirstQueue::is_command(const loop::OutgoingFrame& f)
{
    return fcp::fc_frame_of(*f.frame).iu == fcp::InformationUnit::Command;
}

void CommandFirstQueue::push(loop::OutgoingFrame f)
{
    const bool command = is_command(f);
    if (command) {
        f.arbitrate_unfairly = policy_.arbitration;
        f.transfer_unfairly = policy_.preempt;
    }
    if (command && policy_.fifo == CommandFifo::CommandQueue) {
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
    auto c = find_for(commands_, dest);
    if (c != commands_.end()) return &*c;
    auto f = find_for(frames_, dest);
    return f == frames_.end() ? nullptr : &*f;
}

loop::OutgoingFrame CommandFirstQueue::pop_for(phy::AlPa dest)
{
    for (Queue* q : {&commands_, &frames_}) {
        auto it = find_for(*q, dest);
        if (it != q->end()) {
            const auto pos = q->begin() + (it - q->cbegin());
            loop::OutgoingFrame out = std::move(*pos);
            q->erase(pos);
            return out;
        }
    }
    throw std::logic_error("CommandFirstQueue::pop_for: no frame for destination");
}

bool CommandFirstQueue::preempt(phy::AlPa open_peer) const
{
    if (!policy_.preempt) return false;
    const loop::OutgoingFrame* head = front();
    return head && is_command(*head) && head->frame->destination != open_peer;
}

}  // namespace fcal::hba
