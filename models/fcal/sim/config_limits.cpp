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

void check_time(const std::string& key, double value, const std::string& unit, double seconds_per_unit)
{
    check_delay(key, number(value) + " " + unit, value * seconds_per_unit);
}

void check_hba(const std::string& side, const HbaConfig& hba, std::uint64_t io_size)
{
    check_time(side + ".cmd_exec_us", hba.cmd_exec_us, "us", 1e-6);
    check_time(side + ".dma_sched_us", hba.dma_sched_us, "us", 1e-6);
    check_time(side + ".frame_proc_ns", hba.frame_proc_ns, "ns", 1e-9);
    check_time(side + ".sft_us", hba.sft_us, "us", 1e-6);
    check_time(side + ".circuit_hold_us", hba.circuit_hold_us, "us", 1e-6);
    // One DMA job: its fixed part, the scheduler's overhead and at most one whole I/O at the
    // engine's bandwidth (docs/model.md, "The HBAs").
    const double job_s = (hba.sft_us + hba.dma_sched_us) * 1e-6 + static_cast<double>(io_size) / (hba.dma_mbs * 1e6);
    check_delay(side + ".dma_mbs", number(hba.dma_mbs) + " MB/s", job_s, "with workload.io_size = " + format_bytes(io_size));
}

void check_delays(const SimConfig& c, bool loop_length_given)
{
    // The loop's longest propagation: once round the ring, every cable and every repeating port
    // (docs/model.md, "The loop: timing and round trip"). Each cable alone is rounded to a signed
    // 64-bit count of picoseconds, which this also keeps in range.
    const double word_s = phy::kBitsPerWord / (c.loop.baud_gbps * 1e9);  // loop.baud_gbps or the speed's baud
    const double hop_s = c.loop.hop_m * c.loop.propagation_ns_per_m * 1e-9;
    const double round_trip_s = c.loop.nodes * (hop_s + c.loop.port_delay_words * word_s);
    const std::string cable = loop_length_given ? "loop.length_m" : "loop.hop_m";
    const double metres = loop_length_given ? c.loop.hop_m * c.loop.nodes : c.loop.hop_m;
    check_delay(cable, number(metres) + " m",
                round_trip_s, "at loop.propagation_ns_per_m = " + number(c.loop.propagation_ns_per_m) + " ns/m (round trip of " +
                                  std::to_string(c.loop.nodes) + " ports)");

    check_hba("initiator", c.initiator, c.workload.io_size);
    check_time("initiator.xfer_rdy_us", c.initiator.xfer_rdy_us, "us", 1e-6);
    check_time("initiator.task_set_full_retry_us", c.initiator.task_set_full_retry_us, "us", 1e-6);
    check_time("initiator.exchange_timeout_ms", c.initiator.exchange_timeout_ms, "ms", 1e-3);
    check_time("initiator.abts_timeout_ms", c.initiator.abts_timeout_ms, "ms", 1e-3);
    check_time("target.data_timeout_ms", c.target.data_timeout_ms, "ms", 1e-3);
    check_hba("target", c.target, c.workload.io_size);
    check_time("target.rsp_gen_us", c.target.rsp_gen_us, "us", 1e-6);

    check_time("driver.arrival_us", c.driver.arrival_us, "us", 1e-6);
    check_time("driver.completion_us", c.driver.completion_us, "us", 1e-6);

    // A disk's service: access time plus the I/O at the media rate (docs/model.md, "The disks"). The
    // longest access time drawn is 2 x the mean (uniform) or 53 ln 2 x the mean (exponential, as the
    // Poisson gap below).
    const double access_factor = c.disk.access_dist == disk::AccessDist::Exponential ? 53.0 * std::log(2.0)
                                 : c.disk.access_dist == disk::AccessDist::Uniform   ? 2.0
                                                                                     : 1.0;
    check_delay("disk.access_ms", number(c.disk.access_ms) + " ms", c.disk.access_ms * access_factor * 1e-3,
                "(longest draw with disk.access_dist = " + std::string(disk::to_string(c.disk.access_dist)) + ")");
    check_delay("disk.rate_mbs", number(c.disk.rate_mbs) + " MB/s",
                c.disk.access_ms * access_factor * 1e-3 + static_cast<double>(c.workload.io_size) / (c.disk.rate_mbs * 1e6),
                "with disk.access_ms = " + number(c.disk.access_ms) + " and workload.io_size = " + format_bytes(c.workload.io_size));

    // The zoned disk's times: a command's overhead, the longest seeks, a sector at the inner edge.
    check_time("disk.command_overhead_us", c.disk.command_overhead_us, "us", 1e-6);
    if (c.disk.model == disk::DiskModel::Zoned)
        check_delay("disk.rpm", number(c.disk.rpm) + " rpm", 60.0 / c.disk.rpm, "(one revolution)");
    check_time("disk.seek_read_max_ms", c.disk.seek_read_max_ms, "ms", 1e-3);
    check_time("disk.seek_write_max_ms", c.disk.seek_write_max_ms, "ms", 1e-3);
    check_time("disk.sector_time_inner_ms", c.disk.sector_time_inner_ms, "ms", 1e-3);

    // Poisson arrivals: -mean * ln(1 - u) with 1 - u >= 2^-53 (host/split_mix64.hpp), so the longest
    // gap is 53 ln 2 = 36.7 times the mean.
    if (c.workload.type == WorkloadType::Open) {
        const double longest_gap_s = 53.0 * std::log(2.0) / c.workload.rate_iops;
        check_delay("workload.rate_iops", number(c.workload.rate_iops) + " IO/s", longest_gap_s,
                    "(longest inter-arrival gap, 36.7 times the mean)");
    }

    check_time("sim.time_limit_s", c.time_limit_s, "s", 1.0);
}

