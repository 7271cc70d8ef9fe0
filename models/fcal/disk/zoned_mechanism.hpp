#pragma once
// The zoned mechanical disk's positioning (docs/model.md, "The disks: the zoned model"): command
// overhead, seek (read or write curve), rotational wait, and the media rate of the cylinder.
// - Physical: the head's cylinder is state and the spindle turns at constant speed from t = 0; each
//   LBA decides cylinder, head and angle; the wait is until that angle comes under the head.
// - Stochastic (the analytic model's independent draws): seek distance from f_D (SeekDistance),
//   rotational wait uniform on [0, R_max), and the transfer zone, the cylinder of a uniformly random
//   sector. The LBA plays no part.
#include <cstdint>

#include "fcal/disk/mechanism.hpp"
#include "fcal/disk/random_stream.hpp"
#include "fcal/disk/seek_curve.hpp"
#include "fcal/disk/seek_distance.hpp"
#include "fcal/disk/zone_geometry.hpp"

namespace fcal::disk {

enum class PositioningMode { Physical, Stochastic };
const char* to_string(PositioningMode mode);  // "physical", "stochastic"

struct ZonedParams {
    ZoneGeometryParams geometry;
    double seek_read_min_s{}, seek_read_max_s{};
    double seek_write_min_s{}, seek_write_max_s{};
    PositioningMode positioning{};
    double command_overhead_s{};
};

class ZonedMechanism : public Mechanism {
public:
    ZonedMechanism(const ZonedParams& params, std::uint64_t seed);

    Positioning position(const Access& access, double start_s) override;
    double estimate(const Access& access, double start_s) const override;
    std::uint64_t capacity_sectors() const override { return geometry_.capacity_sectors(); }
    std::uint32_t sector_bytes() const override { return p_.geometry.sector_bytes; }
    double pass_seconds(std::uint64_t lba, std::uint64_t sectors) const override { return geometry_.pass_seconds(lba, sectors); }

    const ZoneGeometry& geometry() const { return geometry_; }
    const SeekCurve& seek_curve(bool read) const { return read ? read_seek_ : write_seek_; }
    unsigned head_cylinder() const { return cylinder_; }

private:
    Positioning physical(const Access& access, double start_s) const;
    std::uint64_t last_lba(const Access& access) const;

    ZonedParams p_;
    ZoneGeometry geometry_;
    SeekCurve read_seek_, write_seek_;
    SeekDistance distance_;
    RandomStream random_;
    unsigned cylinder_ = 0;  // physical: where the head is (starts innermost)
};

}  // namespace fcal::disk
