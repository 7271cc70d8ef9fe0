#include "fcal/controller/decode_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::controller {

namespace {

const VolumeGeometry& raid0(const VolumeGeometry& g)
{
    if (g.level != RaidLevel::Raid0) throw std::invalid_argument("decode needs a raid0 volume, got " + to_string(g.level));
    validate(g);
    return g;
}

}  // namespace

DecodeLayout::DecodeLayout(const VolumeGeometry& geometry, const DecodeParams& params)
    : unit_(raid0(geometry).unit_blocks), map_(geometry.disks, geometry.disk_blocks / geometry.unit_blocks, params.free_fraction),
      policy_(params.area_units, params.threshold), own_write_(params.own_write)
{
}

Plan DecodeLayout::plan(bool read, std::uint64_t lba, std::uint64_t blocks, const DiskLoads& loads)
{
    if (blocks == 0 || lba >= this->blocks() || blocks > this->blocks() - lba)
        throw std::out_of_range("volume request [" + std::to_string(lba) + ", +" + std::to_string(blocks) +
                                ") outside the volume of " + std::to_string(this->blocks()) + " blocks");
    Plan plan;
    std::vector<double> load = loads.seconds();
    while (blocks > 0) {
        const std::uint64_t unit = lba / unit_, offset = lba % unit_;
        const std::uint64_t piece = std::min(blocks, unit_ - offset);
        Slot slot = map_.location(unit);
        if (!read) {
            const double own = own_write_ ? loads.estimate(MemberIo{slot.disk, false, slot.row * unit_ + offset, piece}) : 0.0;
            const Slot chosen = piece == unit_ ? policy_.place(map_, unit, load, own) : slot;
            if (chosen != slot) {
                map_.move(unit, chosen);
                slot = chosen;
                ++relocations_;
            } else {
                ++in_place_;
            }
        }
        const MemberIo io{slot.disk, read, slot.row * unit_ + offset, piece};
        load[io.disk] += loads.estimate(io);
        add_merged(plan.first, io);
        lba += piece;
        blocks -= piece;
    }
    return plan;
}

}  // namespace fcal::controller
