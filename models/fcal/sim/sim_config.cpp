#include "fcal/sim/sim_config.hpp"

#include "fcal/sim/config_limits.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "fcal/controller/decode_map.hpp"
#include "fcal/cosim/command_first_rtl.hpp"
#include "fcal/phy/link_timing.hpp"

namespace fcal::sim {

std::string to_string(WorkloadType type)
{
    switch (type) {
    case WorkloadType::Closed: return "closed";
    case WorkloadType::Open: return "open";
    case WorkloadType::Erase: return "erase";
    }
    throw std::logic_error("unknown workload type");
}

std::string to_string(CmdfImpl impl) { return impl == CmdfImpl::Rtl ? "rtl" : "model"; }

std::string to_string(Schedule schedule)
{
    switch (schedule) {
    case Schedule::Normal: return "normal";
    case Schedule::Cmdf: return "cmdf";
    }
    throw std::logic_error("unknown schedule");
}

std::string to_string(Transport transport) { return transport == Transport::Ideal ? "ideal" : "loop"; }
std::string to_string(host::LbaPattern pattern) { return pattern == host::LbaPattern::Sequential ? "sequential" : "random"; }

namespace {

// The table's limits already keep every integer within unsigned range.
unsigned get_unsigned(const ParameterTable& t, const std::string& key) { return static_cast<unsigned>(t.get_int(key)); }

void read_hba(const ParameterTable& t, const std::string& side, HbaConfig& hba)
{
    hba.fair = t.get_bool(side + ".fair");
    hba.incoming_buffers = get_unsigned(t, side + ".incoming_buffers");
    hba.login_bb_credit = get_unsigned(t, side + ".login_bb_credit");
    hba.full_duplex = t.get_bool(side + ".full_duplex");
    hba.circuit_hold_us = t.get_real(side + ".circuit_hold_us");
    hba.max_payload = static_cast<unsigned>(t.get_bytes(side + ".max_payload"));
    hba.cmd_exec_us = t.get_real(side + ".cmd_exec_us");
    hba.dma_mbs = t.get_real(side + ".dma_mbs");
    hba.dma_sched_us = t.get_real(side + ".dma_sched_us");
    hba.frame_proc_ns = t.get_real(side + ".frame_proc_ns");
    hba.sft_us = t.get_real(side + ".sft_us");
    // Login_BB_Credit promises buffers at OPEN; a port cannot promise more than it has.
    if (hba.login_bb_credit > hba.incoming_buffers)
        throw ConfigError(side + ".login_bb_credit: " + std::to_string(hba.login_bb_credit) + " exceeds " + side +
                          ".incoming_buffers = " + std::to_string(hba.incoming_buffers));
}

void write_hba(const HbaConfig& hba, nlohmann::json& j)
{
    j["fair"] = hba.fair;
    j["incoming_buffers"] = hba.incoming_buffers;
    j["login_bb_credit"] = hba.login_bb_credit;
    j["full_duplex"] = hba.full_duplex;
    j["circuit_hold_us"] = hba.circuit_hold_us;
    j["max_payload"] = hba.max_payload;
    j["cmd_exec_us"] = hba.cmd_exec_us;
    j["dma_mbs"] = hba.dma_mbs;
    j["dma_sched_us"] = hba.dma_sched_us;
    j["frame_proc_ns"] = hba.frame_proc_ns;
    j["sft_us"] = hba.sft_us;
}

void read_disk_models(const ParameterTable& t, DiskConfig& d);

// Every per-disk value of a disk (the count excepted).
void read_disk(const ParameterTable& t, DiskConfig& d)
{
    d.access_ms = t.get_real("disk.access_ms");
    d.rate_mbs = t.get_real("disk.rate_mbs");
    d.queue_slots = get_unsigned(t, "disk.queue_slots");
    d.capacity_gb = t.get_real("disk.capacity_gb");
    read_disk_models(t, d);
}

// A configuration error found for disk i's overrides names disk.<i>.<name> rather than disk.<name>.
[[noreturn]] void rethrow_for_disk(const ConfigError& e, unsigned index)
{
    std::string text = e.what(), out;
    const std::string from = "disk.", to = "disk." + std::to_string(index) + ".";
    for (std::size_t i = 0; i < text.size();) {
        if (text.compare(i, from.size(), from) == 0 && i + from.size() < text.size() && text[i + from.size()] >= 'a' &&
            text[i + from.size()] <= 'z' && text.compare(i + from.size(), 6, "count ") != 0) {
            out += to;
            i += from.size();
        } else {
            out += text[i++];
        }
    }
    throw ConfigError(out);
}

void read_disk_models(const ParameterTable& t, DiskConfig& d)
{
    d.model = t.get_string("disk.model") == "zoned" ? disk::DiskModel::Zoned : disk::DiskModel::Fixed;
    const std::string dist = t.get_string("disk.access_dist");
    d.access_dist = dist == "uniform" ? disk::AccessDist::Uniform
                    : dist == "exponential" ? disk::AccessDist::Exponential
                                            : disk::AccessDist::Constant;
    d.rpm = t.get_real("disk.rpm");
    d.cylinders = get_unsigned(t, "disk.cylinders");
    d.heads = get_unsigned(t, "disk.heads");
    d.sector_bytes = static_cast<std::uint32_t>(t.get_bytes("disk.sector_bytes"));
    d.sector_time_inner_ms = t.get_real("disk.sector_time_inner_ms");
    d.sector_time_outer_ms = t.get_real("disk.sector_time_outer_ms");
    d.seek_read_min_ms = t.get_real("disk.seek_read_min_ms");
    d.seek_read_max_ms = t.get_real("disk.seek_read_max_ms");
    d.seek_write_min_ms = t.get_real("disk.seek_write_min_ms");
    d.seek_write_max_ms = t.get_real("disk.seek_write_max_ms");
    d.positioning = t.get_string("disk.positioning") == "stochastic" ? disk::PositioningMode::Stochastic
                                                                      : disk::PositioningMode::Physical;
    d.scheduler = t.get_string("disk.scheduler") == "sptf" ? disk::Scheduler::Sptf : disk::Scheduler::Fcfs;
    d.write_cache = t.get_bool("disk.write_cache");
    d.buffer_kib = get_unsigned(t, "disk.buffer_kib");
    d.buffer_full_ratio = t.get_real("disk.buffer_full_ratio");
    d.command_overhead_us = t.get_real("disk.command_overhead_us");
    if (d.scheduler == disk::Scheduler::Sptf &&
        (d.model != disk::DiskModel::Zoned || d.positioning != disk::PositioningMode::Physical))
        throw ConfigError("disk.scheduler: sptf needs disk.model=zoned and disk.positioning=physical");
    if (d.model != disk::DiskModel::Zoned) return;
    if (d.sector_time_inner_ms < d.sector_time_outer_ms)
        throw ConfigError("disk.sector_time_inner_ms: must be >= disk.sector_time_outer_ms (inner tracks hold fewer sectors)");
    if (d.sector_time_inner_ms > 60000.0 / d.rpm)
        throw ConfigError("disk.sector_time_inner_ms: longer than one revolution (60000 / disk.rpm ms)");
    if (d.seek_read_min_ms > d.seek_read_max_ms)
        throw ConfigError("disk.seek_read_min_ms: exceeds disk.seek_read_max_ms");
    if (d.seek_write_min_ms > d.seek_write_max_ms)
        throw ConfigError("disk.seek_write_min_ms: exceeds disk.seek_write_max_ms");
}

}  // namespace

disk::DiskParams disk_params(const SimConfig& c, unsigned index)
{
    const DiskConfig& d = index < c.disks.size() ? c.disks[index] : c.disk;
    disk::DiskParams p;
    p.model = d.model;
    p.queue_slots = d.queue_slots;
    // One stream per disk, fixed by the workload's seed and the disk's index.
    p.seed = (c.workload.seed + 1) * 0x9E3779B97F4A7C15ULL ^ (index + 1ULL) * 0xBF58476D1CE4E5B9ULL;
    p.access_time_s = d.access_ms * 1e-3;
    p.access_dist = d.access_dist;
    p.media_rate_bytes_per_s = d.rate_mbs * 1e6;
    p.capacity_sectors = d.model == disk::DiskModel::Fixed ? static_cast<std::uint64_t>(d.capacity_gb * 1e9 / disk::kFixedSectorBytes) : 0;
    p.zoned.geometry.cylinders = d.cylinders;
    p.zoned.geometry.heads = d.heads;
    p.zoned.geometry.sector_bytes = d.sector_bytes;
    p.zoned.geometry.revolution_s = 60.0 / d.rpm;
    p.zoned.geometry.sector_time_inner_s = d.sector_time_inner_ms * 1e-3;
    p.zoned.geometry.sector_time_outer_s = d.sector_time_outer_ms * 1e-3;
    p.zoned.seek_read_min_s = d.seek_read_min_ms * 1e-3;
    p.zoned.seek_read_max_s = d.seek_read_max_ms * 1e-3;
    p.zoned.seek_write_min_s = d.seek_write_min_ms * 1e-3;
    p.zoned.seek_write_max_s = d.seek_write_max_ms * 1e-3;
    p.zoned.positioning = d.positioning;
    p.zoned.command_overhead_s = d.command_overhead_us * 1e-6;
    p.scheduler = d.scheduler;
    p.write_cache = d.write_cache;
    p.buffer_bytes = static_cast<std::uint64_t>(d.buffer_kib) * 1024;
    p.buffer_full_ratio = d.buffer_full_ratio;
    return p;
}

namespace {

// The zoned disks' geometry, its own checks reported against the keys that set it.
disk::ZoneGeometry zone_geometry_of(const SimConfig& c)
{
    try {
        return disk::ZoneGeometry(disk_params(c, 0).zoned.geometry);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(std::string("disk.cylinders, disk.heads, disk.rpm, disk.sector_time_*_ms: ") + e.what());
    }
}

}  // namespace

namespace {
void read_erase(const ParameterTable& t, SimConfig& c);
void check_disk(const SimConfig& c, bool length_given);
void check_elaboration(const SimConfig& c);
}  // namespace

SimConfig build_config(const ParameterTable& t)
{
    SimConfig c;

    // The schedule presets the three Command-First levels; keys given explicitly override it.
    c.schedule = t.get_string("schedule") == "cmdf" ? Schedule::Cmdf : Schedule::Normal;
    const bool cmdf = c.schedule == Schedule::Cmdf;
    const std::string fifo = t.has_value("cmdf.fifo") ? t.get_string("cmdf.fifo") : (cmdf ? "command_queue" : "off");
    c.cmdf.fifo = fifo == "reorder"         ? hba::CommandFifo::Reorder
                  : fifo == "command_queue" ? hba::CommandFifo::CommandQueue
                                            : hba::CommandFifo::Off;
    c.cmdf.arbitration = t.has_value("cmdf.arbitration") ? t.get_bool("cmdf.arbitration") : cmdf;
    c.cmdf.preempt = t.has_value("cmdf.preempt") ? t.get_bool("cmdf.preempt") : cmdf;
    c.cmdf.impl = t.get_string("cmdf.impl") == "rtl" ? CmdfImpl::Rtl : CmdfImpl::Model;
    c.rtl.clock_mhz = t.get_real("rtl.clock_mhz");
    c.rtl.lockstep = t.get_bool("rtl.lockstep");
    if (c.rtl.lockstep && c.cmdf.impl != CmdfImpl::Rtl) throw ConfigError("rtl.lockstep: needs cmdf.impl=rtl");

    c.disk.count = get_unsigned(t, "disk.count");
    read_disk(t, c.disk);
    c.disks.assign(c.disk.count, c.disk);
    for (unsigned i : t.override_disks()) {
        if (i >= c.disk.count)
            throw ConfigError(t.first_override_key(i) + ": disk " + std::to_string(i) + " does not exist (disk.count = " +
                              std::to_string(c.disk.count) + ", disks 0.." + std::to_string(c.disk.count - 1) + ")");
        try {
            read_disk(t.for_disk(i), c.disks[i]);
        } catch (const ConfigError& e) {
            rethrow_for_disk(e, i);
        }
    }

    c.loop.rate = phy::parse_line_rate(t.get_string("loop.speed"));
    c.loop.baud_gbps = t.has_value("loop.baud_gbps") ? t.get_real("loop.baud_gbps") : phy::baud(c.loop.rate) / 1e9;
    const unsigned needed = c.disk.count + 1;
    c.loop.nodes = t.has_value("loop.nodes") ? get_unsigned(t, "loop.nodes") : needed;
    if (c.loop.nodes < needed)
        throw ConfigError("loop.nodes: " + std::to_string(c.loop.nodes) + " is fewer than disk.count + 1 = " +
                          std::to_string(needed));
    // A loop of n ports is a ring of n cables.
    c.loop.hop_m = t.has_value("loop.length_m") ? t.get_real("loop.length_m") / c.loop.nodes : t.get_real("loop.hop_m");
    c.loop.port_delay_words = get_unsigned(t, "loop.port_delay_words");
    c.loop.propagation_ns_per_m = t.get_real("loop.propagation_ns_per_m");
    c.loop.ber = t.get_real("loop.ber");
    c.loop.al_time_us = t.get_real("loop.al_time_us");

    read_hba(t, "initiator", c.initiator);
    c.initiator.al_pa = t.get_al_pa("initiator.al_pa");
    c.initiator.xfer_rdy_us = t.get_real("initiator.xfer_rdy_us");
    c.initiator.dma_policy =
        t.get_string("initiator.dma_policy") == "round_robin" ? hba::DmaPolicy::RoundRobin : hba::DmaPolicy::Fcfs;
    c.initiator.max_outstanding = get_unsigned(t, "initiator.max_outstanding");
    c.initiator.task_set_full_retry_us = t.get_real("initiator.task_set_full_retry_us");
    c.initiator.exchange_timeout_ms = t.get_real("initiator.exchange_timeout_ms");
    c.initiator.abts_timeout_ms = t.get_real("initiator.abts_timeout_ms");
    c.initiator.tx_fifo_frames = get_unsigned(t, "initiator.tx_fifo_frames");
    c.initiator.cmd_fifo_frames = get_unsigned(t, "initiator.cmd_fifo_frames");

    read_hba(t, "target", c.target);
    c.target.rsp_gen_us = t.get_real("target.rsp_gen_us");
    c.target.burst_bytes = t.get_bytes("target.burst_bytes");
    c.target.data_timeout_ms = t.get_real("target.data_timeout_ms");

    c.driver.arrival_us = t.get_real("driver.arrival_us");
    c.driver.completion_us = t.get_real("driver.completion_us");
    c.driver.retries = get_unsigned(t, "driver.retries");

    const std::string type = t.get_string("workload.type");
    c.workload.type = type == "open" ? WorkloadType::Open : type == "erase" ? WorkloadType::Erase : WorkloadType::Closed;
    c.workload.queue_depth = get_unsigned(t, "workload.queue_depth");
    c.workload.io_size = t.get_bytes("workload.io_size");
    c.workload.read_fraction = t.get_real("workload.read_fraction");
    c.workload.rate_iops = t.get_real("workload.rate_iops");
    c.workload.io_size_max = t.get_bytes("workload.io_size_max");
    c.workload.span_bytes = t.get_bytes("workload.span_bytes");
    if (c.workload.io_size_max != 0) {
        if (c.workload.io_size_max < c.workload.io_size) throw ConfigError("workload.io_size_max: smaller than workload.io_size");
        // Sizes are drawn in whole LBA blocks.
        const std::uint32_t block = lba_block_bytes(c);
        if (c.workload.io_size % block != 0 || c.workload.io_size_max % block != 0)
            throw ConfigError("workload.io_size_max: with it, workload.io_size and workload.io_size_max must be multiples of " +
                              std::to_string(block) + " bytes");
    }
    if (c.workload.type == WorkloadType::Open && !(c.workload.rate_iops > 0.0))
        throw ConfigError("workload.rate_iops: must be > 0 when workload.type is open");
    c.workload.measured_ios = static_cast<std::uint64_t>(t.get_int("workload.measured_ios"));
    c.workload.warmup_ios = t.has_value("workload.warmup_ios")
                                ? static_cast<std::uint64_t>(t.get_int("workload.warmup_ios"))
                                : 10ull * c.workload.queue_depth * c.disk.count;
    c.workload.seed = static_cast<std::uint64_t>(t.get_int("workload.seed"));

    c.workload.lba = t.get_string("workload.lba") == "sequential" ? host::LbaPattern::Sequential : host::LbaPattern::Random;
    const std::string raid = t.get_string("volume.raid");
    c.volume.raid = raid == "raid0"   ? controller::RaidLevel::Raid0
                    : raid == "raid1" ? controller::RaidLevel::Raid1
                    : raid == "raid5" ? controller::RaidLevel::Raid5
                                      : controller::RaidLevel::None;
    c.volume.stripe_kib = static_cast<std::uint64_t>(t.get_int("volume.stripe_kib"));
    c.volume.split_merge = t.get_string("volume.split_merge") == "strict" ? controller::SplitMerge::Strict
                                                                          : controller::SplitMerge::ForkJoin;
    c.volume.decode = t.get_bool("volume.decode");
    c.decode.area_units = get_unsigned(t, "decode.area_units");
    c.decode.threshold = t.get_real("decode.threshold");
    c.decode.own_write = t.get_bool("decode.own_write");
    c.decode.free_fraction = t.has_value("decode.free_fraction") ? t.get_real("decode.free_fraction") : c.volume.decode ? 0.125 : 0.0;
    if (c.volume.decode && c.volume.raid != controller::RaidLevel::Raid0)
        throw ConfigError("volume.decode: needs volume.raid=raid0, got " + controller::to_string(c.volume.raid));
    if (c.decode.free_fraction > 0 && c.volume.raid != controller::RaidLevel::Raid0)
        throw ConfigError("decode.free_fraction: the DECODE layout needs volume.raid=raid0, got " + controller::to_string(c.volume.raid));
    c.transport = t.get_string("transport") == "ideal" ? Transport::Ideal : Transport::Loop;
    if (c.transport == Transport::Ideal && c.cmdf.impl == CmdfImpl::Rtl)
        throw ConfigError("cmdf.impl: rtl puts the RTL in the controller's HBA, which transport=ideal leaves out");
    if (c.volume.raid != controller::RaidLevel::None) {
        const unsigned n = c.disk.count;
        if (c.volume.raid == controller::RaidLevel::Raid0 && n < 2)
            throw ConfigError("volume.raid: raid0 needs disk.count >= 2, got " + std::to_string(n));
        if (c.volume.raid == controller::RaidLevel::Raid1 && n % 2 != 0)
            throw ConfigError("volume.raid: raid1 needs an even disk.count (mirrored pairs), got " + std::to_string(n));
        if (c.volume.raid == controller::RaidLevel::Raid5 && n < 3)
            throw ConfigError("volume.raid: raid5 needs disk.count >= 3, got " + std::to_string(n));
        if (c.workload.io_size % kVolumeBlockBytes != 0)
            throw ConfigError("workload.io_size: with a RAID volume it must be a multiple of " + std::to_string(kVolumeBlockBytes) +
                              " bytes, got " + std::to_string(c.workload.io_size));
        if (c.workload.io_size_max % kVolumeBlockBytes != 0)
            throw ConfigError("workload.io_size_max: with a RAID volume it must be a multiple of " + std::to_string(kVolumeBlockBytes) +
                              " bytes, got " + std::to_string(c.workload.io_size_max));
        if (c.volume.stripe_kib * 1024 > host::kDiskCapacityBlocks * kVolumeBlockBytes)
            throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk");
    }

    c.time_limit_s = t.get_real("sim.time_limit_s");
    read_erase(t, c);

    // disk.* as given, then each disk with overrides: its own values meet the same rules, reported
    // against its keys (disk.<i>.<name>).
    SimConfig base = c;
    base.disks.clear();
    check_disk(base, t.has_value("loop.length_m"));
    for (unsigned i : t.override_disks()) {
        SimConfig one = c;
        one.disk = c.disks[i];
        one.disks.clear();
        try {
            check_disk(one, t.has_value("loop.length_m"));
        } catch (const ConfigError& e) {
            rethrow_for_disk(e, i);
        }
    }
    check_elaboration(c);
    return c;
}

namespace {

void read_erase(const ParameterTable& t, SimConfig& c)
{
    EraseConfig& e = c.erase;
    e.command = t.get_string("erase.command") == "write" ? host::EraseCommand::Write : host::EraseCommand::WriteSame;
    const std::string strategy = t.get_string("erase.strategy");
    e.strategy = strategy == "sequential"    ? host::EraseStrategy::Sequential
                 : strategy == "round_robin" ? host::EraseStrategy::RoundRobin
                                             : host::EraseStrategy::Parallel;
    e.disks = t.has_value("erase.disks") ? get_unsigned(t, "erase.disks") : c.disk.count;
    e.tl_by_disk_count = t.get_string("erase.tl_policy") == "by_disk_count";
    e.transfer_blocks = get_unsigned(t, "erase.transfer_blocks");
    if (e.tl_by_disk_count) {
        // 4096 / N rounded down to a power of two: 14 -> 256, 8 -> 512, 4 -> 1024, 2 -> 2048.
        e.transfer_blocks = 1;
        while (e.transfer_blocks * 2 <= 4096 / e.disks) e.transfer_blocks *= 2;
    }
    e.same_blocks = get_unsigned(t, "erase.same_blocks");
    if (c.workload.type != WorkloadType::Erase) return;
    if (e.disks > c.disk.count)
        throw ConfigError("erase.disks: " + std::to_string(e.disks) + " exceeds disk.count = " + std::to_string(c.disk.count));
    if (c.transport != Transport::Loop) throw ConfigError("workload.type: erase needs transport=loop (WRITE SAME is an FCP command)");
    if (c.volume.raid != controller::RaidLevel::None)
        throw ConfigError("workload.type: erase writes the disks themselves; it needs volume.raid=none");
    for (unsigned i = 0; i < e.disks; ++i)
        if (c.disks[i].model == disk::DiskModel::Fixed && c.disks[i].capacity_gb * 1e9 < disk::kFixedSectorBytes)
            throw ConfigError((t.has_override(i, "disk.capacity_gb") ? "disk." + std::to_string(i) + ".capacity_gb"
                               : t.override_disks().empty()     ? std::string("disk.capacity_gb")
                                                                : "disk.capacity_gb (disk " + std::to_string(i) + ")") +
                              ": erasing a fixed disk needs its capacity (at least one 512-byte block)");
    // A WRITE's data go as one sequence of initiator.max_payload frames; SEQ_CNT is 16 bits.
    const std::uint64_t write_bytes = static_cast<std::uint64_t>(e.transfer_blocks) * lba_block_bytes(c);
    if (e.command == host::EraseCommand::Write && write_bytes > 65536ull * c.initiator.max_payload)
        throw ConfigError("erase.transfer_blocks: " + std::to_string(e.transfer_blocks) + " blocks need more than 65536 frames of initiator.max_payload");
}

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// The rules the models' constructors would otherwise be the first to see, so that no run is refused
// once elaboration has begun and its outputs exist (docs/model.md, "Configuration limits").
void check_elaboration(const SimConfig& c)
{
    // The RTL's depths are fixed when it is Verilated.
    if (c.cmdf.impl == CmdfImpl::Rtl && c.initiator.tx_fifo_frames != cosim::kRtlFrameDepth)
        throw ConfigError("initiator.tx_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlFrameDepth) +
                          ", the depth the RTL was built with (CMake option FCAL_RTL_DEPTH)");
    if (c.cmdf.impl == CmdfImpl::Rtl && c.initiator.cmd_fifo_frames != cosim::kRtlCommandDepth)
        throw ConfigError("initiator.cmd_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlCommandDepth) +
                          ", the depth the RTL was built with (CMake option FCAL_RTL_CMD_DEPTH)");

    // FC-AL's AL_TIME is twice the worst round trip: a shorter one would time out circuits that
    // merely wait for a word to come round. The loop checks the same with the same arithmetic
    // (loop/loop.cpp): every hop's cable and repeat delay in whole picoseconds.
    if (c.transport == Transport::Loop && c.loop.ber > 0.0) {
        const phy::LinkTiming timing(c.loop.rate, c.loop.propagation_ns_per_m, c.loop.baud_gbps * 1e9);
        sc_core::sc_time round_trip = sc_core::SC_ZERO_TIME;
        for (unsigned i = 0; i < c.loop.nodes; ++i) round_trip += timing.cable(c.loop.hop_m) + timing.words(c.loop.port_delay_words);
        if (sc_core::sc_time(c.loop.al_time_us * 1e-6, sc_core::SC_SEC) <= 2 * round_trip)
            throw ConfigError("loop.al_time_us: " + number(c.loop.al_time_us) + " us is not above twice the loop's round trip (" +
                              number(2 * round_trip.to_seconds() * 1e6) + " us); with loop.ber above 0 it must be");
    }

    // What the workload addresses: the stripe unit on a disk, the span on the disk or volume, one
    // I/O in both (host::validate, controller::validate).
    const AddressSpace a = address_space(c);
    if (c.volume.raid != controller::RaidLevel::None && a.unit_blocks > a.disk_blocks)
        throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk (" + std::to_string(a.disk_blocks * a.block_bytes) +
                          " bytes)");
    if (a.span_blocks > a.capacity_blocks)
        throw ConfigError("workload.span_bytes: " + std::to_string(c.workload.span_bytes) + " exceeds the " +
                          std::to_string(a.capacity_blocks * a.block_bytes) + " bytes of the disk or volume");
    const std::uint64_t largest = std::max(c.workload.io_size, c.workload.io_size_max);
    if (c.workload.span_bytes != 0 && a.span_blocks * a.block_bytes < largest)
        throw ConfigError("workload.span_bytes: smaller than the largest I/O (" + std::to_string(largest) + " bytes)");
    // An erasure job writes whole disks, whatever their size (read_erase checks them).
    if (c.workload.type != WorkloadType::Erase && a.capacity_blocks * a.block_bytes < largest)
        throw ConfigError(std::string(largest > c.workload.io_size ? "workload.io_size_max" : "workload.io_size") + ": " +
                          format_bytes(largest) + " is larger than the " +
                          (c.volume.raid != controller::RaidLevel::None ? "volume" : "smallest disk") + " (" +
                          std::to_string(a.capacity_blocks * a.block_bytes) + " bytes)");
}

// What disk c.disk must satisfy (the zoned geometry and the model's limits).
void check_disk(const SimConfig& c, bool length_given)
{
    if (c.disk.model == disk::DiskModel::Zoned) {
        // A read streams through the buffer a media step (4 KiB) at a time and the HBA takes whole
        // frames, so the buffer must hold a step beside a frame's worth left behind.
        if (static_cast<std::uint64_t>(c.disk.buffer_kib) * 1024 < 4096 + 2ull * c.target.max_payload)
            throw ConfigError("disk.buffer_kib: must hold 4 KiB + 2 x target.max_payload");
        const disk::ZoneGeometry geometry = zone_geometry_of(c);
        const std::uint64_t io_sectors = (c.workload.io_size + c.disk.sector_bytes - 1) / c.disk.sector_bytes;
        if (geometry.capacity_sectors() < io_sectors)
            throw ConfigError("workload.io_size: larger than the zoned disk's capacity (" +
                              std::to_string(geometry.capacity_bytes()) + " bytes)");
        // READ(10) and WRITE(10) carry a 32-bit LBA (docs/model.md, "FCP: the CDB").
        if (geometry.capacity_sectors() > (1ull << 32))
            throw ConfigError("disk.cylinders: the zoned disk has " + std::to_string(geometry.capacity_sectors()) +
                              " sectors; READ(10)/WRITE(10) address at most 2^32");
        if (c.volume.raid != controller::RaidLevel::None) {
            // The volume addresses its members in 512-byte blocks.
            if (c.disk.sector_bytes != kVolumeBlockBytes)
                throw ConfigError("disk.sector_bytes: a RAID volume of zoned disks needs " + std::to_string(kVolumeBlockBytes) +
                                  "-byte sectors, got " + std::to_string(c.disk.sector_bytes));
            if (c.volume.stripe_kib * 1024ull > geometry.capacity_bytes())
                throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk");
        }
    }
    check_limits(c, length_given);  // what the model can represent (sim/config_limits.hpp)
    if (c.workload.io_size_max > c.workload.io_size) {
        // The same limits for the largest I/O the sizes can draw.
        SimConfig largest = c;
        largest.workload.io_size = c.workload.io_size_max;
        try {
            check_limits(largest, length_given);
        } catch (const ConfigError& e) {
            throw ConfigError(std::string("workload.io_size_max: as the largest I/O, ") + e.what());
        }
    }
}

}  // namespace

SimConfig default_config() { return build_config(fcal_parameters()); }

nlohmann::json to_json(const SimConfig& c)
{
    nlohmann::json j;
    j["loop"] = {{"speed", phy::to_string(c.loop.rate)},
                 {"nodes", c.loop.nodes},
                 {"hop_m", c.loop.hop_m},
                 {"port_delay_words", c.loop.port_delay_words},
                 {"propagation_ns_per_m", c.loop.propagation_ns_per_m}};
    j["loop"]["baud_gbps"] = c.loop.baud_gbps;
    j["loop"]["ber"] = c.loop.ber;
    j["loop"]["al_time_us"] = c.loop.al_time_us;

    auto& ini = j["initiator"];
    ini["al_pa"] = phy::al_pa_hex(c.initiator.al_pa);
    write_hba(c.initiator, ini);
    ini["xfer_rdy_us"] = c.initiator.xfer_rdy_us;
    ini["dma_policy"] = hba::to_string(c.initiator.dma_policy);
    ini["max_outstanding"] = c.initiator.max_outstanding;
    ini["task_set_full_retry_us"] = c.initiator.task_set_full_retry_us;
    ini["exchange_timeout_ms"] = c.initiator.exchange_timeout_ms;
    ini["abts_timeout_ms"] = c.initiator.abts_timeout_ms;
    ini["tx_fifo_frames"] = c.initiator.tx_fifo_frames;
    ini["cmd_fifo_frames"] = c.initiator.cmd_fifo_frames;

    auto& tgt = j["target"];
    write_hba(c.target, tgt);
    tgt["rsp_gen_us"] = c.target.rsp_gen_us;
    tgt["burst_bytes"] = c.target.burst_bytes;
    tgt["data_timeout_ms"] = c.target.data_timeout_ms;

    j["driver"] = {{"arrival_us", c.driver.arrival_us}, {"completion_us", c.driver.completion_us}};
    j["driver"]["retries"] = c.driver.retries;
    j["disk"] = {{"count", c.disk.count},
                 {"access_ms", c.disk.access_ms},
                 {"rate_mbs", c.disk.rate_mbs},
                 {"queue_slots", c.disk.queue_slots},
                 {"model", disk::to_string(c.disk.model)},
                 {"access_dist", disk::to_string(c.disk.access_dist)},
                 {"rpm", c.disk.rpm},
                 {"cylinders", c.disk.cylinders},
                 {"heads", c.disk.heads},
                 {"sector_bytes", c.disk.sector_bytes},
                 {"sector_time_inner_ms", c.disk.sector_time_inner_ms},
                 {"sector_time_outer_ms", c.disk.sector_time_outer_ms},
                 {"seek_read_min_ms", c.disk.seek_read_min_ms},
                 {"seek_read_max_ms", c.disk.seek_read_max_ms},
                 {"seek_write_min_ms", c.disk.seek_write_min_ms},
                 {"seek_write_max_ms", c.disk.seek_write_max_ms},
                 {"positioning", disk::to_string(c.disk.positioning)},
                 {"scheduler", disk::to_string(c.disk.scheduler)},
                 {"write_cache", c.disk.write_cache},
                 {"buffer_kib", c.disk.buffer_kib},
                 {"buffer_full_ratio", c.disk.buffer_full_ratio},
                 {"command_overhead_us", c.disk.command_overhead_us}};
    j["disk"]["capacity_gb"] = c.disk.capacity_gb;
    // Per-disk overrides: the values in which a disk differs from disk.*.
    for (std::size_t i = 0; i < c.disks.size(); ++i) {
        SimConfig one = c;
        one.disk = c.disks[i];
        one.disks.clear();
        const nlohmann::json mine = to_json(one)["disk"];
        for (const auto& [name, value] : mine.items())
            if (name != "count" && value != j["disk"][name]) j["disk"][std::to_string(i)][name] = value;
    }
    j["workload"] = {{"type", to_string(c.workload.type)},
                     {"queue_depth", c.workload.queue_depth},
                     {"io_size", c.workload.io_size},
                     {"read_fraction", c.workload.read_fraction},
                     {"rate_iops", c.workload.rate_iops},
                     {"io_size_max", c.workload.io_size_max},
                     {"span_bytes", c.workload.span_bytes},
                     {"measured_ios", c.workload.measured_ios},
                     {"warmup_ios", c.workload.warmup_ios},
                     {"seed", c.workload.seed}};
    j["erase"] = {{"command", host::to_string(c.erase.command)},
                  {"strategy", host::to_string(c.erase.strategy)},
                  {"tl_policy", c.erase.tl_by_disk_count ? "by_disk_count" : "fixed"},
                  {"transfer_blocks", c.erase.transfer_blocks},
                  {"same_blocks", c.erase.same_blocks},
                  {"disks", c.erase.disks}};
    j["workload"]["lba"] = to_string(c.workload.lba);
    j["volume"] = {{"raid", controller::to_string(c.volume.raid)},
                   {"stripe_kib", c.volume.stripe_kib},
                   {"split_merge", controller::to_string(c.volume.split_merge)},
                   {"decode", c.volume.decode}};
    j["decode"] = {{"area_units", c.decode.area_units}, {"threshold", c.decode.threshold}, {"own_write", c.decode.own_write}, {"free_fraction", c.decode.free_fraction}};
    j["transport"] = to_string(c.transport);
    j["schedule"] = to_string(c.schedule);
    j["cmdf"] = {{"fifo", hba::to_string(c.cmdf.fifo)},
                 {"arbitration", c.cmdf.arbitration},
                 {"preempt", c.cmdf.preempt},
                 {"impl", to_string(c.cmdf.impl)}};
    j["rtl"] = {{"clock_mhz", c.rtl.clock_mhz}, {"lockstep", c.rtl.lockstep}};
    j["sim"] = {{"time_limit_s", c.time_limit_s}};
    return j;
}

std::uint32_t lba_block_bytes(const SimConfig& c)
{
    return c.disk.model == disk::DiskModel::Zoned ? c.disk.sector_bytes : kVolumeBlockBytes;
}

AddressSpace address_space(const SimConfig& c)
{
    AddressSpace a;
    a.block_bytes = lba_block_bytes(c);
    // As disk::Disk::capacity_sectors(): the zoned geometry's, a fixed disk's capacity_gb (0: none).
    const auto capacity = [&](unsigned i) {
        const disk::DiskParams p = disk_params(c, i);
        return p.model == disk::DiskModel::Zoned ? disk::ZoneGeometry(p.zoned.geometry).capacity_sectors() : p.capacity_sectors;
    };
    a.disk_blocks = c.disk.model == disk::DiskModel::Zoned ? capacity(0) : host::kDiskCapacityBlocks;
    for (unsigned i = 0; i < c.disk.count; ++i)
        if (const std::uint64_t blocks = capacity(i); blocks > 0) a.disk_blocks = std::min(a.disk_blocks, blocks);
    a.capacity_blocks = a.disk_blocks;
    if (c.volume.raid != controller::RaidLevel::None) {
        controller::VolumeGeometry g;
        g.level = c.volume.raid;
        g.disks = c.disk.count;
        g.unit_blocks = c.volume.stripe_kib * 1024 / kVolumeBlockBytes;
        g.disk_blocks = a.disk_blocks;
        a.unit_blocks = g.unit_blocks;
        const bool fits = g.unit_blocks <= g.disk_blocks;
        // DECODE's layout leaves slots free (controller/decode_layout.hpp).
        const bool decode_layout = c.volume.decode || c.decode.free_fraction > 0;
        a.capacity_blocks = !fits          ? 0
                            : decode_layout ? controller::DecodeMap(g.disks, g.disk_blocks / g.unit_blocks, c.decode.free_fraction).units() *
                                                  g.unit_blocks
                                            : controller::volume_blocks(g);
    }
    a.span_blocks = c.workload.span_bytes / a.block_bytes;
    return a;
}

}  // namespace fcal::sim
