#include "fcal/controller/service_estimate.hpp"

#include <algorithm>

#include "fcal/disk/seek_distance.hpp"
#include <stdexcept>

namespace fcal::controller {

ServiceEstimate::ServiceEstimate(const DriveSheet& sheet) : sheet_(sheet)
{
    if (sheet_.block_bytes == 0) throw std::invalid_argument("drive sheet block_bytes must be >= 1");
    if (sheet_.zoned) {
        const unsigned c = sheet_.geometry.cylinders;
        const disk::SeekCurve read(c, sheet_.seek_read_min_s, sheet_.seek_read_max_s);
        const disk::SeekCurve write(c, sheet_.seek_write_min_s, sheet_.seek_write_max_s);
        const disk::ZoneGeometryParams& g = sheet_.geometry;
        const disk::SeekDistance distance(c, g.revolution_s / g.sector_time_inner_s, g.revolution_s / g.sector_time_outer_s, 1.0);
        // The mean of S(D) over the density, by the midpoint rule on its quantiles.
        constexpr int kSteps = 2000;
        double read_sum = 0, write_sum = 0;
        for (int i = 0; i < kSteps; ++i) {
            const double d = distance.draw((i + 0.5) / kSteps);
            read_sum += read.seconds(d);
            write_sum += write.seconds(d);
        }
        zoned_.emplace(Zoned{disk::ZoneGeometry(g), read, write, read_sum / kSteps, write_sum / kSteps});
    } else if (!(sheet_.media_bytes_per_s > 0) || !(sheet_.access_s >= 0)) {
        throw std::invalid_argument("drive sheet needs a media rate > 0 and an access time >= 0");
    }
}

double ServiceEstimate::seconds(std::uint64_t head_lba, const MemberIo& io) const
{
    const double bytes = static_cast<double>(io.blocks) * sheet_.block_bytes;
    if (!zoned_) return sheet_.access_s + bytes / sheet_.media_bytes_per_s;
    const disk::ZoneGeometry& g = zoned_->geometry;
    const std::uint64_t last = g.capacity_sectors() - 1;
    const unsigned from = g.place(std::min(head_lba, last)).cylinder;
    const unsigned to = g.place(std::min(io.lba, last)).cylinder;
    const double distance = from > to ? from - to : to - from;
    const double seek = sheet_.stochastic ? (io.read ? zoned_->mean_read_seek_s : zoned_->mean_write_seek_s)
                                          : (io.read ? zoned_->read_seek : zoned_->write_seek).seconds(distance);
    return seek + g.params().revolution_s / 2 + bytes / g.bytes_per_s(to);
}

}  // namespace fcal::controller
