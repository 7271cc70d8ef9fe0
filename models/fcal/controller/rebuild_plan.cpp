#include "fcal/controller/rebuild_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::controller {

RebuildPlan::RebuildPlan(const VolumeGeometry& geometry, unsigned member, std::uint64_t io_blocks)
    : g_(geometry), member_(member), io_blocks_(io_blocks), end_(geometry.disk_blocks / geometry.unit_blocks * geometry.unit_blocks)
{
    validate(g_);
    if (g_.level != RaidLevel::Raid1 && g_.level != RaidLevel::Raid5)
        throw std::invalid_argument("volume " + to_string(g_.level) + " has no redundancy to rebuild from");
    if (member >= g_.disks) throw std::invalid_argument("rebuild of member " + std::to_string(member) + ": no such member");
    if (io_blocks == 0) throw std::invalid_argument("volume rebuild I/O size must be at least one block");
}

RebuildRound RebuildPlan::round(std::uint64_t index) const
{
    if (index >= rounds()) throw std::out_of_range("rebuild round " + std::to_string(index) + " of " + std::to_string(rounds()));
    RebuildRound r;
    r.lba = index * io_blocks_;
    r.blocks = std::min(io_blocks_, end_ - r.lba);
    r.first_row = r.lba / g_.unit_blocks;
    r.last_row = (r.lba + r.blocks - 1) / g_.unit_blocks;
    if (g_.level == RaidLevel::Raid1)
        r.reads.push_back(MemberIo{member_ ^ 1u, true, r.lba, r.blocks});  // pairs are (2k, 2k+1)
    else
        for (unsigned m = 0; m < g_.disks; ++m)
            if (m != member_) r.reads.push_back(MemberIo{m, true, r.lba, r.blocks});
    r.write = MemberIo{member_, false, r.lba, r.blocks};
    return r;
}

}  // namespace fcal::controller
