#pragma once
// A RAID 0 volume laid out and written the DECODE way (docs/model.md, "DECODE"): the member commands
// of a request, through the map (controller/decode_map.hpp), with the policy
// (controller/decode_policy.hpp) choosing where each written stripe unit goes. SystemC-free.
//
// Reads go wherever the map says each unit is. A write decides unit by unit, in address order: a unit
// the write covers entirely may move (the map changes when the command is planned, and the map's own
// update rides along with the data: no extra I/O); a unit it covers only in part is written in place,
// since moving it would need the rest of the unit read first. Each decision sees the disks' loads
// plus the estimates of the request's pieces already placed, and (own_write) the write's own estimate
// on both sides of the threshold. Pieces contiguous on one disk become
// one command.
#include <cstdint>
#include <vector>

#include "fcal/controller/decode_map.hpp"
#include "fcal/controller/decode_policy.hpp"
#include "fcal/controller/disk_loads.hpp"
#include "fcal/controller/raid_layout.hpp"

namespace fcal::controller {

// No defaults: the simulator's parameter table holds them (volume.decode, decode.*).
struct DecodeParams {
    double free_fraction{};
    unsigned area_units{};  // 0: never moves (conventional striping over DECODE's layout)
    double threshold{};
    bool own_write{};  // the write's own estimated time counted on both sides of the threshold
    DriveSheet drive;
};

class DecodeLayout {
public:
    // `geometry`: a RAID 0 volume (its capacity shrinks by the free slots).
    DecodeLayout(const VolumeGeometry& geometry, const DecodeParams& params);

    std::uint64_t blocks() const { return map_.units() * unit_; }
    const DecodeMap& map() const { return map_; }

    // The request must lie inside the volume (std::out_of_range otherwise).
    Plan plan(bool read, std::uint64_t lba, std::uint64_t blocks, const DiskLoads& loads);

    std::uint64_t relocations() const { return relocations_; }    // units written to another disk's free slot
    std::uint64_t in_place_writes() const { return in_place_; }   // units written where they were

private:
    std::uint64_t unit_;
    DecodeMap map_;
    DecodePolicy policy_;
    bool own_write_;
    std::uint64_t relocations_ = 0, in_place_ = 0;
};

}  // namespace fcal::controller
