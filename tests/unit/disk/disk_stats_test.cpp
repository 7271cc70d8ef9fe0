// Several disks' figures summed (DiskStats::operator+=) and reported as means per positioning.
#include <catch2/catch.hpp>

#include "fcal/disk/disk_stats.hpp"

using fcal::disk::DiskStats;

TEST_CASE("disk_stats: sums add up and the report gives means per positioning in us")
{
    DiskStats a, b;
    a.positionings = 2;
    a.seek_s = 3e-3;
    a.rotation_s = 1e-3;
    a.commands_rejected = 1;
    a.max_queue = 4;
    a.busy_time = sc_core::sc_time(2, sc_core::SC_MS);
    b.positionings = 3;
    b.seek_s = 2e-3;
    b.rotation_s = 4e-3;
    b.commands_rejected = 2;
    b.max_queue = 3;
    b.busy_time = sc_core::sc_time(5, sc_core::SC_MS);
    DiskStats sum;
    sum += a;
    sum += b;
    CHECK(sum.positionings == 5);
    CHECK(sum.max_queue == 4);  // the larger, not a sum
    CHECK(sum.busy_time == sc_core::sc_time(7, sc_core::SC_MS));
    nlohmann::json j;
    sum.report(j);
    CHECK(j["positionings"] == 5);
    CHECK(j["mean_seek_us"].get<double>() == Approx(5e-3 / 5 * 1e6));      // 1000 us
    CHECK(j["mean_rotation_us"].get<double>() == Approx(5e-3 / 5 * 1e6));
    CHECK(j["mean_overhead_us"].get<double>() == 0.0);
    CHECK(j["task_set_full"] == 3);
}

TEST_CASE("disk_stats: without a positioning the sums are divided by 1, not by zero")
{
    DiskStats none;
    none.seek_s = 1.0;  // cannot happen without a positioning; shows the divisor is 1
    nlohmann::json j;
    none.report(j);
    CHECK(j["positionings"] == 0);
    CHECK(j["mean_seek_us"].get<double>() == Approx(1e6));
}
