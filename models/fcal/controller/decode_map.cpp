#include "fcal/controller/decode_map.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace fcal::controller {

DecodeMap::DecodeMap(unsigned disks, std::uint64_t rows, double free_fraction)
    : disks_(disks), rows_(rows), free_per_row_(free_fraction * disks)
{
    if (disks < 2) throw std::invalid_argument("decode map needs at least 2 disks");
    if (rows == 0) throw std::invalid_argument("decode map needs at least one row");
    if (!(free_fraction >= 0 && free_fraction < 1))
        throw std::invalid_argument("decode free_fraction must be in [0, 1), got " + std::to_string(free_fraction));
    units_ = live_below(rows_);
}

std::uint64_t DecodeMap::free_below(std::uint64_t row) const
{
    // The small allowance keeps an exact product (0.1 x 8 x 5 = 4) from rounding down below it.
    return static_cast<std::uint64_t>(std::floor(static_cast<double>(row) * free_per_row_ + 1e-9));
}

bool DecodeMap::free_in_layout(const Slot& slot) const
{
    const std::uint64_t first = free_below(slot.row), end = free_below(slot.row + 1);
    // The first free-slot number from `first` on that lands on this disk.
    const std::uint64_t wanted = disks_ - 1 - slot.disk;
    const std::uint64_t i = first + (wanted + disks_ - first % disks_) % disks_;
    return i < end;
}

std::optional<std::uint64_t> DecodeMap::layout_occupant(const Slot& slot) const
{
    if (free_in_layout(slot)) return std::nullopt;
    std::uint64_t unit = live_below(slot.row);
    for (unsigned d = 0; d < slot.disk; ++d)
        if (!free_in_layout(Slot{d, slot.row})) ++unit;
    return unit;
}

Slot DecodeMap::original(std::uint64_t unit) const
{
    if (unit >= units_)
        throw std::out_of_range("decode unit " + std::to_string(unit) + " beyond the " + std::to_string(units_) + " units");
    // live_below() is nondecreasing: start from the average and step to the row holding the unit.
    std::uint64_t row = static_cast<std::uint64_t>(static_cast<double>(unit) / (disks_ - free_per_row_));
    if (row >= rows_) row = rows_ - 1;
    while (row > 0 && live_below(row) > unit) --row;
    while (live_below(row + 1) <= unit) ++row;
    std::uint64_t left = unit - live_below(row);
    for (unsigned d = 0; d < disks_; ++d) {
        if (free_in_layout(Slot{d, row})) continue;
        if (left-- == 0) return Slot{d, row};
    }
    throw std::logic_error("decode map: row " + std::to_string(row) + " does not hold unit " + std::to_string(unit));
}

Slot DecodeMap::location(std::uint64_t unit) const
{
    const auto it = moved_.find(unit);
    return it != moved_.end() ? it->second : original(unit);
}

void DecodeMap::check(const Slot& slot) const
{
    if (slot.disk >= disks_ || slot.row >= rows_)
        throw std::out_of_range("decode slot (disk " + std::to_string(slot.disk) + ", row " + std::to_string(slot.row) +
                                ") outside the volume");
}

std::optional<std::uint64_t> DecodeMap::occupant(const Slot& slot) const
{
    check(slot);
    const auto it = changed_.find(key(slot));
    return it != changed_.end() ? it->second : layout_occupant(slot);
}

bool DecodeMap::is_free(const Slot& slot) const
{
    // The policy asks this for every row of the area: no need to work out the occupant.
    check(slot);
    const auto it = changed_.find(key(slot));
    return it != changed_.end() ? !it->second : free_in_layout(slot);
}

void DecodeMap::move(std::uint64_t unit, const Slot& to)
{
    if (!is_free(to)) throw std::logic_error("decode map: moving a unit onto a slot that is not free");
    const Slot from = location(unit);
    // Each slot's entry is dropped once it agrees with the layout again.
    auto set = [this](const Slot& slot, std::optional<std::uint64_t> who) {
        if (layout_occupant(slot) == who) changed_.erase(key(slot));
        else changed_[key(slot)] = who;
    };
    set(from, std::nullopt);
    set(to, unit);
    if (original(unit) == to) moved_.erase(unit);
    else moved_[unit] = to;
}

}  // namespace fcal::controller
