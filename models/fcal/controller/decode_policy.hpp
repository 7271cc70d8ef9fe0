#pragma once
// DECODE's choice of where a written stripe unit goes (docs/model.md, "DECODE"): SystemC-free, a pure
// function of the map and the disks' loads.
//
// The equivalent area of a unit is `area_units` rows around its original position on every disk:
// rows OP - (area_units - 1) / 2 ... OP + area_units / 2 (integer halves, clipped to the volume), so
// 1 is the OP's own stripe group and 0 is no area at all (DECODE never moves: conventional striping
// over DECODE's layout). The candidates are the other disks that have a free slot in the area, each
// with its free slot nearest the OP's row (the lower row on a tie). The least loaded candidate wins
// (ties: the nearer slot, then the lower disk); the unit moves there only if that disk's load is at
// most `threshold` x the load of the disk holding the unit now, the write's own estimated service
// time counted on both sides (an idle system thus keeps data in place); otherwise it is written in
// place.
#include <cstdint>
#include <optional>
#include <vector>

#include "fcal/controller/decode_map.hpp"

namespace fcal::controller {

class DecodePolicy {
public:
    // std::invalid_argument unless threshold >= 0.
    DecodePolicy(unsigned area_units, double threshold);

    unsigned area_units() const { return area_; }
    double threshold() const { return threshold_; }

    // The slot to write `unit` to: its present one (in place) or a free one on another disk.
    // `load[d]`: disk d's load; `own`: the write's own service time (same unit, e.g. seconds).
    Slot place(const DecodeMap& map, std::uint64_t unit, const std::vector<double>& load, double own = 0) const;

    // Disk `disk`'s free slot in the equivalent area of `op` nearest to it; nullopt if none.
    std::optional<Slot> nearest_free(const DecodeMap& map, const Slot& op, unsigned disk) const;

private:
    unsigned area_;
    double threshold_;
};

}  // namespace fcal::controller
