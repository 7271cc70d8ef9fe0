#include "fcal/disk/zone_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fcal::disk {

ZoneGeometry::ZoneGeometry(const ZoneGeometryParams& params) : p_(params)
{
    if (p_.cylinders < 2) throw std::invalid_argument("disk cylinders must be >= 2");
    if (p_.heads < 1) throw std::invalid_argument("disk heads must be >= 1");
    if (p_.sector_bytes == 0) throw std::invalid_argument("disk sector_bytes must be >= 1");
    if (!(p_.revolution_s > 0)) throw std::invalid_argument("disk revolution time must be > 0");
    if (!(p_.sector_time_outer_s > 0) || !(p_.sector_time_inner_s >= p_.sector_time_outer_s))
        throw std::invalid_argument("disk sector times must satisfy 0 < outer <= inner");
    sec_in_ = p_.revolution_s / p_.sector_time_inner_s;
    sec_out_ = p_.revolution_s / p_.sector_time_outer_s;
    if (sec_in_ < 1) throw std::invalid_argument("disk sector_time_inner must be at most one revolution");
    // LBAs are placed with double arithmetic (exact below 2^53) and capacities in bytes are 64-bit.
    const double sectors = std::floor(sectors_below(p_.cylinders));
    if (!(sectors <= 9007199254740992.0) || !(sectors * p_.sector_bytes <= 9.2e18))
        throw std::invalid_argument("disk capacity beyond 2^53 sectors or 9.2e18 bytes (" + std::to_string(sectors) + " sectors)");
    capacity_ = static_cast<std::uint64_t>(sectors);
}

double ZoneGeometry::sectors_per_track(double x) const { return sec_in_ + (sec_out_ - sec_in_) * x / (p_.cylinders - 1); }

double ZoneGeometry::sectors_below(double x) const
{
    return p_.heads * (sec_in_ * x + (sec_out_ - sec_in_) * x * x / (2.0 * (p_.cylinders - 1)));
}

SectorPlace ZoneGeometry::place(std::uint64_t lba) const
{
    if (lba >= capacity_) throw std::out_of_range("LBA " + std::to_string(lba) + " beyond the disk's capacity");
    const double l = static_cast<double>(lba);
    // Solve heads (k x^2 + SEC_in x) = l with k = (SEC_out - SEC_in) / (2 (C - 1)).
    const double k = (sec_out_ - sec_in_) / (2.0 * (p_.cylinders - 1));
    const double c = l / p_.heads;
    const double x = k > 0 ? 2.0 * c / (sec_in_ + std::sqrt(sec_in_ * sec_in_ + 4.0 * k * c)) : c / sec_in_;
    auto cyl = static_cast<unsigned>(std::min<double>(std::floor(x), p_.cylinders - 1));
    // Rounding near a boundary: keep the LBA within its cylinder's sector range.
    while (cyl > 0 && sectors_below(cyl) > l) --cyl;
    while (cyl + 1 < p_.cylinders && sectors_below(cyl + 1) <= l) ++cyl;
    const double track = (sectors_below(cyl + 1) - sectors_below(cyl)) / p_.heads;
    const double offset = l - sectors_below(cyl);
    SectorPlace s;
    s.cylinder = cyl;
    s.head = std::min(p_.heads - 1, static_cast<unsigned>(std::floor(offset / track)));
    s.angle = std::min(1.0, std::max(0.0, (offset - s.head * track) / track));
    if (s.angle >= 1.0) s.angle = 0.0;
    return s;
}

double ZoneGeometry::pass_seconds(std::uint64_t lba, std::uint64_t sectors) const
{
    if (sectors == 0) return 0;
    if (sectors > capacity_ || lba > capacity_ - sectors)
        throw std::out_of_range("sectors " + std::to_string(lba) + " + " + std::to_string(sectors) + " beyond the disk's capacity");
    const double begin = static_cast<double>(lba), end = static_cast<double>(lba + sectors);
    double seconds = 0;
    for (unsigned cyl = place(lba).cylinder; cyl < p_.cylinders; ++cyl) {
        const double low = sectors_below(cyl), high = sectors_below(cyl + 1);
        if (low >= end) break;
        const double on_cylinder = std::min(end, high) - std::max(begin, low);
        // One revolution per track: the share of the cylinder's sectors, times heads revolutions.
        seconds += on_cylinder / (high - low) * p_.heads * p_.revolution_s;
    }
    return seconds;
}

double ZoneGeometry::bytes_per_s(unsigned cylinder) const
{
    return sectors_per_track(cylinder) * p_.sector_bytes / p_.revolution_s;
}

}  // namespace fcal::disk