void check_counts(const WorkloadConfig& w)
{
    // The workload issues warm-up + measured + cool-down I/Os, the cool-down as long as the warm-up.
    constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
    if (w.warmup_ios > (most - w.measured_ios) / 2)
        throw ConfigError("workload.warmup_ios: 2 x " + std::to_string(w.warmup_ios) + " + workload.measured_ios = " +
                          std::to_string(w.measured_ios) + " I/Os in all overflows a 64-bit count (at most " +
                          std::to_string(most) + ")");
}

std::uint64_t sequence_bytes(unsigned max_payload) { return kMaxFramesPerSequence * max_payload; }

}  // namespace

double longest_delay_s() { return std::ldexp(sc_core::sc_get_time_resolution().to_seconds(), 63); }

std::uint64_t largest_io_size(const SimConfig& c)
{
    // The initiator frames every I/O as one sequence of its own payload size (the data it sends,
    // and the whole transfer it expects); the target sends a read as one sequence and asks for a
    // write in bursts of target.burst_bytes (0 = the whole transfer). docs/model.md, "FCP: exchanges".
    std::uint64_t largest = sequence_bytes(c.initiator.max_payload);
    const std::uint64_t target_sequence = sequence_bytes(c.target.max_payload);
    const bool reads = c.workload.read_fraction > 0.0, writes = c.workload.read_fraction < 1.0;
    const bool whole_write = c.target.burst_bytes == 0 || c.target.burst_bytes > target_sequence;
    if (reads || (writes && whole_write)) largest = std::min(largest, target_sequence);
    return largest;
}

void check_limits(const SimConfig& c, bool loop_length_given)
{
    // AL_PA 0x00 is the FL_Port's, the loop's attachment to a fabric; the controller is an NL_Port
    // (docs/model.md, "The physical layer: AL_PAs").
    if (c.initiator.al_pa == 0x00)
        throw ConfigError("initiator.al_pa: 0x00 is the FL_Port's AL_PA (the fabric's port on the loop); the controller needs an NL_Port's");

    // Two limits bound an I/O; the message names the one that binds, so its "at most" is the true
    // largest (1G used to be told "at most 128M" when 32M - 512 was the limit).
    const std::uint64_t largest = largest_io_size(c);
    // READ(10)/WRITE(10) carry the length in a 16-bit field (docs/model.md, "FCP: the CDB").
    const std::uint32_t block = lba_block_bytes(c);
    const std::uint64_t cdb_largest = std::uint64_t{fcp::kCdb10MaxBlocks} * block;
    if (c.workload.io_size > cdb_largest && cdb_largest <= largest) {
        const std::uint64_t blocks = (c.workload.io_size + block - 1) / block;
        throw ConfigError("workload.io_size: " + format_bytes(c.workload.io_size) + " is " + std::to_string(blocks) + " blocks of " +
                          std::to_string(block) + " bytes; the 16-bit TRANSFER LENGTH of READ(10)/WRITE(10) holds at most " +
                          std::to_string(fcp::kCdb10MaxBlocks) + " (at most " + format_bytes(cdb_largest) + ")");
    }
    if (c.workload.io_size > largest) {
        const bool initiator_limits = largest == sequence_bytes(c.initiator.max_payload);
        const std::string payload = initiator_limits ? "initiator.max_payload" : "target.max_payload";
        const unsigned bytes = initiator_limits ? c.initiator.max_payload : c.target.max_payload;
        throw ConfigError("workload.io_size: " + format_bytes(c.workload.io_size) + " needs more than " +
                          std::to_string(kMaxFramesPerSequence) + " frames of " + payload + " = " + std::to_string(bytes) +
                          " bytes in one FC sequence (16-bit SEQ_CNT); at most " + format_bytes(largest));
    }

    check_counts(c.workload);
    check_delays(c, loop_length_given);
}

}  // namespace fcal::sim
