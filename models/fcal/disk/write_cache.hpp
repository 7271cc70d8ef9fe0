#pragma once
// The disk's write cache (docs/disk.md, "The zoned model", writes): with write-back on, a
// write whose data is all in the buffer is complete at once and its medium write follows, as long as
// the data not yet on the medium, its own included, fit in the cache (`room` bytes, a segment apart
// from the read buffer); a write that does not fit, and a WRITE SAME, are written through.
// SystemC-free.
#include <cstdint>

namespace fcal::disk {

class WriteCache {
public:
    // `enabled`: write-back (disk.write_cache, zoned model); otherwise every write is written through.
    WriteCache(bool enabled, std::uint64_t room) : enabled_(enabled), room_(room) {}

    // A write of `bytes` has all its data in the buffer: true if it is cached (complete now, its data
    // dirty until written()), false if it is written through.
    bool admit(std::uint32_t bytes, bool write_same)
    {
        if (!enabled_ || write_same || dirty_ + bytes > room_) return false;
        dirty_ += bytes;
        return true;
    }
    // A cached write's data reached the medium.
    void written(std::uint32_t bytes) { dirty_ -= bytes; }

    // Bytes cached and not yet on the medium.
    std::uint64_t dirty() const { return dirty_; }

private:
    bool enabled_;
    std::uint64_t room_;
    std::uint64_t dirty_ = 0;
};

}  // namespace fcal::disk
