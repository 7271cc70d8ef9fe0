// The rules the models' constructors used to be the first to see (issue 20), now in build_config so
// that no run is refused after elaboration began and its outputs existed: the RTL FIFO depths, the
// loop's AL_TIME rule, the workload's span, and the capacity of the disks and the volume. No SystemC
// elaboration here: build_config only. The expected limits are computed from the rules' formulas.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "config_error.hpp"
#include "fcal/sim/sim_config.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;

namespace {

SimConfig config(const std::vector<std::pair<std::string, std::string>>& sets)
{
    ParameterTable t = fcal_parameters();
    for (const auto& [key, value] : sets) t.set(key, value);
    return build_config(t);
}

std::string refusal(const std::vector<std::pair<std::string, std::string>>& sets)
{
    return error_of([&] { config(sets); });
}

}  // namespace

TEST_CASE("elaboration checks: the RTL's FIFO depths are those it was built with")
{
    CHECK(contains(refusal({{"cmdf.impl", "rtl"}, {"initiator.tx_fifo_frames", "8"}}),
                   "initiator.tx_fifo_frames: cmdf.impl=rtl needs 64"));
    CHECK(contains(refusal({{"cmdf.impl", "rtl"}, {"initiator.cmd_fifo_frames", "4"}}),
                   "initiator.cmd_fifo_frames: cmdf.impl=rtl needs 16"));
    CHECK(config({{"initiator.tx_fifo_frames", "8"}}).controller_fifos.frames == 8);  // the model takes any depth
}

TEST_CASE("elaboration checks: AL_TIME must exceed twice the loop's round trip when bits can be lost")
{
    // The baseline's round trip: 17 nodes, each a 2 m cable at 5 ns/m and a 6-word repeat at 2GFC
    // (40 bits / 2.125 Gbaud = 18.82 ns a word): 17 x (10 + 112.94) ns = 2090.0 ns; twice 4.180 us.
    const double twice_us = 2 * 17 * (2 * 5e-3 + 6 * 40 / 2.125e3);
    REQUIRE(twice_us == Approx(4.18));
    const auto at = [](double al_time_us) {
        return std::vector<std::pair<std::string, std::string>>{{"loop.ber", "1e-6"}, {"loop.al_time_us", std::to_string(al_time_us)}};
    };
    const std::string e = refusal(at(twice_us - 0.01));
    CHECK(contains(e, "loop.al_time_us: 4.17 us is not above twice the loop's round trip ("));
    // (The loop counts whole picoseconds: 4.17999 us.)
    CHECK(std::stod(e.substr(e.find('(') + 1)) == Approx(twice_us).epsilon(1e-5));
    CHECK(config(at(twice_us + 0.01)).loop.al_time_s == Approx((twice_us + 0.01) * 1e-6));
    // Without bit errors nothing waits on AL_TIME's account; the ideal transport has no loop.
    CHECK(config({{"loop.al_time_us", "1"}}).loop.al_time_s == 1e-6);
    CHECK(config({{"loop.ber", "1e-6"}, {"loop.al_time_us", "1"}, {"transport", "ideal"}}).loop.al_time_s == 1e-6);
    // Longer cables lengthen the round trip: 200 m hops add 17 x 1000 ns, twice 34 us.
    CHECK(contains(refusal({{"loop.ber", "1e-6"}, {"loop.hop_m", "200"}, {"loop.al_time_us", "37"}}), "loop.al_time_us"));
    CHECK(config({{"loop.ber", "1e-6"}, {"loop.hop_m", "200"}, {"loop.al_time_us", "39"}}).loop.hop_m.front() == 200);
}

