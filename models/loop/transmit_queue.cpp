#include "loop/transmit_queue.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcal::loop {

const OutgoingFrame* FifoTransmitQueue::front_for(phy::AlPa dest) const
{
    auto it = std::find_if(frames_.begin(), frames_.end(), [dest](const OutgoingFrame& f) { return f.frame->destination == dest; });
    return it == frames_.end() ? nullptr : &*it;
}

OutgoingFrame FifoTransmitQueue::pop_for(phy::AlPa dest)
{
    auto it = std::find_if(frames_.begin(), frames_.end(), [dest](const OutgoingFrame& f) { return f.frame->destination == dest; });
    if (it == frames_.end()) throw std::logic_error("FifoTransmitQueue::pop_for: no frame for destination");
    OutgoingFrame out = std::move(*it);
    frames_.erase(it);
    return out;
}

}  // namespace fcal::loop
