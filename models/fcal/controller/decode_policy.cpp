#include "fcal/controller/decode_policy.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::controller {

DecodePolicy::DecodePolicy(unsigned area_units, double threshold) : area_(area_units), threshold_(threshold)
{
    if (!(threshold >= 0)) throw std::invalid_argument("decode threshold must be >= 0, got " + std::to_string(threshold));
}

std::optional<Slot> DecodePolicy::nearest_free(const DecodeMap& map, const Slot& op, unsigned disk) const
{
    if (area_ == 0) return std::nullopt;
    const std::uint64_t below = std::min<std::uint64_t>(op.row, (area_ - 1) / 2);
    const std::uint64_t above = std::min<std::uint64_t>(map.rows() - 1 - op.row, area_ / 2);
    for (std::uint64_t distance = 0; distance <= below || distance <= above; ++distance) {
        if (distance <= below && map.is_free(Slot{disk, op.row - distance})) return Slot{disk, op.row - distance};
        if (distance <= above && map.is_free(Slot{disk, op.row + distance})) return Slot{disk, op.row + distance};
    }
    return std::nullopt;
}

Slot DecodePolicy::place(const DecodeMap& map, std::uint64_t unit, const std::vector<double>& load, double own) const
{
    if (load.size() != map.disks()) throw std::invalid_argument("decode policy: one load per disk expected");
    const Slot now = map.location(unit);
    const Slot op = map.original(unit);
    auto distance = [&op](const Slot& s) { return s.row > op.row ? s.row - op.row : op.row - s.row; };
    std::optional<Slot> best;
    for (unsigned d = 0; d < map.disks(); ++d) {
        if (d == now.disk) continue;
        const std::optional<Slot> slot = nearest_free(map, op, d);
        if (!slot) continue;
        // Disks are visited in increasing order, so a full tie keeps the lower disk.
        if (!best || load[d] < load[best->disk] || (load[d] == load[best->disk] && distance(*slot) < distance(*best)))
            best = slot;
    }
    if (best && load[best->disk] + own <= threshold_ * (load[now.disk] + own)) return *best;
    return now;
}

}  // namespace fcal::controller
