#pragma once
// What positions a disk's head for one command and how fast the medium then moves data
// (docs/model.md, "The disks"): the fixed model's access time, or the zoned model's overhead,
// seek and rotational wait. SystemC-free: times are seconds from t = 0, the spindle's phase origin.
#include <cstdint>

namespace fcal::disk {

struct Access {
    bool read = true;
    std::uint64_t lba = 0;
    std::uint32_t bytes = 0;
};

struct Positioning {
    double overhead_s = 0;          // controller firmware per command
    double seek_s = 0;
    double rotation_s = 0;          // wait for the first sector (the fixed model's whole access time)
    double media_bytes_per_s = 0;   // rate of the media transfer that follows
    double before_media_s() const { return overhead_s + seek_s + rotation_s; }
};

class Mechanism {
public:
    virtual ~Mechanism() = default;
    // Positions for `access` starting at `start_s`; the head is then at the access's last sector.
    virtual Positioning position(const Access& access, double start_s) = 0;
    // Time position() would take before the media transfer, without moving anything (SPTF).
    virtual double estimate(const Access& access, double start_s) const = 0;
    // Sectors addressable; 0 when the model has no geometry (the fixed disk without a capacity).
    virtual std::uint64_t capacity_sectors() const { return 0; }
    // Bytes of one sector, the LBA unit.
    virtual std::uint32_t sector_bytes() const = 0;
    // Time the medium takes to pass `sectors` sectors from `lba` once positioned: a WRITE SAME range
    // (docs/model.md, "Erasure").
    virtual double pass_seconds(std::uint64_t lba, std::uint64_t sectors) const = 0;
};

}  // namespace fcal::disk
