#pragma once
// The zoned recording geometry of a mechanical disk (docs/model.md, "The disks: the zoned model"):
// SystemC-free. The recording band is the radius x in [0, cylinders), cylinder i covering [i, i + 1),
// x = 0 innermost. Sectors per track grow linearly with x:
//     SEC(x) = SEC_in + (SEC_out - SEC_in) x / (cylinders - 1),   SEC = R_max / t (t: time of one sector)
// and the sectors below radius x (all heads) are
//     N(x) = heads (SEC_in x + (SEC_out - SEC_in) x^2 / (2 (cylinders - 1))).
// LBAs run from the innermost cylinder outwards: LBA l lies at the radius x with N(x) = l (the
// quadratic inverted), on cylinder floor(x). Within a cylinder the tracks are filled head by head;
// a track of cylinder i holds (N(i + 1) - N(i)) / heads sectors and sector s of it lies at angle
// s / (that many) of a revolution from the index (perfect skew: track and head switches are free).
#include <cstdint>

namespace fcal::disk {

struct ZoneGeometryParams {
    unsigned cylinders{};
    unsigned heads{};
    std::uint32_t sector_bytes{};
    double revolution_s{};        // R_max = 60 / rpm
    double sector_time_inner_s{};  // t_max
    double sector_time_outer_s{};  // t_min
};

// Where an LBA lies.
struct SectorPlace {
    unsigned cylinder = 0;
    unsigned head = 0;
    double angle = 0;  // fraction of a revolution from the index, [0, 1)
};

class ZoneGeometry {
public:
    explicit ZoneGeometry(const ZoneGeometryParams& params);  // std::invalid_argument naming the field

    const ZoneGeometryParams& params() const { return p_; }
    double sectors_per_track(double x) const;  // SEC(x)
    double sectors_below(double x) const;      // N(x)
    std::uint64_t capacity_sectors() const { return capacity_; }  // floor(N(cylinders))
    std::uint64_t capacity_bytes() const { return capacity_ * p_.sector_bytes; }
    SectorPlace place(std::uint64_t lba) const;
    // Media rate at cylinder i: SEC(i) sectors per revolution.
    double bytes_per_s(unsigned cylinder) const;
    // Time the medium takes to pass sectors [lba, lba + sectors) in one sweep, cylinder by cylinder:
    // each track of cylinder i, (N(i + 1) - N(i)) / heads sectors, passes in one revolution; track and
    // head switches are free (perfect skew). std::out_of_range past the capacity.
    double pass_seconds(std::uint64_t lba, std::uint64_t sectors) const;

private:
    ZoneGeometryParams p_;
    double sec_in_ = 0, sec_out_ = 0;
    std::uint64_t capacity_ = 0;
};

}  // namespace fcal::disk
