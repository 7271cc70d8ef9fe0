#include "fcal/disk/read_buffer.hpp"

#include <algorithm>

namespace fcal::disk {

void ReadBuffer::fill(std::uint64_t tag)
{
    Read& r = reads_.at(tag);
    r.media = r.announced = r.total;
}

std::uint32_t ReadBuffer::next_step(std::uint64_t tag, std::uint32_t step) const
{
    const Read& r = reads_.at(tag);
    return static_cast<std::uint32_t>(std::min<std::uint64_t>({r.total - r.media, step, room_}));
}

bool ReadBuffer::reserve(std::uint32_t bytes)
{
    if (used_ + bytes > room_) return false;
    used_ += bytes;
    return true;
}

ReadBuffer::Arrival ReadBuffer::arrived(std::uint64_t tag, std::uint32_t bytes)
{
    Read& r = reads_.at(tag);
    r.media += bytes;
    if (r.media >= r.total) {
        r.announced = r.total;
        return Arrival::Complete;
    }
    return r.media - r.announced >= full_ratio_ * static_cast<double>(room_) ? Arrival::Announce : Arrival::More;
}

bool ReadBuffer::unannounced(std::uint64_t tag) const
{
    const Read& r = reads_.at(tag);
    return r.media > r.announced;
}

std::uint32_t ReadBuffer::announce(std::uint64_t tag)
{
    Read& r = reads_.at(tag);
    r.announced = r.media;
    return r.media;
}

void ReadBuffer::drop(std::uint64_t tag)
{
    const auto it = reads_.find(tag);
    if (it == reads_.end()) return;
    if (room_ > 0) used_ -= it->second.media - it->second.taken;
    reads_.erase(it);
}

}  // namespace fcal::disk
