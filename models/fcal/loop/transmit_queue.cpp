#include "fcal/loop/transmit_queue.hpp"

#include <stdexcept>

namespace fcal::loop {

const char* to_string(FrameClass c)
{
    switch (c) {
    case FrameClass::Data: return "data";
    case FrameClass::Command: return "command";
    case FrameClass::Other: return "other";
    }
    return "?";
}

void TransmitQueue::push(OutgoingFrame f)
{
    if (!head_listener_) {
        do_push(std::move(f));
        return;
    }
    const LoopFrame* head_before = empty() ? nullptr : front()->frame.get();
    const bool first_for_dest = front_for(f.frame->destination) == nullptr;
    do_push(std::move(f));
    if (first_for_dest || front()->frame.get() != head_before) head_listener_();
}

OutgoingFrame TransmitQueue::pop_for(phy::AlPa dest)
{
    OutgoingFrame out = do_pop_for(dest);
    if (space_listener_) space_listener_();
    return out;
}

const OutgoingFrame* FifoTransmitQueue::front_for(phy::AlPa dest) const
{
    const std::size_t i = frames_.oldest_for(dest);
    return i == frames_.size() ? nullptr : &frames_[i];
}

OutgoingFrame FifoTransmitQueue::do_pop_for(phy::AlPa dest)
{
    const std::size_t i = frames_.oldest_for(dest);
    if (i == frames_.size()) throw std::logic_error("FifoTransmitQueue::pop_for: no frame for destination");
    return frames_.take(i);
}

}  // namespace fcal::loop
