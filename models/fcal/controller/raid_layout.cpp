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

std::uint64_t used_member_blocks(std::uint64_t drive_blocks, std::uint64_t capacity_bytes, std::uint32_t block_bytes,
                                 std::uint64_t unit_blocks)
{
    if (block_bytes == 0 || unit_blocks == 0) throw std::invalid_argument("volume block and unit sizes must be >= 1");
    if (capacity_bytes == 0) return drive_blocks;
    const std::uint64_t blocks = capacity_bytes / block_bytes;
    if (blocks > drive_blocks)
        throw std::invalid_argument("volume member capacity of " + std::to_string(capacity_bytes) + " bytes exceeds the member drive's " +
                                    std::to_string(drive_blocks * block_bytes) + " bytes");
    if (blocks < unit_blocks)
        throw std::invalid_argument("volume member capacity of " + std::to_string(capacity_bytes) + " bytes is less than one stripe unit (" +
                                    std::to_string(unit_blocks * block_bytes) + " bytes)");
    return blocks;
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

void RaidLayout::split(std::uint64_t lba, std::uint64_t blocks, std::vector<Piece>& pieces) const
{
    if (blocks == 0 || lba >= blocks_ || blocks > blocks_ - lba)
        throw std::out_of_range("volume request [" + std::to_string(lba) + ", +" + std::to_string(blocks) +
                                ") outside the volume of " + std::to_string(blocks_) + " blocks");
    pieces.clear();
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
}

MemberIo RaidLayout::locate(std::uint64_t lba) const
{
    std::vector<Piece> pieces;
    split(lba, 1, pieces);
    const Piece& p = pieces.front();
    return MemberIo{column_disk(p.row, p.column), true, p.row * g_.unit_blocks + p.offset, 1};
}

namespace {

// Why a row cannot be reached: the members it would need are all missing.
std::string unreachable(RaidLevel level, std::uint64_t row, const std::vector<unsigned>& members)
{
    std::string text = to_string(level) + " row " + std::to_string(row) + ": member";
    text += members.size() > 1 ? "s " : " ";
    for (std::size_t i = 0; i < members.size(); ++i)
        text += (i == 0 ? "" : i + 1 == members.size() ? " and " : ", ") + std::to_string(members[i]);
    return text + " missing";
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> RaidLayout::rows_of(std::uint64_t lba, std::uint64_t blocks) const
{
    const std::uint64_t units_per_row = data_disks();
    return {lba / g_.unit_blocks / units_per_row, (lba + blocks - 1) / g_.unit_blocks / units_per_row};
}

Plan RaidLayout::plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding,
                      const Degradation& missing) const
{
    Plan plan;
    this->plan(read, lba, blocks, outstanding, missing, plan);
    return plan;
}

void RaidLayout::plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding,
                      const Degradation& missing, Plan& plan) const
{
    split(lba, blocks, pieces_);
    plan.first.clear();
    plan.second.clear();
    plan.full_rows = plan.read_modify_writes = plan.reconstruct_writes = plan.degraded = 0;
    plan.unavailable.clear();
    if (!read && g_.level == RaidLevel::Raid5)
        plan_raid5_write(pieces_, missing, plan);
    else
        for (const Piece& p : pieces_) {
            plan_piece(read, p, outstanding, missing, plan);
            if (!plan.unavailable.empty()) break;
        }
    if (!plan.unavailable.empty()) {
        plan.first.clear();
        plan.second.clear();
    }
}

void RaidLayout::plan_piece(bool read, const Piece& p, const std::vector<std::uint64_t>& outstanding,
                            const Degradation& missing, Plan& plan) const
{
    const unsigned disk = column_disk(p.row, p.column);
    const std::uint64_t lba = p.row * g_.unit_blocks + p.offset;
    if (g_.level == RaidLevel::Raid1) {
        const unsigned mirror = disk + 1;
        const bool first = !missing.missing(disk, p.row), second = !missing.missing(mirror, p.row);
        if (!first && !second) {
            plan.unavailable = unreachable(g_.level, p.row, {disk, mirror});
            return;
        }
        if (!first || !second) ++plan.degraded;
        if (read) {
            const bool use_mirror = !first || (second && outstanding.at(mirror) < outstanding.at(disk));
            add_merged(plan.first, MemberIo{use_mirror ? mirror : disk, true, lba, p.blocks});
        } else {
            if (first) add_merged(plan.first, MemberIo{disk, false, lba, p.blocks});
            if (second) add_merged(plan.first, MemberIo{mirror, false, lba, p.blocks});
        }
        return;
    }
    if (!missing.missing(disk, p.row)) {
        add_merged(plan.first, MemberIo{disk, read, lba, p.blocks});
        return;
    }
    if (g_.level != RaidLevel::Raid5) {
        plan.unavailable = unreachable(g_.level, p.row, {disk});
        return;
    }
    // A RAID 5 read of a missing member: the XOR of the same blocks of the row's n-1 other units.
    for (unsigned m = 0; m < g_.disks; ++m) {
        if (m == disk) continue;
        if (missing.missing(m, p.row)) {
            plan.unavailable = unreachable(g_.level, p.row, {std::min(m, disk), std::max(m, disk)});
            return;
        }
        add_merged(plan.first, MemberIo{m, true, lba, p.blocks});
    }
    ++plan.degraded;
}

void RaidLayout::plan_raid5_write(const std::vector<Piece>& pieces, const Degradation& missing, Plan& plan) const
{
    const unsigned d = data_disks();
    for (std::size_t begin = 0; begin < pieces.size();) {
        std::size_t end = begin;
        while (end < pieces.size() && pieces[end].row == pieces[begin].row) ++end;
        const std::uint64_t row = pieces[begin].row;
        const std::uint64_t base = row * g_.unit_blocks;
        const unsigned parity = parity_disk(row);
        // The member missing from the row, if any; with two the row is lost.
        std::vector<unsigned> gone;
        if (missing.any_missing())
            for (unsigned m = 0; m < g_.disks; ++m)
                if (missing.missing(m, row)) gone.push_back(m);
        if (gone.size() > 1) {
            plan.unavailable = unreachable(g_.level, row, gone);
            return;
        }
        const bool degraded = !gone.empty();
        const unsigned lost = degraded ? gone.front() : g_.disks;  // g_.disks: none
        // The parity covers the offsets any written piece of the row covers.
        std::uint64_t from = g_.unit_blocks, to = 0;
        for (std::size_t i = begin; i < end; ++i) {
            from = std::min(from, pieces[i].offset);
            to = std::max(to, pieces[i].offset + pieces[i].blocks);
        }
        const auto covers = [&](std::size_t i) { return pieces[i].offset <= from && pieces[i].offset + pieces[i].blocks >= to; };
        // Reconstruct-write reads every data column not fully rewritten over the parity's range (the
        // untouched columns: counted here, visited again in read_untouched, so that no list is built).
        const auto untouched = [&](unsigned c) {
            bool covered = false;
            for (std::size_t i = begin; i < end; ++i)
                if (pieces[i].column == c) covered = covers(i);
            return !covered;
        };
        std::size_t untouched_count = 0;
        for (unsigned c = 0; c < d; ++c)
            if (untouched(c)) ++untouched_count;
        std::size_t lost_piece = end;  // the piece written to the missing member, if any
        if (degraded)
            for (std::size_t i = begin; i < end; ++i)
                if (column_disk(row, pieces[i].column) == lost) lost_piece = i;
        const std::size_t rmw_reads = (end - begin) + 1;
        const auto read_pieces_and_parity = [&] {  // read-modify-write's reads
            for (std::size_t i = begin; i < end; ++i)
                add_merged(plan.first, MemberIo{column_disk(row, pieces[i].column), true, base + pieces[i].offset, pieces[i].blocks});
            add_merged(plan.first, MemberIo{parity, true, base + from, to - from});
        };
        const auto read_untouched = [&] {  // reconstruct-write's reads
            for (unsigned c = 0; c < d; ++c)
                if (untouched(c)) add_merged(plan.first, MemberIo{column_disk(row, c), true, base + from, to - from});
        };
        if (!degraded) {
            if (untouched_count < rmw_reads) {
                read_untouched();
                ++(untouched_count == 0 ? plan.full_rows : plan.reconstruct_writes);
            } else {
                read_pieces_and_parity();
                ++plan.read_modify_writes;
            }
        } else {
            ++plan.degraded;
            if (lost == parity) {
                // Data only: there is no parity left to keep.
            } else if (lost_piece == end) {
                // An unwritten data member is gone: reconstruct-write would need it, read-modify-write does not.
                read_pieces_and_parity();
            } else if (covers(lost_piece)) {
                // The new parity is the XOR of the new data with the columns not rewritten (the lost
                // member's new data reaches the disks through the parity only).
                read_untouched();
            } else {
                // The lost member keeps old data inside the parity's range, recoverable only from the
                // old parity and the old data of every other column: read every survivor over it.
                for (unsigned m = 0; m < g_.disks; ++m)
                    if (m != lost) add_merged(plan.first, MemberIo{m, true, base + from, to - from});
            }
        }
        for (std::size_t i = begin; i < end; ++i) {
            const unsigned disk = column_disk(row, pieces[i].column);
            if (disk != lost) add_merged(plan.second, MemberIo{disk, false, base + pieces[i].offset, pieces[i].blocks});
        }
        if (parity != lost) add_merged(plan.second, MemberIo{parity, false, base + from, to - from});
        begin = end;
    }
    // A write that reads nothing has a single phase.
    if (plan.first.empty()) plan.first.swap(plan.second);
}

void add_merged(std::vector<MemberIo>& ios, MemberIo io)
{
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::size_t at = kNone;
    for (std::size_t i = 0; i < ios.size();) {
        const MemberIo& m = ios[i];
        if (m.disk != io.disk || m.read != io.read || m.lba > io.lba + io.blocks || io.lba > m.lba + m.blocks) {
            ++i;
            continue;
        }
        const std::uint64_t stop = std::max(m.lba + m.blocks, io.lba + io.blocks);
        io.lba = std::min(m.lba, io.lba);
        io.blocks = stop - io.lba;
        if (at == kNone) {
            at = i++;
        } else {
            ios.erase(ios.begin() + static_cast<std::ptrdiff_t>(i));
        }
    }
    if (at == kNone)
        ios.push_back(io);
    else
        ios[at] = io;
}

}  // namespace fcal::controller
