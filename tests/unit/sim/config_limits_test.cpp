// What the model can represent (sim/config_limits.hpp): I/O sizes against the exchanges' own check,
// I/O counts against 64-bit overflow, times against sc_time's range, AL_PA 0x00. Bounds are computed
// here from first principles (2^63 picoseconds, 65536 frames per sequence), not read from the code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "fcal/fcp/exchange.hpp"
#include "fcal/sim/config_limits.hpp"
#include "fcal/sim/sim_config.hpp"
#include "config_error.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;

namespace {

std::string text(double value)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
    return buffer;
}

// 2^63 ps: SystemC's default resolution is 1 ps and it converts a double time through int64.
const double kLongest = 9223372.036854775808;

bool accepted(const ParameterTable& t)
{
    try {
        build_config(t);
        return true;
    } catch (const ConfigError&) {
        return false;
    }
}

// Does the exchange layer itself accept an exchange of `bytes` framed with `payload` and, for a
// write at the target, bursts of `burst`?
bool exchange_accepts(fcal::fcp::DataDirection direction, std::uint32_t bytes, std::uint32_t payload, std::uint32_t burst)
{
    fcal::fcp::ExchangeSpec spec;
    spec.initiator = 0x01;
    spec.target = 0xEF;
    spec.direction = direction;
    spec.size_bytes = bytes;
    spec.max_payload_bytes = payload;
    spec.burst_bytes = burst;
    try {
        fcal::fcp::validate(spec);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

}  // namespace

TEST_CASE("config_limits: the longest delay is 2^63 picoseconds")
{
    CHECK(longest_delay_s() == kLongest);
    // Just inside, SystemC holds the time exactly enough; this is what makes the bound safe.
    const sc_core::sc_time t(kLongest * (1 - 1e-12), sc_core::SC_SEC);
    CHECK(t.to_seconds() == Approx(kLongest));
    CHECK(t + t > t);  // current time + delay, both below the bound, does not wrap
}

TEST_CASE("config_limits: workload.io_size is refused exactly where the exchanges would fail")
{
    using fcal::fcp::DataDirection;
    // Around the 65536-frame limit of every payload, for reads, writes and mixes, with and without
    // write bursts: the configuration is accepted if and only if every exchange the run can make
    // (at the initiator and at the target) is one the exchange layer accepts.
    const std::vector<std::uint32_t> payloads = {4, 512, 2048, 2112};
    const std::vector<std::uint32_t> bursts = {0, 4096, 1u << 20, 1u << 30};
    const std::vector<double> fractions = {0.0, 0.5, 1.0};
    int cases = 0, refused = 0;
    for (std::uint32_t ini : payloads)
        for (std::uint32_t tgt : payloads)
            for (std::uint32_t burst : bursts)
                for (double fraction : fractions)
                    for (std::uint32_t p : {ini, tgt})
                        for (std::int64_t delta : {-4, 0, 1, 4}) {
                            const std::int64_t size = 65536LL * p + delta;
                            if (size < 1 || size > (1LL << 30)) continue;
                            auto t = fcal_parameters();
                            t.set("initiator.max_payload", std::to_string(ini));
                            t.set("target.max_payload", std::to_string(tgt));
                            t.set("target.burst_bytes", std::to_string(burst));
                            t.set("workload.read_fraction", text(fraction));
                            t.set("workload.io_size", std::to_string(size));
                            const auto bytes = static_cast<std::uint32_t>(size);
                            bool model_ok = true;
                            for (DataDirection d : {DataDirection::Read, DataDirection::Write}) {
                                const bool occurs = d == DataDirection::Read ? fraction > 0 : fraction < 1;
                                if (!occurs) continue;
                                // The initiator's own exchange carries no burst; the target's does.
                                model_ok = model_ok && exchange_accepts(d, bytes, ini, 0) && exchange_accepts(d, bytes, tgt, burst);
                            }
                            INFO("initiator " << ini << " target " << tgt << " burst " << burst << " read fraction "
                                              << fraction << " size " << size);
                            CHECK(accepted(t) == model_ok);
                            ++cases;
                            if (!model_ok) {
                                ++refused;
                                CHECK(contains(error_of([&] { build_config(t); }), "workload.io_size: "));
                            }
                        }
    CHECK(cases > 300);
    CHECK(refused > 50);  // both sides of the limit were visited
}

TEST_CASE("config_limits: the default payloads allow 128 MiB and name the limiting payload")
{
    auto t = fcal_parameters();
    // 4096-byte sectors, so that the CDB's 16-bit block count (65535 x 4096 B) is not the limit.
    t.set("disk.model", "zoned");
    t.set("disk.sector_bytes", "4096");
    t.set("workload.io_size", "128M");
    CHECK(build_config(t).workload.io_size_bytes == 134217728);
    t.set("workload.io_size", "134217729");
    CHECK(contains(error_of([&] { build_config(t); }), "workload.io_size: 134217729 needs more than 65536 frames"));
    t.set("initiator.max_payload", "1024");
    t.set("workload.io_size", "64M");
    CHECK(accepted(t));
    t.set("workload.io_size", "67108868");
    CHECK(contains(error_of([&] { build_config(t); }), "initiator.max_payload = 1024"));
}

TEST_CASE("config_limits: I/O counts whose total overflows 64 bits are refused")
{
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    for (std::uint64_t measured : {std::uint64_t{3}, std::uint64_t{2000}, (most >> 1)}) {
        // The largest warm-up that fits: 2 w + m <= 2^64 - 1.
        const std::uint64_t fits = (most - measured) / 2;
        auto t = fcal_parameters();
        t.set("workload.measured_ios", std::to_string(measured));
        if (fits <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            t.set("workload.warmup_ios", std::to_string(fits));
            CHECK(build_config(t).warmup_ios == fits);
        }
        const std::uint64_t over = fits + 1;
        if (over <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            t.set("workload.warmup_ios", std::to_string(over));
            CHECK(contains(error_of([&] { build_config(t); }), "workload.warmup_ios: "));
        }
    }
    // The example: 2 (2^63 - 1) + 3 wraps to 1.
    auto t = fcal_parameters();
    t.set("workload.warmup_ios", "9223372036854775807");
    t.set("workload.measured_ios", "3");
    CHECK(contains(error_of([&] { build_config(t); }), "workload.warmup_ios: "));
}

TEST_CASE("config_limits: every time-valued key is bounded by sc_time's range")
{
    // Every key whose unit is a time, as its declaration says (issue 20: the limit is derived from
    // the declaration, so a new time key is bounded without a line here), at least these.
    const std::vector<std::string> at_least = {
        "initiator.cmd_exec_us", "initiator.xfer_rdy_us", "initiator.dma_sched_us", "initiator.frame_proc_ns",
        "initiator.sft_us",      "target.cmd_exec_us",    "target.rsp_gen_us",      "target.dma_sched_us",
        "target.frame_proc_ns",  "target.sft_us",         "driver.arrival_us",      "driver.completion_us",
        "disk.access_ms",        "sim.time_limit_s",      "disk.seek_read_min_ms",  "disk.sector_time_outer_ms"};
    const std::vector<std::pair<std::string, double>> units = {{"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    std::vector<std::string> checked;
    const auto table = fcal_parameters();
    for (const auto& p : table.parameters()) {
        double seconds_per_unit = 0;
        for (const auto& [unit, seconds] : units)
            if (p.unit == unit) seconds_per_unit = seconds;
        // Keys whose own range stops far short of the limit (loop.al_time_us) cannot reach it.
        if (seconds_per_unit == 0 || p.real_max < kLongest / seconds_per_unit) continue;
        // An event's time is bounded by sim.time_limit_s (ScheduledEvents).
        if (p.per_event) continue;
        // A per-disk key is checked for disk.<name> and for an override disk.<i>.<name>.
        std::vector<std::string> keys = {p.key};
        if (p.per_disk) keys.push_back("disk.1." + p.key.substr(5));
        for (const auto& key : keys) {
            INFO(key);
            auto t = fcal_parameters();
            t.set("disk.count", "2");
            t.set(key, text(0.999 * kLongest / seconds_per_unit));
            CHECK(accepted(t));
            t.set(key, text(1.001 * kLongest / seconds_per_unit));
            CHECK(contains(error_of([&] { build_config(t); }), key + ": "));
            t.set(key, "1e300");
            CHECK(contains(error_of([&] { build_config(t); }), key + ": "));
        }
        checked.push_back(p.key);
    }
    for (const auto& key : at_least) {
        INFO(key);
        CHECK(std::find(checked.begin(), checked.end(), key) != checked.end());
    }
}

TEST_CASE("config_limits: products and reciprocals are bounded too")
{
    // The round trip: 17 ports, each cable hop_m x 5 ns/m plus 6 words of 2GFC (40 bits / 2.125 GBd).
    const double repeat_s = 6 * 40 / 2.125e9;
    const double hop_at_limit = (kLongest / 17 - repeat_s) / 5e-9;
    auto t = fcal_parameters();
    t.set("loop.hop_m", text(0.999 * hop_at_limit));
    CHECK(accepted(t));
    t.set("loop.hop_m", text(1.001 * hop_at_limit));
    CHECK(contains(error_of([&] { build_config(t); }), "loop.hop_m: "));
    t.set("loop.hop_m", "1e20");  // the example
    CHECK(contains(error_of([&] { build_config(t); }), "loop.hop_m: "));
    // Given as the whole ring's length, the error names that key.
    auto l = fcal_parameters();
    l.set("loop.length_m", "1e20");
    CHECK(contains(error_of([&] { build_config(l); }), "loop.length_m: "));
    // A slow cable: the product overflows though the length is small.
    auto p = fcal_parameters();
    p.set("loop.propagation_ns_per_m", "1e300");
    CHECK(contains(error_of([&] { build_config(p); }), "loop.hop_m: "));

    // Media and DMA rates: 64 KiB at the rate, plus the access time or the fixed overheads.
    const double io = 65536;
    auto d = fcal_parameters();
    d.set("disk.rate_mbs", text(1.001 * io / (kLongest - 2e-3) / 1e6));
    CHECK(accepted(d));
    d.set("disk.rate_mbs", text(0.999 * io / (kLongest - 2e-3) / 1e6));
    CHECK(contains(error_of([&] { build_config(d); }), "disk.rate_mbs: "));
    for (const std::string side : {"initiator", "target"}) {
        auto h = fcal_parameters();
        h.set(side + ".dma_mbs", "1e-300");
        CHECK(contains(error_of([&] { build_config(h); }), side + ".dma_mbs: "));
        h.set(side + ".dma_mbs", "1e-6");  // 64 KiB at 1 byte/s: 18 hours, representable
        CHECK(accepted(h));
    }

    // Poisson arrivals: the longest gap is 53 ln 2 times the mean 1 / rate.
    const double rate_at_limit = 53 * std::log(2.0) / kLongest;
    auto o = fcal_parameters();
    o.set("workload.type", "open");
    o.set("workload.rate_iops", text(1.001 * rate_at_limit));
    CHECK(accepted(o));
    o.set("workload.rate_iops", text(0.999 * rate_at_limit));
    CHECK(contains(error_of([&] { build_config(o); }), "workload.rate_iops: "));
    o.set("workload.rate_iops", "1e-300");
    CHECK(contains(error_of([&] { build_config(o); }), "workload.rate_iops: "));
    // A closed workload ignores the rate.
    o.set("workload.type", "closed");
    CHECK(accepted(o));
}

TEST_CASE("config_limits: the controller cannot take the FL_Port's AL_PA 0x00")
{
    auto t = fcal_parameters();
    t.set("initiator.al_pa", "0x00");
    CHECK(contains(error_of([&] { build_config(t); }), "initiator.al_pa: 0x00"));
    t.set("initiator.al_pa", "0x02");
    CHECK(build_config(t).initiator_port.al_pa == 0x02);
}

TEST_CASE("config_limits: workload.io_size must fit the 16-bit block count of READ(10)/WRITE(10)")
{
    auto t = fcal_parameters();
    // 512-byte blocks: 65535 x 512 = 33553920 bytes is the largest I/O, one byte more is 65536 blocks.
    t.set("workload.io_size", "33553920");
    CHECK(accepted(t));
    t.set("workload.io_size", "33553921");
    const std::string e = error_of([&] { build_config(t); });
    CHECK(contains(e, "workload.io_size: "));
    CHECK(contains(e, "65536 blocks of 512 bytes"));
    t.set("workload.io_size", "32M");
    CHECK_FALSE(accepted(t));
    // Zoned disks count in their own sectors: 2048-byte sectors allow 65535 x 2048.
    t.set("disk.model", "zoned");
    t.set("disk.sector_bytes", "2048");
    t.set("workload.io_size", std::to_string(65535ull * 2048));
    CHECK(accepted(t));
    t.set("workload.io_size", std::to_string(65535ull * 2048 + 1));
    CHECK(contains(error_of([&] { build_config(t); }), "65536 blocks of 2048 bytes"));
}
