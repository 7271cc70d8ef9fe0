#include "fcal/controller/raid_layout.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcal::controller {

std::string to_string(RaidLevel level)
{
    switch (level) {
    case RaidLevel::None: return "none";
    case RaidLevel::Raid0: return "raid0";
    case RaidLevel::Raid1: return "raid1";
    case RaidLevel::Raid5: return "raid5";
    }
    throw std::logic_error("unknown RAID level");
}

void validate(const VolumeGeometry& g)
{
    if (g.level == RaidLevel::None) throw std::invalid_argument("volume level none has no layout (each disk is its own volume)");
    if (g.level == RaidLevel::Raid0 && g.disks < 2) throw std::invalid_argument("volume raid0 needs at least 2 disks");
    if (g.level == RaidLevel::Raid1 && (g.disks < 2 || g.disks % 2 != 0))
        throw std::invalid_argument("volume raid1 needs an even number of disks (mirrored pairs), got " + std::to_string(g.disks));
    if (g.level == RaidLevel::Raid5 && g.disks < 3)
        throw std::invalid_argument("volume raid5 needs at least 3 disks, got " + std::to_string(g.disks));
    if (g.unit_blocks == 0) throw std::invalid_argument("volume unit_blocks must be >= 1");
    if (g.disk_blocks < g.unit_blocks) throw std::invalid_argument("volume unit_blocks exceeds the disk's capacity");
}

std::uint64_t volume_blocks(const VolumeGeometry& g)
{
    const std::uint64_t rows = g.disk_blocks / g.unit_blocks;
    const std::uint64_t data = g.level == RaidLevel::Raid1 ? g.disks / 2 : g.level == RaidLevel::Raid5 ? g.disks - 1 : g.disks;
    return rows * data * g.unit_blocks;
}

RaidLayout::RaidLayout(const VolumeGeometry& geometry) : g_(geometry)
{
    validate(g_);
    blocks_ = volume_blocks(g_);
}

unsigned RaidLayout::data_disks() const
{
    switch (g_.level) {
    case RaidLevel::Raid1: return g_.disks / 2;
    case RaidLevel::Raid5: return g_.disks - 1;
    default: return g_.disks;
    }
}

unsigned RaidLayout::parity_disk(std::uint64_t row) const
{
    return g_.disks - 1 - static_cast<unsigned>(row % g_.disks);
}

unsigned RaidLayout::column_disk(std::uint64_t row, unsigned column) const
{
    switch (g_.level) {
    case RaidLevel::Raid1: return 2 * column;
    case RaidLevel::Raid5: return (parity_disk(row) + 1 + column) % g_.disks;
    default: return column;
    }
}

std::vector<RaidLayout::Piece> RaidLayout::split(std::uint64_t lba, std::uint64_t blocks) const
{
    if (blocks == 0 || lba >= blocks_ || blocks > blocks_ - lba)
        throw std::out_of_range("volume request [" + std::to_string(lba) + ", +" + std::to_string(blocks) +
                                ") outside the volume of " + std::to_string(blocks_) + " blocks");
    std::vector<Piece> pieces;
    const unsigned d = data_disks();
    while (blocks > 0) {
        const std::uint64_t unit = lba / g_.unit_blocks;
        Piece p;
        p.row = unit / d;
        p.column = static_cast<unsigned>(unit % d);
        p.offset = lba % g_.unit_blocks;
        p.blocks = std::min(blocks, g_.unit_blocks - p.offset);
        pieces.push_back(p);
        lba += p.blocks;
        blocks -= p.blocks;
    }
    return pieces;
}

MemberIo RaidLayout::locate(std::uint64_t lba) const
{
    const Piece p = split(lba, 1).front();
    return MemberIo{column_disk(p.row, p.column), true, p.row * g_.unit_blocks + p.offset, 1};
}

Plan RaidLayout::plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding) const
{
    const std::vector<Piece> pieces = split(lba, blocks);
    Plan plan;
    if (!read && g_.level == RaidLevel::Raid5) {
        plan_raid5_write(pieces, plan);
        return plan;
    }
    for (const Piece& p : pieces) {
        MemberIo io{column_disk(p.row, p.column), read, p.row * g_.unit_blocks + p.offset, p.blocks};
        if (g_.level == RaidLevel::Raid1) {
            const unsigned mirror = io.disk + 1;
            if (read) {
                if (outstanding.at(mirror) < outstanding.at(io.disk)) io.disk = mirror;
            } else {
                add_merged(plan.first, io);
                io.disk = mirror;
            }
        }
        add_merged(plan.first, io);
    }
    return plan;
}

void RaidLayout::plan_raid5_write(const std::vector<Piece>& pieces, Plan& plan) const
{
    const unsigned d = data_disks();
    for (std::size_t begin = 0; begin < pieces.size();) {
        std::size_t end = begin;
        while (end < pieces.size() && pieces[end].row == pieces[begin].row) ++end;
        const std::uint64_t row = pieces[begin].row;
        const std::uint64_t base = row * g_.unit_blocks;
        // The parity covers the offsets any written piece of the row covers.
        std::uint64_t from = g_.unit_blocks, to = 0;
        for (std::size_t i = begin; i < end; ++i) {
            from = std::min(from, pieces[i].offset);
            to = std::max(to, pieces[i].offset + pieces[i].blocks);
        }
        // Reconstruct-write reads every data column not fully rewritten over the parity's range.
        std::vector<unsigned> untouched;
        for (unsigned c = 0; c < d; ++c) {
            bool covered = false;
            for (std::size_t i = begin; i < end; ++i)
                if (pieces[i].column == c && pieces[i].offset <= from && pieces[i].offset + pieces[i].blocks >= to) covered = true;
            if (!covered) untouched.push_back(c);
        }
        const std::size_t rmw_reads = (end - begin) + 1;
        const unsigned parity = parity_disk(row);
        if (untouched.size() < rmw_reads) {
            for (unsigned c : untouched) add_merged(plan.first, MemberIo{column_disk(row, c), true, base + from, to - from});
            ++(untouched.empty() ? plan.full_rows : plan.reconstruct_writes);
        } else {
            for (std::size_t i = begin; i < end; ++i)
                add_merged(plan.first, MemberIo{column_disk(row, pieces[i].column), true, base + pieces[i].offset, pieces[i].blocks});
            add_merged(plan.first, MemberIo{parity, true, base + from, to - from});
            ++plan.read_modify_writes;
        }
        for (std::size_t i = begin; i < end; ++i)
            add_merged(plan.second, MemberIo{column_disk(row, pieces[i].column), false, base + pieces[i].offset, pieces[i].blocks});
        add_merged(plan.second, MemberIo{parity, false, base + from, to - from});
        begin = end;
    }
    // A write that reads nothing has a single phase.
    if (plan.first.empty()) plan.first.swap(plan.second);
}

void add_merged(std::vector<MemberIo>& ios, const MemberIo& io)
{
    for (MemberIo& m : ios) {
        if (m.disk != io.disk || m.read != io.read) continue;
        if (m.lba + m.blocks == io.lba) {
            m.blocks += io.blocks;
            return;
        }
        if (io.lba + io.blocks == m.lba) {
            m.lba = io.lba;
            m.blocks += io.blocks;
            return;
        }
    }
    ios.push_back(io);
}

}  // namespace fcal::controller
