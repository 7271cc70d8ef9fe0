#pragma once
// Where a volume's blocks live on its member disks, and which member commands one volume request
// becomes (docs/model.md, "The storage controller: volumes and RAID"). No SystemC: a plan is a pure
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
// Pieces of a request that are contiguous on one disk within a phase become one command.
#include <cstdint>
#include <string>
#include <vector>

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
};

class RaidLayout {
public:
    explicit RaidLayout(const VolumeGeometry& geometry);

    const VolumeGeometry& geometry() const { return g_; }
    std::uint64_t blocks() const { return blocks_; }

    // `outstanding[d]`: commands now at member d (used by RAID 1 reads only). The request must lie
    // inside the volume (throws std::out_of_range otherwise).
    Plan plan(bool read, std::uint64_t lba, std::uint64_t blocks, const std::vector<std::uint64_t>& outstanding) const;

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
    std::vector<Piece> split(std::uint64_t lba, std::uint64_t blocks) const;
    unsigned data_disks() const;
    unsigned column_disk(std::uint64_t row, unsigned column) const;  // RAID 0/5 (RAID 1: the pair's first)
    void plan_raid5_write(const std::vector<Piece>& pieces, Plan& plan) const;

    VolumeGeometry g_;
    std::uint64_t blocks_;
};

// Adds a command, merging it with one already in `ios` for the same disk and direction that ends
// where it starts.
void add_merged(std::vector<MemberIo>& ios, const MemberIo& io);

}  // namespace fcal::controller
