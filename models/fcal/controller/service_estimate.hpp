#pragma once
// The controller's estimate of how long a member disk will take to serve a command (docs/model.md,
// "DECODE"): from the drive's data sheet only, never from the disk model's state. SystemC-free.
//
// - Zoned drives: seek over the cylinders between the end of the previous command the controller sent
//   to that disk and this command's start (the seek curve of the sheet; the controller assumes the
//   disk serves its commands in the order sent), plus half a revolution (the mean rotational wait),
//   plus the transfer at the media rate of the command's first cylinder. With stochastic
//   positioning, where the LBA tells nothing, the seek is the mean over the seek-distance density
//   of uniformly random sectors (the drive's average seek).
// - Fixed drives: the mean access time plus bytes / media rate.
#include <cstdint>
#include <optional>

#include "fcal/controller/raid_layout.hpp"
#include "fcal/disk/seek_curve.hpp"
#include "fcal/disk/zone_geometry.hpp"

namespace fcal::controller {

// What the controller knows of its (identical) member drives. No defaults: the simulator's
// parameter table holds them (disk.*).
struct DriveSheet {
    bool zoned{};
    std::uint32_t block_bytes{};  // the member LBA unit
    // Zoned.
    disk::ZoneGeometryParams geometry{};
    bool stochastic{};  // positioning: seeks drawn at random, not from the LBAs
    double seek_read_min_s{}, seek_read_max_s{}, seek_write_min_s{}, seek_write_max_s{};
    // Fixed.
    double access_s{};
    double media_bytes_per_s{};
};

class ServiceEstimate {
public:
    explicit ServiceEstimate(const DriveSheet& sheet);  // std::invalid_argument naming the field

    // Seconds for `io`, the previous command sent to its disk ending just before `head_lba`.
    double seconds(std::uint64_t head_lba, const MemberIo& io) const;

private:
    DriveSheet sheet_;
    struct Zoned {
        disk::ZoneGeometry geometry;
        disk::SeekCurve read_seek, write_seek;
        double mean_read_seek_s, mean_write_seek_s;  // stochastic positioning
    };
    std::optional<Zoned> zoned_;  // zoned drives only
};

}  // namespace fcal::controller
