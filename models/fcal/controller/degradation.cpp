#include "fcal/controller/degradation.hpp"

namespace fcal::controller {

void Degradation::set_present_rows(unsigned member, std::uint64_t rows)
{
    std::uint64_t& r = rows_.at(member);
    if (r == kAllRows && rows != kAllRows) ++incomplete_;
    if (r != kAllRows && rows == kAllRows) --incomplete_;
    r = rows;
}

}  // namespace fcal::controller
