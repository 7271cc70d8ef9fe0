#include "fcal/disk/zoned_mechanism.hpp"

#include <algorithm>
#include <cmath>

namespace fcal::disk {

const char* to_string(PositioningMode mode) { return mode == PositioningMode::Stochastic ? "stochastic" : "physical"; }

namespace {

double sectors_per_track(const ZoneGeometryParams& g, double sector_time_s) { return g.revolution_s / sector_time_s; }

}  // namespace

ZonedMechanism::ZonedMechanism(const ZonedParams& params, std::uint64_t seed)
    : p_(params), geometry_(params.geometry),
      read_seek_(params.geometry.cylinders, params.seek_read_min_s, params.seek_read_max_s),
      write_seek_(params.geometry.cylinders, params.seek_write_min_s, params.seek_write_max_s),
      distance_(params.geometry.cylinders, sectors_per_track(params.geometry, params.geometry.sector_time_inner_s),
                sectors_per_track(params.geometry, params.geometry.sector_time_outer_s), 1.0),
      random_(seed)
{
}

std::uint64_t ZonedMechanism::last_lba(const Access& access) const
{
    const std::uint64_t sectors = (access.bytes + p_.geometry.sector_bytes - 1) / p_.geometry.sector_bytes;
    return std::min(access.lba + std::max<std::uint64_t>(sectors, 1) - 1, geometry_.capacity_sectors() - 1);
}

Positioning ZonedMechanism::physical(const Access& access, double start_s) const
{
    const SectorPlace place = geometry_.place(access.lba);
    const double r = p_.geometry.revolution_s;
    Positioning p;
    p.overhead_s = p_.command_overhead_s;
    const unsigned distance = place.cylinder > cylinder_ ? place.cylinder - cylinder_ : cylinder_ - place.cylinder;
    p.seek_s = seek_curve(access.read).seconds(distance);
    // The spindle's angle when the seek ends, and how far the first sector still has to come round.
    const double t = start_s + p.overhead_s + p.seek_s;
    const double phase = std::fmod(t, r) / r;
    double wait = place.angle - phase;
    if (wait < 0) wait += 1.0;
    p.rotation_s = wait * r;
    p.media_bytes_per_s = geometry_.bytes_per_s(place.cylinder);
    return p;
}

Positioning ZonedMechanism::position(const Access& access, double start_s)
{
    if (p_.positioning == PositioningMode::Physical) {
        const Positioning p = physical(access, start_s);
        cylinder_ = geometry_.place(last_lba(access)).cylinder;
        return p;
    }
    Positioning p;
    p.overhead_s = p_.command_overhead_s;
    p.seek_s = seek_curve(access.read).seconds(distance_.draw(random_.uniform()));
    p.rotation_s = random_.uniform() * p_.geometry.revolution_s;
    const auto zone_lba = static_cast<std::uint64_t>(random_.uniform() * static_cast<double>(geometry_.capacity_sectors()));
    p.media_bytes_per_s = geometry_.bytes_per_s(geometry_.place(std::min(zone_lba, geometry_.capacity_sectors() - 1)).cylinder);
    return p;
}

double ZonedMechanism::estimate(const Access& access, double start_s) const
{
    if (p_.positioning == PositioningMode::Physical) return physical(access, start_s).before_media_s();
    // Stochastic positions are drawn independently of the queue: every command looks alike.
    return p_.command_overhead_s;
}

}  // namespace fcal::disk
