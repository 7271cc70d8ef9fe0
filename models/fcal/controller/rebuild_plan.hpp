#pragma once
// The rounds that rebuild one member onto a spare (docs/model.md, "The storage controller: degraded
// mode and rebuild"). A round covers the same `io_blocks` member blocks on every member, from LBA 0
// up to the used capacity (rows x unit): RAID 5 reads them from the n-1 other members and writes
// their XOR to the spare; RAID 1 reads them from the surviving copy and writes them to the spare.
// The last round is shorter when the capacity is not a multiple of io_blocks. No SystemC.
#include <cstdint>
#include <vector>

#include "fcal/controller/raid_layout.hpp"

namespace fcal::controller {

struct RebuildRound {
    std::uint64_t lba = 0;     // on every member
    std::uint64_t blocks = 0;
    std::vector<MemberIo> reads;  // the survivors, in member order
    MemberIo write;               // the member being rebuilt (its spare)
    std::uint64_t first_row = 0, last_row = 0;  // member rows the round touches
};

class RebuildPlan {
public:
    // Throws std::invalid_argument for a level with no redundancy or io_blocks 0.
    RebuildPlan(const VolumeGeometry& geometry, unsigned member, std::uint64_t io_blocks);

    unsigned member() const { return member_; }
    std::uint64_t member_blocks() const { return end_; }  // rebuilt in all: rows x unit
    std::uint64_t rounds() const { return (end_ + io_blocks_ - 1) / io_blocks_; }
    RebuildRound round(std::uint64_t index) const;  // index < rounds()

private:
    VolumeGeometry g_;
    unsigned member_;
    std::uint64_t io_blocks_;
    std::uint64_t end_;
};

}  // namespace fcal::controller
