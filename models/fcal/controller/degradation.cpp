#include "fcal/controller/degradation.hpp"

#include <algorithm>

namespace fcal::controller {

bool Degradation::any_missing() const
{
    return std::any_of(rows_.begin(), rows_.end(), [](std::uint64_t r) { return r != kAllRows; });
}

}  // namespace fcal::controller
