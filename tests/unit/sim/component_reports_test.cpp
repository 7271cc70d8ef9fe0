// The counters of several components of one kind, summed as the results give them.
#include <catch2/catch.hpp>

#include "fcal/sim/component_reports.hpp"

using fcal::sim::add_counts;

TEST_CASE("component_reports: add_counts sums each key and starts a missing one from 0")
{
    nlohmann::json total = {{"late_frames", 2}, {"aborts", 5}};
    add_counts(total, {{"late_frames", 3}, {"data_timeouts", 4}});
    add_counts(total, {{"late_frames", 1}, {"data_timeouts", 0}});
    CHECK(total == nlohmann::json{{"late_frames", 6}, {"aborts", 5}, {"data_timeouts", 4}});
    // 64-bit counts stay exact.
    nlohmann::json big = {{"n", std::uint64_t{1} << 62}};
    add_counts(big, {{"n", (std::uint64_t{1} << 62) + 1}});
    CHECK(big["n"].get<std::uint64_t>() == (std::uint64_t{1} << 63) + 1);
}