TEST_CASE("elaboration checks: what the workload addresses")
{
    // Fixed disks without a capacity: 2^27 blocks of 512 bytes (64 GiB) each.
    const AddressSpace plain = address_space(default_config());
    CHECK(plain.block_bytes == 512);
    CHECK(plain.disk_blocks == (1ull << 27));
    CHECK(plain.capacity_blocks == (1ull << 27));
    // RAID 5 over 4 disks with 64 KiB units (128 blocks): 2^20 rows of 3 data units.
    const AddressSpace raid5 = address_space(config({{"volume.raid", "raid5"}, {"disk.count", "4"}}));
    CHECK(raid5.unit_blocks == 128);
    CHECK(raid5.capacity_blocks == (1ull << 20) * 3 * 128);
    // DECODE's layout over 8 disks leaves an eighth of the slots free: 2^20 rows x 8 - 2^20 units.
    const AddressSpace decode = address_space(config({{"volume.raid", "raid0"}, {"disk.count", "8"}, {"volume.decode", "true"}}));
    CHECK(decode.capacity_blocks == ((1ull << 20) * 8 - (1ull << 20)) * 128);
    // The smallest fixed disk with a capacity bounds them all: 1 GB = floor(1e9 / 512) blocks.
    const AddressSpace small = address_space(config({{"disk.count", "4"}, {"disk.2.capacity_gb", "1"}}));
    CHECK(small.disk_blocks == 1953125);
    CHECK(address_space(config({{"workload.span_bytes", "1M"}})).span_blocks == 2048);
}

TEST_CASE("elaboration checks: span, disk and volume must hold the I/Os")
{
    CHECK(contains(refusal({{"workload.span_bytes", "65G"}}), "workload.span_bytes: 69793218560 exceeds the 68719476736 bytes"));
    CHECK(contains(refusal({{"workload.span_bytes", "1K"}}), "workload.span_bytes: smaller than the largest I/O (65536 bytes)"));
    CHECK(contains(refusal({{"workload.span_bytes", "64K"}, {"workload.io_size_max", "128K"}}),
                   "workload.span_bytes: smaller than the largest I/O (131072 bytes)"));
    // A fixed disk of 1e-6 GB holds 1000 / 512 = 1 block: no 64 KiB I/O fits (this was exit 5).
    CHECK(contains(refusal({{"disk.capacity_gb", "0.000001"}}), "workload.io_size: 64K is larger than the smallest disk (512 bytes)"));
    CHECK(contains(refusal({{"disk.capacity_gb", "1"}, {"disk.1.capacity_gb", "0.000001"}}), "smallest disk (512 bytes)"));
    CHECK(contains(refusal({{"disk.capacity_gb", "0.0001"}, {"workload.io_size", "4K"}, {"workload.io_size_max", "128K"}}),
                   "workload.io_size_max: 128K is larger than the smallest disk (99840 bytes)"));
    // An erasure job writes whatever capacity there is.
    CHECK(config({{"workload.type", "erase"}, {"disk.capacity_gb", "0.000001"}}).erase_disks == 16);
    // A stripe unit larger than the disk: 1e-5 GB = 19 blocks (9728 bytes) against 128 (this was exit 5).
    CHECK(contains(refusal({{"disk.capacity_gb", "0.00001"}, {"volume.raid", "raid0"}}),
                   "volume.stripe_kib: a stripe unit larger than a disk (9728 bytes)"));
    // A volume smaller than one I/O: 1e-4 GB = 195 blocks, 3 rows of 64-block units on 2 disks:
    // 3 x 2 x 64 x 512 = 196608 bytes, less than 256 KiB.
    CHECK(contains(refusal({{"disk.capacity_gb", "0.0001"}, {"volume.raid", "raid0"}, {"disk.count", "2"}, {"volume.stripe_kib", "32"},
                            {"workload.io_size", "256K"}}),
                   "workload.io_size: 256K is larger than the volume (196608 bytes)"));
}

TEST_CASE("elaboration checks: the I/O size limit named is the one that binds")
{
    // 512-byte blocks: READ(10)'s 16-bit length allows 65535 x 512 = 33553920 bytes, below the
    // 65536 x 2048 bytes of one sequence; 1G used to be told "at most 128M".
    const std::string e = refusal({{"workload.io_size", "1G"}});
    CHECK(contains(e, "at most 33553920"));
    CHECK_FALSE(contains(e, "128M"));
    // Zoned disks of 4096-byte sectors allow 65535 x 4096 bytes: then one sequence (128M) binds.
    CHECK(contains(refusal({{"disk.model", "zoned"}, {"disk.sector_bytes", "4096"}, {"workload.io_size", "1G"}}), "at most 128M"));
}
