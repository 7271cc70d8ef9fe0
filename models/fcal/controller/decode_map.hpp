#pragma once
// Where DECODE's stripe units live (docs/model.md, "DECODE"): SystemC-free.
//
// The volume's member disks are cut into slots of one stripe unit; slot (disk d, row r) is member
// LBA r x unit. Each row is a stripe group of n slots, and `free_fraction` of its slots are left free
// when the volume is laid out: the rows below row r hold F(r) = floor(r x free_fraction x n) free
// slots, and the i-th free slot (i = 0, 1, ...) is on disk n-1 - (i mod n), so they rotate over the
// disks (one per row with free_fraction = 1/n: RAID 5's parity positions). The volume's units fill
// the other slots in row order, lowest disk first: that is each unit's original position (OP). With
// free_fraction = 0 it is exactly RAID 0.
//
// The map then follows moves: a unit moved to a free slot frees the one it left. Only what differs
// from the layout is stored, so a map costs nothing for a unit that never moved.
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace fcal::controller {

struct Slot {
    unsigned disk = 0;
    std::uint64_t row = 0;

    bool operator==(const Slot& o) const { return disk == o.disk && row == o.row; }
    bool operator!=(const Slot& o) const { return !(*this == o); }
};

class DecodeMap {
public:
    // std::invalid_argument naming the field: disks >= 2, rows >= 1, 0 <= free_fraction < 1.
    DecodeMap(unsigned disks, std::uint64_t rows, double free_fraction);

    unsigned disks() const { return disks_; }
    std::uint64_t rows() const { return rows_; }
    std::uint64_t units() const { return units_; }  // live units: every slot not free in the layout

    Slot original(std::uint64_t unit) const;     // OP; std::out_of_range beyond units()
    Slot location(std::uint64_t unit) const;     // where the unit is now
    std::optional<std::uint64_t> occupant(const Slot& slot) const;  // nullopt: free
    bool is_free(const Slot& slot) const;

    // Moves `unit` to the free slot `to` and frees the slot it leaves (std::logic_error if `to` is
    // not free).
    void move(std::uint64_t unit, const Slot& to);

    // Free slots in the layout before any move, in rows [0, r).
    std::uint64_t free_below(std::uint64_t row) const;
    bool free_in_layout(const Slot& slot) const;

private:
    std::uint64_t live_below(std::uint64_t row) const { return row * disks_ - free_below(row); }
    std::uint64_t key(const Slot& slot) const { return slot.row * disks_ + slot.disk; }
    std::optional<std::uint64_t> layout_occupant(const Slot& slot) const;
    void check(const Slot& slot) const;  // std::out_of_range outside the volume

    unsigned disks_;
    std::uint64_t rows_;
    double free_per_row_;  // free_fraction x disks
    std::uint64_t units_;
    std::unordered_map<std::uint64_t, Slot> moved_;  // unit -> slot, units not at their OP
    // slot key -> occupant (nullopt: free), slots whose state differs from the layout's
    std::unordered_map<std::uint64_t, std::optional<std::uint64_t>> changed_;
};

}  // namespace fcal::controller
