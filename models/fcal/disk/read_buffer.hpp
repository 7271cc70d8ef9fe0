#pragma once
// The disk's read buffer (docs/disk.md, "The zoned model", read streaming and the buffer):
// per read, the bytes that came from the medium, those announced to the HBA and those it took out.
// The zoned model streams into a buffer of `room` bytes: a media step first reserves its bytes (the
// medium waits while they do not fit), the bytes not yet announced are announced once they reach
// `full_ratio` of the room, and bytes leave as the HBA reads them. The fixed model's reads do not
// stream (room 0: no limit, nothing accounted): a read is filled and announced whole when its service
// ends. SystemC-free.
#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "fcal/kernel/pool_allocator.hpp"

namespace fcal::disk {

class ReadBuffer {
public:
    ReadBuffer(std::uint64_t room, double full_ratio) : room_(room), full_ratio_(full_ratio) {}

    // A read of `total` bytes was accepted: it will have data here.
    void open(std::uint64_t tag, std::uint32_t total) { reads_[tag].total = total; }
    bool holds(std::uint64_t tag) const { return reads_.count(tag) > 0; }
    // A read that does not stream: all of it is here and announced at once.
    void fill(std::uint64_t tag);

    // Streaming. The next media step of read `tag`: at most `step` bytes, no more than are left to
    // read, nor than the whole buffer.
    std::uint32_t next_step(std::uint64_t tag, std::uint32_t step) const;
    // Room for a media step of `bytes`: false (nothing reserved) when they do not fit now.
    bool reserve(std::uint32_t bytes);
    // A reserved media step of `bytes` of read `tag` is in the buffer.
    enum class Arrival { More, Announce, Complete };
    // More: the read goes on; Announce: it goes on, and the bytes not yet announced reached the full
    // ratio; Complete: the read is all in (and counts as announced: the command is done).
    Arrival arrived(std::uint64_t tag, std::uint32_t bytes);
    // Bytes from the medium the HBA has not been told of.
    bool unannounced(std::uint64_t tag) const;
    // Tells of them: returns how many bytes of the read are in the buffer (all announced now).
    std::uint32_t announce(std::uint64_t tag);

    // The HBA reads [offset, offset + length) of read `tag`: false (nothing taken) unless every byte
    // was announced. The read is forgotten once all of it is taken; its bytes leave with release().
    // (Inline: the HBA reads a frame at a time.)
    bool take(std::uint64_t tag, std::uint64_t offset, std::uint64_t length)
    {
        const auto it = reads_.find(tag);
        if (it == reads_.end() || offset + length > it->second.announced) return false;
        it->second.taken += static_cast<std::uint32_t>(length);
        if (it->second.taken >= it->second.total) reads_.erase(it);
        return true;
    }
    // `bytes` leave the buffer (taken out, or a media step that never arrived), making room.
    void release(std::uint64_t bytes) { used_ -= bytes; }
    // The read `tag` was aborted: its bytes leave, and it is forgotten.
    void drop(std::uint64_t tag);

    // Bytes reserved or in the buffer and not yet released (0 without a limit).
    std::uint64_t used() const { return used_; }

private:
    struct Read {
        std::uint32_t total = 0;
        std::uint32_t media = 0;      // read from the medium
        std::uint32_t announced = 0;  // handed to the HBA
        std::uint32_t taken = 0;      // read out by the HBA
    };
    // By tag, their nodes from a pool (no allocation per command in steady state).
    using Reads = std::map<std::uint64_t, Read, std::less<std::uint64_t>, kernel::PoolAllocator<std::pair<const std::uint64_t, Read>>>;

    std::uint64_t room_;  // 0: no limit
    double full_ratio_;
    Reads reads_;
    std::uint64_t used_ = 0;
};

}  // namespace fcal::disk
