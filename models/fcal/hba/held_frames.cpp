#include "fcal/hba/held_frames.hpp"

#include "fcal/fcp/fc_frame.hpp"

namespace fcal::hba {

std::size_t HeldFrames::drop_exchange(std::uint16_t ox_id)
{
    std::size_t dropped = 0;
    for (auto& line : lines_) dropped += line.erase_if([ox_id](const Held& h) { return fcp::fc_frame_of(*h.frame).ox_id == ox_id; });
    return dropped;
}

std::size_t HeldFrames::size() const
{
    std::size_t n = 0;
    for (const auto& line : lines_) n += line.size();
    return n;
}

}  // namespace fcal::hba
