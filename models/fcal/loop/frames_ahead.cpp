#include "fcal/loop/frames_ahead.hpp"

#include <stdexcept>

namespace fcal::loop {

void FramesAhead::add(OutgoingFrame frame, const sc_core::sc_time& due, std::uint64_t tag)
{
    if (!frames_.empty() && due < frames_.back().due) throw std::logic_error("FramesAhead::add: due times must not decrease");
    frames_.push_back({due, tag, std::move(frame)});
}

std::optional<sc_core::sc_time> FramesAhead::wake_for(const TransmitQueue& queue, bool always) const
{
    if (frames_.empty()) return std::nullopt;
    const Entry& first = frames_.front();
    if (always || queue.would_tell(first.frame)) return first.due;
    return std::nullopt;
}

std::size_t FramesAhead::withdraw(std::uint64_t tag, const sc_core::sc_time& now)
{
    return frames_.erase_if([&](const Entry& e) { return e.tag == tag && e.due > now; });
}

}  // namespace fcal::loop
