#pragma once
// Which members of a volume hold valid data, row by row (docs/model.md, "The storage controller:
// degraded mode and rebuild"). A member in service holds every row, a failed one none, and a spare
// taking a failed member's place holds the rows already rebuilt onto it: member m holds the rows
// below present_rows(m). A row here is one stripe unit's worth of member blocks, [r x unit,
// (r+1) x unit) on every member. No SystemC: the planners take it as plain data.
#include <cstdint>
#include <limits>
#include <vector>

namespace fcal::controller {

class Degradation {
public:
    static constexpr std::uint64_t kAllRows = std::numeric_limits<std::uint64_t>::max();

    Degradation() = default;  // nothing missing, whatever the member count
    explicit Degradation(unsigned members) : rows_(members, kAllRows) {}

    // The common case, nothing missing, costs one comparison.
    bool missing(unsigned member, std::uint64_t row) const { return incomplete_ > 0 && row >= rows_.at(member); }
    bool any_missing() const { return incomplete_ > 0; }
    std::uint64_t present_rows(unsigned member) const { return rows_.empty() ? kAllRows : rows_.at(member); }
    void set_present_rows(unsigned member, std::uint64_t rows);

private:
    std::vector<std::uint64_t> rows_;  // empty: every member holds every row
    unsigned incomplete_ = 0;          // members not holding every row
};

}  // namespace fcal::controller
