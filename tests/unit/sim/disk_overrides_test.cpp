// Per-disk overrides (disk.<i>.<name>) and the erase.* keys (docs/disk.md, "Disks that differ"; docs/erasure.md, "Erasure"): what they
// resolve to, the errors naming the key and the disk, and the echo that loads back.
#include <catch2/catch.hpp>

#include "config_error.hpp"
#include "fcal/sim/sim_config.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;

TEST_CASE("disk overrides: each disk its own values and the rest from the disk keys")
{
    auto t = fcal_parameters();
    t.set("disk.count", "4");
    t.set("disk.rate_mbs", "40");
    t.set("disk.2.rate_mbs", "25");
    t.load_json({{"disk", {{"3", {{"access_ms", 5.0}, {"capacity_gb", 1.5}}}}}}, "test");
    const SimConfig c = build_config(t);
    REQUIRE(c.disks.size() == 4);
    CHECK(c.disks[0].media_rate_bytes_per_s == 40e6);
    CHECK(c.disks[2].media_rate_bytes_per_s == 25e6);
    CHECK(c.disks[3].access_time_s == 5.0 * 1e-3);
    CHECK(c.disks[3].media_rate_bytes_per_s == 40e6);
    CHECK(disk_params(c, 2).media_rate_bytes_per_s == 25e6);
    CHECK(fcal::disk::fixed_capacity_sectors(disk_params(c, 3)) == 1500000000ull / 512);
    CHECK(fcal::disk::fixed_capacity_sectors(disk_params(c, 0)) == 0);

    // The echo lists the differences under disk.<i> and loads back to the same configuration.
    const nlohmann::json j = to_json(c);
    CHECK(j["disk"]["2"] == nlohmann::json({{"rate_mbs", 25.0}}));
    CHECK(j["disk"]["3"] == nlohmann::json({{"access_ms", 5.0}, {"capacity_gb", 1.5}}));
    CHECK_FALSE(j["disk"].contains("0"));
    auto again = fcal_parameters();
    again.load_json(j, "echo");
    CHECK(to_json(build_config(again)) == j);
}

TEST_CASE("disk overrides: errors name the override's key and disk")
{
    auto t = fcal_parameters();
    t.set("disk.count", "4");
    CHECK(contains(error_of([&] { t.set("disk.1.rpm", "0"); }), "disk.1.rpm: 0 is out of range"));
    CHECK(contains(error_of([&] { t.set("disk.1.heads", "many"); }), "disk.1.heads: expected an integer"));
    CHECK(contains(error_of([&] { t.set("disk.1.model", "zoned"); }), "disk.1.model: unknown parameter"));
    CHECK(contains(error_of([&] { t.set("disk.125.rpm", "5400"); }), "disk.125.rpm: disk index 125 is out of range"));
    CHECK(contains(error_of([&] { t.load_json({{"disk", {{"2", {{"write_cache", 1}}}}}}); }), "disk.2.write_cache: expected true or false"));

    auto beyond = t;
    beyond.set("disk.7.rpm", "5400");
    CHECK(contains(error_of([&] { build_config(beyond); }), "disk.7.rpm: disk 7 does not exist (disk.count = 4"));

    auto zoned = t;
    zoned.set("disk.model", "zoned");
    zoned.set("disk.2.sector_time_outer_ms", "0.5");  // slower outside than inside
    CHECK(contains(error_of([&] { build_config(zoned); }), "disk.2.sector_time_inner_ms: must be >= disk.2.sector_time_outer_ms"));
    auto seek = t;
    seek.set("disk.model", "zoned");
    seek.set("disk.1.seek_write_min_ms", "30");
    CHECK(contains(error_of([&] { build_config(seek); }), "disk.1.seek_write_min_ms: exceeds disk.1.seek_write_max_ms"));
}

TEST_CASE("erase keys: transfer length by disk count and the checks of an erase job")
{
    const std::vector<std::pair<unsigned, unsigned>> by_count{{14, 256}, {8, 512}, {4, 1024}, {2, 2048}, {1, 4096}, {3, 1024}, {125, 32}};
    for (const auto& [disks, tl] : by_count) {
        auto t = fcal_parameters();
        t.set("disk.count", "125");
        t.set("erase.disks", std::to_string(disks));
        t.set("erase.tl_policy", "by_disk_count");
        INFO(disks);
        CHECK(build_config(t).erase.transfer_blocks == tl);
    }
    auto t = fcal_parameters();
    t.set("disk.count", "4");
    t.set("workload.type", "erase");
    CHECK(contains(error_of([&] { build_config(t); }), "disk.capacity_gb"));
    t.set("disk.capacity_gb", "1");
    CHECK(build_config(t).erase_disks == 4);
    CHECK(build_config(t).erase.transfer_blocks == 256);
    t.set("erase.disks", "5");
    CHECK(contains(error_of([&] { build_config(t); }), "erase.disks: 5 exceeds disk.count = 4"));
    t.set("erase.disks", "2");
    t.set("disk.1.capacity_gb", "0");
    CHECK(contains(error_of([&] { build_config(t); }), "disk.1.capacity_gb: erasing a fixed disk needs its capacity"));
    t.set("disk.1.capacity_gb", "2");
    t.set("volume.raid", "raid0");
    CHECK(contains(error_of([&] { build_config(t); }), "workload.type: erase writes the disks themselves"));
}
