#pragma once
// Where a volume's blocks live on its member disks, and which member commands one volume request
// becomes (docs/controller.md, "Volumes and RAID"). No SystemC: a plan is a pure
// function of the geometry, the request and (RAID 1 reads) how busy each member is.
//
// - RAID 0: unit i on disk i mod n, row i div n.
// - RAID 1: mirrored pairs (disks 2k, 2k+1) striped like RAID 0 over the n/2 pairs; a read goes to
//   the copy with fewer outstanding commands (tie: the lower index), a write to both.
// - RAID 5: n-1 data units and one parity unit per row, left-symmetric: the parity of row r is on
//   disk n-1 - (r mod n) and data unit j of the row on disk (parity + 1 + j) mod n. A write to a row
//   reads old data and old parity then writes (read-modify-write), or reads the untouched data then
//   writes (reconstruct-write), whichever reads less (ties: read-modify-write); a full row reads
//   nothing.
//
// With members missing (a Degradation: docs/controller.md, "Degraded mode and rebuild") a RAID 1
// piece uses the surviving copy; a RAID 5 read of a missing member is the XOR of
// the row's n-1 other units, and a RAID 5 write of a row with a member missing takes the shape that
// does not need it (the table in the docs); RAID 0, or a row with no redundancy left, cannot be
// planned (Plan::unavailable says why).
//
// Pieces of a request that overlap or touch on one disk within a phase become one command.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fcal/controller/degradation.hpp"

namespace fcal::controller {

enum class RaidLevel { None, Raid0, Raid1, Raid5 };

std::string to_string(RaidLevel level);  // "none", "raid0", "raid1", "raid5"

// No defaults: the simulator's parameter table holds them (volume.*).
struct VolumeGeometry {
    RaidLevel level{};
    unsigned disks{};                 // members
    std::uint64_t unit_blocks{};      // stripe unit
    std::uint64_t disk_blocks{};      // capacity of each member
};

// Throws std::invalid_argument naming the offending field (RAID 1 needs an even count, RAID 5 at
// least 3 disks, RAID 0 at least 2, a unit no larger than a disk).
void validate(const VolumeGeometry& geometry);

// Blocks a volume offers to its user: whole rows only.
std::uint64_t volume_blocks(const VolumeGeometry& geometry);

// The blocks used on each member (VolumeGeometry::disk_blocks) when `capacity_bytes` of a drive of
// `drive_blocks` are used (0: the whole drive), from LBA 0 up: on a zoned drive the outer, fastest
// zones, as short-stroking does (docs/controller.md, "Degraded mode and rebuild").
// Throws std::invalid_argument when the capacity exceeds the drive or holds no whole stripe unit.
std::uint64_t used_member_blocks(std::uint64_t drive_blocks, std::uint64_t capacity_bytes, std::uint32_t block_bytes,
                                 std::uint64_t unit_blocks);

// One command to one member disk.
struct MemberIo {
    unsigned disk = 0;
    bool read = true;
    std::uint64_t lba = 0;     // on the member
    std::uint64_t blocks = 0;

    bool operator==(const MemberIo& o) const
    {
        return disk == o.disk && read == o.read && lba == o.lba && blocks == o.blocks;
    }
};

// The commands of one request: the second phase starts when every command of the first has
// completed (RAID 5 writes that read first); otherwise everything is in `first`.
struct Plan {
    std::vector<MemberIo> first;
    std::vector<MemberIo> second;
    unsigned full_rows = 0;          // RAID 5 write shapes, for tests and statistics
    unsigned read_modify_writes = 0;
    unsigned reconstruct_writes = 0;
    // Planned around a missing member: read pieces (served by the copy or the row's XOR) or written
    // rows (RAID 5: every row with a member missing; RAID 1: pieces written to one copy).
    unsigned degraded = 0;
    std::string unavailable;  // not empty: some of the data is on no member (why); no commands
};

class RaidLayout {
public:
    explicit RaidLayout(const VolumeGeometry& geometry);

    const VolumeGeometry& geometry() const { return g_; }
    std::uint64_t blocks() const { return blocks_; }

    // `outstanding[d]`: commands now at member d (used by RAID 1 reads only); `missing`: the members
    // and rows not to use. The request must lie inside the volume (throws std::out_of_range otherwise).
    Plan plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding,
              const Degradation& missing = Degradation()) const;
    // The same into `out`, whose vectors keep their capacity: a caller that plans into one Plan again
    // and again allocates nothing once it has planned its largest request (docs/kernel.md, "No
    // allocation per frame").
    void plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding,
              const Degradation& missing, Plan& out) const;

    // The first and last rows a request touches (member rows, as in Degradation).
    std::pair<std::uint64_t, std::uint64_t> rows_of(std::uint64_t lba, std::uint64_t blocks) const;
    // Rows used on every member (each member's used capacity is rows() x unit_blocks).
    std::uint64_t rows() const { return g_.disk_blocks / g_.unit_blocks; }

    // Where volume block `lba` lives (RAID 0 and 5: the data copy; RAID 1: the first copy).
    MemberIo locate(std::uint64_t lba) const;
    // RAID 5: the disk holding row r's parity.
    unsigned parity_disk(std::uint64_t row) const;

private:
    struct Piece {  // part of one stripe unit
        std::uint64_t row = 0;
        unsigned column = 0;       // data column in the row (0 .. data disks - 1)
        std::uint64_t offset = 0;  // within the unit
        std::uint64_t blocks = 0;
    };
    // Fills `pieces` (cleared first).
    void split(std::uint64_t lba, std::uint64_t blocks, std::vector<Piece>& pieces) const;
    unsigned data_disks() const;
    unsigned column_disk(std::uint64_t row, unsigned column) const;  // RAID 0/5 (RAID 1: the pair's first)
    void plan_piece(bool read, const Piece& piece, const std::vector<std::uint64_t>& outstanding, const Degradation& missing,
                    Plan& plan) const;
    void plan_raid5_write(const std::vector<Piece>& pieces, const Degradation& missing, Plan& plan) const;

    VolumeGeometry g_;
    std::uint64_t blocks_;
    // plan()'s pieces, kept for the next plan so that planning allocates nothing in steady state (the
    // plan calls out to nothing, so no other plan can run while one uses it).
    mutable std::vector<Piece> pieces_;
};

// Adds a command, merged with those already in `ios` for the same disk and direction that it overlaps
// or touches (the merged command takes the place of the first of them).
void add_merged(std::vector<MemberIo>& ios, MemberIo io);

}  // namespace fcal::controller
