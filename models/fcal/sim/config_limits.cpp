#include "fcal/sim/config_limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include <systemc>

#include "fcal/fcp/cdb.hpp"
#include "fcal/phy/line_rate.hpp"

namespace fcal::sim {

namespace {

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// A delay of `seconds` built from `key` (whose value is `shown`) must stay below longest_delay_s().
// Written so that an infinite product fails too.
void check_delay(const std::string& key, const std::string& shown, double seconds, const std::string& what = "")
{
    const double longest = longest_delay_s();
    if (seconds < longest) return;
    throw ConfigError(key + ": " + shown + (what.empty() ? "" : " " + what) + " gives a delay of " + number(seconds) +
                      " s, longer than the simulator can represent (at most " + number(longest) + " s)");
}

// One DMA job: its fixed part, the scheduler's overhead and at most one whole I/O at the engine's
// bandwidth (docs/hba.md, "The HBAs").
void check_dma(const std::string& side, const hba::HbaParams& hba, std::uint64_t io_size)
{
    const double job_s = hba.single_frame_transfer_s + hba.dma.sched_overhead_s + static_cast<double>(io_size) / hba.dma.bandwidth_bytes_per_s;
    check_delay(side + ".dma_mbs", number(hba.dma.bandwidth_bytes_per_s / 1e6) + " MB/s", job_s,
                "with workload.io_size = " + format_bytes(io_size));
}

// Every time-valued key as a delay of its own, those of a disk's values (`disk`) or the others.
// Their fields hold seconds (sim/fcal_parameters.cpp).
void check_times(const SimConfig& c, const disk::DiskParams* disk, const std::string& prefix, const std::vector<Parameter>& parameters)
{
    for (const Parameter& p : parameters) {
        if (!seconds_per_unit(p.unit) || p.type != ParamType::Real || (disk != nullptr) != p.field->in_disk()) continue;
        const auto value = disk ? p.field->load(*disk) : p.field->load(c);
        if (!value) continue;
        const std::string key = disk ? prefix + p.key.substr(5) : p.key;
        check_delay(key, number(std::get<double>(p.param_value(*value))) + " " + p.unit, std::get<double>(*value));
    }
}

// A disk's service: access time plus the I/O at the media rate (docs/disk.md, "The disks"). The
// longest access time drawn is 2 x the mean (uniform) or 53 ln 2 x the mean (exponential, as the
// Poisson gap below). Checked before the access time alone, which it includes.
void check_disk_service(const disk::DiskParams& d, const std::string& prefix, std::uint64_t io_size)
{
    const double access_factor = d.access_dist == disk::AccessDist::Exponential ? 53.0 * std::log(2.0)
                                 : d.access_dist == disk::AccessDist::Uniform   ? 2.0
                                                                                : 1.0;
    const std::string access_ms = number(d.access_time_s * 1e3);
    check_delay(prefix + "access_ms", access_ms + " ms", d.access_time_s * access_factor,
                "(longest draw with " + prefix + "access_dist = " + std::string(disk::to_string(d.access_dist)) + ")");
    check_delay(prefix + "rate_mbs", number(d.media_rate_bytes_per_s / 1e6) + " MB/s",
                d.access_time_s * access_factor + static_cast<double>(io_size) / d.media_rate_bytes_per_s,
                "with " + prefix + "access_ms = " + access_ms + " and workload.io_size = " + format_bytes(io_size));
}

void check_disk_delays(const SimConfig& c, const disk::DiskParams& d, const std::string& prefix, const std::vector<Parameter>& parameters)
{
    check_disk_service(d, prefix, c.workload.io_size_bytes);
    check_times(c, &d, prefix, parameters);
    // The zoned disk's revolution.
    const double revolution_s = d.zoned.geometry.revolution_s;
    if (d.model == disk::DiskModel::Zoned) check_delay(prefix + "rpm", number(60.0 / revolution_s) + " rpm", revolution_s, "(one revolution)");
}

void check_delays(const SimConfig& c, const std::vector<Parameter>& parameters)
{
    check_disk_delays(c, c.disk, "disk.", parameters);
    check_times(c, nullptr, "", parameters);
    // The run's length counts in the kernel's time unit: one shorter than it would be no time at all.
    const double resolution_s = sc_core::sc_get_time_resolution().to_seconds();
    if (c.time_limit_s < resolution_s)
        throw ConfigError("sim.time_limit_s: " + number(c.time_limit_s) + " s is shorter than the simulator's time unit (" + number(resolution_s) +
                          " s)");

    // The loop's longest propagation: once round the ring, every cable and every repeating port
    // (docs/loop.md, "Timing and round trip"). Each cable alone is rounded to a signed
    // 64-bit count of picoseconds, which this also keeps in range.
    const double word_s = phy::kBitsPerWord / c.loop.baud;  // loop.baud_gbps or the speed's baud
    const double hop_s = c.loop.hop_m.front() * c.loop.propagation_ns_per_m * 1e-9;
    const double round_trip_s = static_cast<double>(c.loop.nodes.size()) * (hop_s + c.loop.port_delay_words * word_s);
    const std::string cable = c.loop_length_m ? "loop.length_m" : "loop.hop_m";
    check_delay(cable, number(c.loop_length_m ? *c.loop_length_m : c.loop.hop_m.front()) + " m", round_trip_s,
                "at loop.propagation_ns_per_m = " + number(c.loop.propagation_ns_per_m) + " ns/m (round trip of " +
                    std::to_string(c.loop.nodes.size()) + " ports)");

    check_dma("initiator", c.initiator, c.workload.io_size_bytes);
    check_dma("target", c.target, c.workload.io_size_bytes);

    // Poisson arrivals: -mean * ln(1 - u) with 1 - u >= 2^-53 (host/split_mix64.hpp), so the longest
    // gap is 53 ln 2 = 36.7 times the mean.
    if (c.workload_type == WorkloadType::Open) {
        const double longest_gap_s = 53.0 * std::log(2.0) / c.rate_iops;
        check_delay("workload.rate_iops", number(c.rate_iops) + " IO/s", longest_gap_s,
                    "(longest inter-arrival gap, 36.7 times the mean)");
    }
}

void check_counts(const SimConfig& c)
{
    // The workload issues warm-up + measured + cool-down I/Os, the cool-down as long as the warm-up.
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    if (c.warmup_ios > (most - c.measured_ios) / 2)
        throw ConfigError("workload.warmup_ios: 2 x " + std::to_string(c.warmup_ios) + " + workload.measured_ios = " +
                          std::to_string(c.measured_ios) + " I/Os in all overflows a 64-bit count (at most " +
                          std::to_string(most) + ")");
}

std::uint64_t sequence_bytes(unsigned max_payload) { return kMaxFramesPerSequence * max_payload; }

}  // namespace

double longest_delay_s() { return std::ldexp(sc_core::sc_get_time_resolution().to_seconds(), 63); }

std::uint64_t largest_io_size(const SimConfig& c)
{
    // The initiator frames every I/O as one sequence of its own payload size (the data it sends,
    // and the whole transfer it expects); the target sends a read as one sequence and asks for a
    // write in bursts of target.burst_bytes (0 = the whole transfer). docs/fcp.md, "Exchanges".
    std::uint64_t largest = sequence_bytes(c.initiator.max_payload);
    const std::uint64_t target_sequence = sequence_bytes(c.target.max_payload);
    const bool reads = c.workload.read_fraction > 0.0, writes = c.workload.read_fraction < 1.0;
    const bool whole_write = c.target.burst_bytes == 0 || c.target.burst_bytes > target_sequence;
    if (reads || (writes && whole_write)) largest = std::min(largest, target_sequence);
    return largest;
}

void check_limits(const SimConfig& c, const std::vector<Parameter>& parameters)
{
    // AL_PA 0x00 is the FL_Port's, the loop's attachment to a fabric; the controller is an NL_Port
    // (docs/phy.md, "AL_PAs").
    if (c.initiator_port.al_pa == 0x00)
        throw ConfigError("initiator.al_pa: 0x00 is the FL_Port's AL_PA (the fabric's port on the loop); the controller needs an NL_Port's");

    // Two limits bound an I/O; the message names the one that binds, so its "at most" is the true
    // largest (1G used to be told "at most 128M" when 32M - 512 was the limit).
    const std::uint64_t largest = largest_io_size(c);
    // READ(10)/WRITE(10) carry the length in a 16-bit field (docs/fcp.md, "The CDB").
    const std::uint32_t block = lba_block_bytes(c);
    const std::uint64_t cdb_largest = std::uint64_t{fcp::kCdb10MaxBlocks} * block;
    if (c.workload.io_size_bytes > cdb_largest && cdb_largest <= largest) {
        const std::uint64_t blocks = (c.workload.io_size_bytes + block - 1) / block;
        throw ConfigError("workload.io_size: " + format_bytes(c.workload.io_size_bytes) + " is " + std::to_string(blocks) + " blocks of " +
                          std::to_string(block) + " bytes; the 16-bit TRANSFER LENGTH of READ(10)/WRITE(10) holds at most " +
                          std::to_string(fcp::kCdb10MaxBlocks) + " (at most " + format_bytes(cdb_largest) + ")");
    }
    if (c.workload.io_size_bytes > largest) {
        const bool initiator_limits = largest == sequence_bytes(c.initiator.max_payload);
        const std::string payload = initiator_limits ? "initiator.max_payload" : "target.max_payload";
        const unsigned bytes = initiator_limits ? c.initiator.max_payload : c.target.max_payload;
        throw ConfigError("workload.io_size: " + format_bytes(c.workload.io_size_bytes) + " needs more than " +
                          std::to_string(kMaxFramesPerSequence) + " frames of " + payload + " = " + std::to_string(bytes) +
                          " bytes in one FC sequence (16-bit SEQ_CNT); at most " + format_bytes(largest));
    }

    check_counts(c);
    check_delays(c, parameters);
}

void check_disk_limits(const SimConfig& c, const disk::DiskParams& d, const std::string& prefix, const std::vector<Parameter>& parameters)
{
    check_disk_delays(c, d, prefix, parameters);
}

}  // namespace fcal::sim
