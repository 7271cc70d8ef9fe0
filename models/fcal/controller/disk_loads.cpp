#include "fcal/controller/disk_loads.hpp"

#include <stdexcept>

namespace fcal::controller {

DiskLoads::DiskLoads(unsigned disks, const DriveSheet& sheet)
    : estimate_(sheet), load_(disks, 0.0), commands_(disks, 0), head_(disks, 0)
{
}

void DiskLoads::sent(std::uint64_t id, const MemberIo& io)
{
    const double s = estimate(io);
    if (!outstanding_.emplace(id, Outstanding{io.disk, s}).second) throw std::logic_error("disk loads: command sent twice");
    load_.at(io.disk) += s;
    ++commands_[io.disk];
    head_[io.disk] = io.lba + io.blocks;
}

void DiskLoads::completed(std::uint64_t id)
{
    const auto it = outstanding_.find(id);
    if (it == outstanding_.end()) throw std::logic_error("disk loads: completion of a command not sent");
    const Outstanding o = it->second;
    outstanding_.erase(it);
    // An idle disk's load is exactly zero, whatever rounding the sums left behind.
    load_[o.disk] = --commands_[o.disk] == 0 ? 0.0 : load_[o.disk] - o.seconds;
}

}  // namespace fcal::controller
