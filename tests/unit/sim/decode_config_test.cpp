// The DECODE keys and the workload's size and span keys (docs/model.md, "DECODE", "The workloads"):
// their defaults as documented, the layout default that follows volume.decode, and the rules across
// keys, each refused naming the key.
#include <catch2/catch.hpp>

#include "config_error.hpp"
#include "fcal/sim/sim_config.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;

namespace {

SimConfig with(std::initializer_list<const char*> assignments)
{
    ParameterTable t = fcal_parameters();
    for (const char* a : assignments) t.set_assignment(a);
    return build_config(t);
}

}  // namespace

TEST_CASE("decode config: defaults, and free slots only with volume.decode unless given")
{
    const auto plain = to_json(with({"volume.raid=raid0"}));
    CHECK(plain["volume"]["decode"] == false);
    CHECK(plain["decode"] == nlohmann::json{{"area_units", 10}, {"threshold", 0.5}, {"own_write", true}, {"free_fraction", 0.0}});
    CHECK(plain["workload"]["io_size_max"] == 0);
    CHECK(plain["workload"]["span_bytes"] == 0);
    CHECK(with({"volume.raid=raid0", "volume.decode=true"}).decode.free_fraction == 0.125);
    CHECK(with({"volume.raid=raid0", "decode.free_fraction=0.25"}).decode.free_fraction == 0.25);
    CHECK(with({"volume.raid=raid0", "volume.decode=true", "decode.free_fraction=0"}).decode.free_fraction == 0.0);
    // The echo names every key and loads back.
    const SimConfig c = with({"volume.raid=raid0", "volume.decode=true", "decode.area_units=3", "workload.io_size=512",
                              "workload.io_size_max=32K", "workload.span_bytes=10M"});
    const auto j = to_json(c);
    CHECK(j["volume"]["decode"] == true);
    CHECK(j["decode"]["area_units"] == 3);
    CHECK(j["decode"]["free_fraction"] == 0.125);
    CHECK(j["workload"]["io_size_max"] == 32768);
    CHECK(j["workload"]["span_bytes"] == 10 * 1024 * 1024);
}

TEST_CASE("decode config: rules across keys name the key")
{
    CHECK(contains(error_of([] { with({"volume.decode=true"}); }), "volume.decode"));
    CHECK(contains(error_of([] { with({"volume.raid=raid5", "volume.decode=true"}); }), "volume.decode"));
    CHECK(contains(error_of([] { with({"volume.raid=raid1", "decode.free_fraction=0.125"}); }), "decode.free_fraction"));
    CHECK(contains(error_of([] { with({"workload.io_size=8K", "workload.io_size_max=4K"}); }), "workload.io_size_max"));
    CHECK(contains(error_of([] { with({"workload.io_size=1000", "workload.io_size_max=4K"}); }), "workload.io_size_max"));
    // The largest size must pass the limits the fixed size does (16-bit TRANSFER LENGTH: < 32 MiB).
    CHECK(contains(error_of([] { with({"workload.io_size=512", "workload.io_size_max=64M"}); }), "workload.io_size_max"));
}
