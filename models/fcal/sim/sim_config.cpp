#include "fcal/sim/sim_config.hpp"

#include "fcal/sim/config_limits.hpp"
#include "fcal/sim/module_configs.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "fcal/controller/decode_map.hpp"
#include "fcal/cosim/command_first_rtl.hpp"
#include "fcal/phy/link_timing.hpp"

namespace fcal::sim {

disk::DiskParams disk_params(const SimConfig& c, unsigned index)
{
    disk::DiskParams p = index < c.disks.size() ? c.disks[index] : c.disk;
    // One stream per disk, fixed by the workload's seed and the disk's index.
    p.seed = (c.workload.seed + 1) * 0x9E3779B97F4A7C15ULL ^ (index + 1ULL) * 0xBF58476D1CE4E5B9ULL;
    return p;
}

namespace {

// The keys of one disk's values in messages: disk.<name>, or disk.<i>.<name> for the values disk i
// overrides. (disk.model, disk.positioning, disk.scheduler and disk.sector_bytes are every disk's.)
struct DiskKeys {
    std::string prefix = "disk.";
    std::string operator()(const char* name) const { return prefix + name; }
};

// The zoned disk's geometry, its own checks reported against the keys that set it.
disk::ZoneGeometry zone_geometry_of(const disk::DiskParams& d, const DiskKeys& k)
{
    try {
        return disk::ZoneGeometry(d.zoned.geometry);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(k("cylinders") + ", " + k("heads") + ", " + k("rpm") + ", " + k("sector_time_*_ms") + ": " + e.what());
    }
}

// The rules among one disk's own values.
void check_disk_model(const disk::DiskParams& d, const DiskKeys& k)
{
    const disk::ZonedParams& z = d.zoned;
    if (d.scheduler == disk::Scheduler::Sptf && (d.model != disk::DiskModel::Zoned || z.positioning != disk::PositioningMode::Physical))
        throw ConfigError("disk.scheduler: sptf needs disk.model=zoned and disk.positioning=physical");
    if (d.max_concurrent > 1 && d.model != disk::DiskModel::Fixed)
        throw ConfigError(k("max_concurrent") + ": above 1 needs disk.model=fixed (a zoned disk has one actuator), got " +
                          std::to_string(d.max_concurrent));
    if (d.model != disk::DiskModel::Zoned) return;
    if (z.geometry.sector_time_inner_s < z.geometry.sector_time_outer_s)
        throw ConfigError(k("sector_time_inner_ms") + ": must be >= " + k("sector_time_outer_ms") + " (inner tracks hold fewer sectors)");
    if (z.geometry.sector_time_inner_s > z.geometry.revolution_s)
        throw ConfigError(k("sector_time_inner_ms") + ": longer than one revolution (60000 / " + k("rpm") + " ms)");
    if (z.seek_read_min_s > z.seek_read_max_s) throw ConfigError(k("seek_read_min_ms") + ": exceeds " + k("seek_read_max_ms"));
    if (z.seek_write_min_s > z.seek_write_max_s) throw ConfigError(k("seek_write_min_ms") + ": exceeds " + k("seek_write_max_ms"));
}

void check_hba(const std::string& side, const loop::PortConfig& hba)
{
    // Login_BB_Credit promises buffers at OPEN; a port cannot promise more than it has.
    if (hba.login_bb_credit > hba.incoming_buffers)
        throw ConfigError(side + ".login_bb_credit: " + std::to_string(hba.login_bb_credit) + " exceeds " + side +
                          ".incoming_buffers = " + std::to_string(hba.incoming_buffers));
}

void check_workload(const SimConfig& c)
{
    if (c.workload.io_size_max_bytes != 0) {
        if (c.workload.io_size_max_bytes < c.workload.io_size_bytes) throw ConfigError("workload.io_size_max: smaller than workload.io_size");
        // Sizes are drawn in whole LBA blocks.
        const std::uint32_t block = lba_block_bytes(c);
        if (c.workload.io_size_bytes % block != 0 || c.workload.io_size_max_bytes % block != 0)
            throw ConfigError("workload.io_size_max: with it, workload.io_size and workload.io_size_max must be multiples of " +
                              std::to_string(block) + " bytes");
    }
    if (c.workload_type == WorkloadType::Open && !(c.rate_iops > 0.0))
        throw ConfigError("workload.rate_iops: must be > 0 when workload.type is open");
}

void check_volume(const SimConfig& c)
{
    if (c.volume.decode && c.volume.raid != controller::RaidLevel::Raid0)
        throw ConfigError("volume.decode: needs volume.raid=raid0, got " + controller::to_string(c.volume.raid));
    if (c.decode.free_fraction > 0 && c.volume.raid != controller::RaidLevel::Raid0)
        throw ConfigError("decode.free_fraction: the DECODE layout needs volume.raid=raid0, got " + controller::to_string(c.volume.raid));
    if (c.transport == Transport::Ideal && c.cmdf_impl == CmdfImpl::Rtl)
        throw ConfigError("cmdf.impl: rtl puts the RTL in the controller's HBA, which transport=ideal leaves out");
    const bool redundant = c.volume.raid == controller::RaidLevel::Raid1 || c.volume.raid == controller::RaidLevel::Raid5;
    if (c.volume.spares > 0 && !redundant)
        throw ConfigError("volume.spares: hot spares need volume.raid=raid1 or raid5, got " + controller::to_string(c.volume.raid));
    if (c.volume.spares >= c.disk_count)
        throw ConfigError("volume.spares: " + std::to_string(c.volume.spares) + " leaves no member of disk.count = " +
                          std::to_string(c.disk_count));
    if (c.volume.member_capacity_bytes > 0 && c.volume.raid == controller::RaidLevel::None)
        throw ConfigError("volume.member_capacity_gb: needs a RAID volume (volume.raid)");
    if (c.volume.raid == controller::RaidLevel::None) return;
    // The members: disk.count less the spares (the text names both keys when there are spares).
    const unsigned n = volume_members(c);
    const std::string count = c.volume.spares > 0 ? "disk.count - volume.spares" : "disk.count";
    if (c.volume.raid == controller::RaidLevel::Raid0 && n < 2)
        throw ConfigError("volume.raid: raid0 needs " + count + " >= 2, got " + std::to_string(n));
    if (c.volume.raid == controller::RaidLevel::Raid1 && n % 2 != 0)
        throw ConfigError("volume.raid: raid1 needs an even " + count + " (mirrored pairs), got " + std::to_string(n));
    if (c.volume.raid == controller::RaidLevel::Raid5 && n < 3)
        throw ConfigError("volume.raid: raid5 needs " + count + " >= 3, got " + std::to_string(n));
    if (c.workload.io_size_bytes % kVolumeBlockBytes != 0)
        throw ConfigError("workload.io_size: with a RAID volume it must be a multiple of " + std::to_string(kVolumeBlockBytes) +
                          " bytes, got " + std::to_string(c.workload.io_size_bytes));
    if (c.workload.io_size_max_bytes % kVolumeBlockBytes != 0)
        throw ConfigError("workload.io_size_max: with a RAID volume it must be a multiple of " + std::to_string(kVolumeBlockBytes) +
                          " bytes, got " + std::to_string(c.workload.io_size_max_bytes));
    if (c.volume.stripe_bytes > host::kDiskCapacityBlocks * kVolumeBlockBytes)
        throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk");
}

// The blocks used on each member: volume.member_capacity_gb of the smallest drive.
std::uint64_t member_blocks(const SimConfig& c, std::uint64_t drive_blocks, std::uint64_t unit_blocks)
{
    if (unit_blocks == 0 || unit_blocks > drive_blocks) return drive_blocks;  // refused as volume.stripe_kib
    try {
        return controller::used_member_blocks(drive_blocks, static_cast<std::uint64_t>(c.volume.member_capacity_bytes), kVolumeBlockBytes,
                                              unit_blocks);
    } catch (const std::invalid_argument& e) {
        throw ConfigError(std::string("volume.member_capacity_gb: ") + e.what());
    }
}

void check_erase(const ParameterTable& t, const SimConfig& c)
{
    const host::EraseParams& e = c.erase;
    if (c.workload_type != WorkloadType::Erase) return;
    if (c.erase_disks > c.disk_count)
        throw ConfigError("erase.disks: " + std::to_string(c.erase_disks) + " exceeds disk.count = " + std::to_string(c.disk_count));
    if (c.transport != Transport::Loop) throw ConfigError("workload.type: erase needs transport=loop (WRITE SAME is an FCP command)");
    if (c.volume.raid != controller::RaidLevel::None)
        throw ConfigError("workload.type: erase writes the disks themselves; it needs volume.raid=none");
    for (unsigned i = 0; i < c.erase_disks; ++i)
        if (c.disks[i].model == disk::DiskModel::Fixed && c.disks[i].capacity_bytes < disk::kFixedSectorBytes)
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
// once elaboration has begun and its outputs exist (docs/cli.md, "Configuration limits").
void check_elaboration(const SimConfig& c)
{
    // The RTL's depths are fixed when it is Verilated.
    if (c.cmdf_impl == CmdfImpl::Rtl && c.controller_fifos.frames != cosim::kRtlFrameDepth)
        throw ConfigError("initiator.tx_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlFrameDepth) +
                          ", the depth the RTL was built with (CMake option FCAL_RTL_DEPTH)");
    if (c.cmdf_impl == CmdfImpl::Rtl && c.controller_fifos.commands != cosim::kRtlCommandDepth)
        throw ConfigError("initiator.cmd_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlCommandDepth) +
                          ", the depth the RTL was built with (CMake option FCAL_RTL_CMD_DEPTH)");

    // FC-AL's AL_TIME is twice the worst round trip: a shorter one would time out circuits that
    // merely wait for a word to come round. The loop checks the same with the same arithmetic
    // (loop/loop.cpp): every hop's cable and repeat delay in whole picoseconds.
    if (c.transport == Transport::Loop && c.loop.ber > 0.0) {
        const phy::LinkTiming timing(c.loop.rate, c.loop.propagation_ns_per_m, c.loop.baud);
        sc_core::sc_time round_trip = sc_core::SC_ZERO_TIME;
        for (std::size_t i = 0; i < c.loop.nodes.size(); ++i) round_trip += timing.cable(c.loop.hop_m.front()) + timing.words(c.loop.port_delay_words);
        if (sc_core::sc_time(c.loop.al_time_s, sc_core::SC_SEC) <= 2 * round_trip)
            throw ConfigError("loop.al_time_us: " + number(c.loop.al_time_s * 1e6) + " us is not above twice the loop's round trip (" +
                              number(2 * round_trip.to_seconds() * 1e6) + " us); with loop.ber above 0 it must be");
    }

    // Master selection needs unique port names (docs/loop_init.md, "Master selection").
    if (c.transport == Transport::Loop) {
        std::map<std::uint64_t, std::string> names{{c.initiator_port.init.port_name, "initiator.port_name"}};
        for (unsigned d = 0; d < c.disk_count; ++d) {
            const std::string key = "disk." + std::to_string(d) + ".port_name";
            const auto [it, fresh] = names.emplace(disk_port_name(c, d), key);
            if (!fresh)
                throw ConfigError(key + ": " + std::to_string(it->first) + " is already the port name of " + it->second +
                                  " (port names must be unique on the loop)");
        }
    }

    // What the workload addresses: the stripe unit on a disk, the span on the disk or volume, one
    // I/O in both (host::validate, controller::validate).
    const AddressSpace a = address_space(c);
    if (c.volume.raid != controller::RaidLevel::None && a.unit_blocks > a.disk_blocks)
        throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk (" + std::to_string(a.disk_blocks * a.block_bytes) +
                          " bytes)");
    if (a.span_blocks > a.capacity_blocks)
        throw ConfigError("workload.span_bytes: " + std::to_string(c.span_bytes) + " exceeds the " +
                          std::to_string(a.capacity_blocks * a.block_bytes) + " bytes of the disk or volume");
    const std::uint64_t largest = std::max(c.workload.io_size_bytes, c.workload.io_size_max_bytes);
    if (c.span_bytes != 0 && a.span_blocks * a.block_bytes < largest)
        throw ConfigError("workload.span_bytes: smaller than the largest I/O (" + std::to_string(largest) + " bytes)");
    // An erasure job writes whole disks, whatever their size (read_erase checks them).
    if (c.workload_type != WorkloadType::Erase && a.capacity_blocks * a.block_bytes < largest)
        throw ConfigError(std::string(largest > c.workload.io_size_bytes ? "workload.io_size_max" : "workload.io_size") + ": " +
                          format_bytes(largest) + " is larger than the " +
                          (c.volume.raid != controller::RaidLevel::None ? "volume" : "smallest disk") + " (" +
                          std::to_string(a.capacity_blocks * a.block_bytes) + " bytes)");
}

// What one disk must satisfy beyond its own values' rules: the zoned geometry against the rest of
// the configuration and the model's limits (sim/config_limits.hpp), for the I/O size and the largest
// size drawn.
void check_disk(const SimConfig& c, const disk::DiskParams& d, const DiskKeys& k, const std::vector<Parameter>& parameters)
{
    if (d.model == disk::DiskModel::Zoned) {
        // A read streams through the buffer a media step (4 KiB) at a time and the HBA takes whole
        // frames, so the buffer must hold a step beside a frame's worth left behind.
        if (d.buffer_bytes < 4096 + 2ull * c.target.max_payload)
            throw ConfigError(k("buffer_kib") + ": must hold 4 KiB + 2 x target.max_payload");
        const disk::ZoneGeometry geometry = zone_geometry_of(d, k);
        const std::uint32_t sector_bytes = d.zoned.geometry.sector_bytes;
        const std::uint64_t io_sectors = (c.workload.io_size_bytes + sector_bytes - 1) / sector_bytes;
        if (geometry.capacity_sectors() < io_sectors)
            throw ConfigError("workload.io_size: larger than the zoned disk's capacity (" +
                              std::to_string(geometry.capacity_bytes()) + " bytes)");
        // READ(10) and WRITE(10) carry a 32-bit LBA (docs/fcp.md, "The CDB").
        if (geometry.capacity_sectors() > (1ull << 32))
            throw ConfigError(k("cylinders") + ": the zoned disk has " + std::to_string(geometry.capacity_sectors()) +
                              " sectors; READ(10)/WRITE(10) address at most 2^32");
        if (c.volume.raid != controller::RaidLevel::None) {
            // The volume addresses its members in 512-byte blocks.
            if (sector_bytes != kVolumeBlockBytes)
                throw ConfigError("disk.sector_bytes: a RAID volume of zoned disks needs " + std::to_string(kVolumeBlockBytes) +
                                  "-byte sectors, got " + std::to_string(sector_bytes));
            if (c.volume.stripe_bytes > geometry.capacity_bytes())
                throw ConfigError("volume.stripe_kib: a stripe unit larger than a disk");
        }
    }
    // What the model can represent: the whole configuration with disk.*, one disk's own values with
    // its overrides. The same again for the largest I/O the sizes can draw.
    const auto limits = [&](const SimConfig& config) {
        if (k.prefix == "disk.")
            check_limits(config, parameters);
        else
            check_disk_limits(config, d, k.prefix, parameters);
    };
    limits(c);
    if (c.workload.io_size_max_bytes > c.workload.io_size_bytes) {
        SimConfig largest = c;
        largest.workload.io_size_bytes = c.workload.io_size_max_bytes;
        try {
            limits(largest);
        } catch (const ConfigError& e) {
            throw ConfigError(std::string("workload.io_size_max: as the largest I/O, ") + e.what());
        }
    }
}

// Scheduled events (docs/faults.md, "Scheduled events"): each one's keys, and what this model can do.
void check_events(const SimConfig& c)
{
    try {
        if (c.loop_count > 1 && c.transport != Transport::Loop)
            throw std::invalid_argument("loop.count: " + std::to_string(c.loop_count) + " loops need transport=loop");
        if (c.loop_count > 1 && c.cmdf_impl == CmdfImpl::Rtl)
            throw std::invalid_argument("loop.count: 2 loops need cmdf.impl=model (the RTL transmit queue is one controller's)");
        const ScheduledEvents events(c.events, c.disk_count, c.time_limit_s, c.loop_count, c.loop.bypass_detect_s);
        if (!events.empty() && c.transport != Transport::Loop)
            throw std::invalid_argument("event." + std::to_string(events.events().front().index) +
                                        ".kind: scheduled events need transport=loop (the ideal transport has no loop and no FCP status)");
    } catch (const std::invalid_argument& e) {
        throw ConfigError(e.what());
    }
}

// What the declarations leave to be resolved from several keys.
void resolve(SimConfig& c)
{
    // A loop of n ports is a ring of n cables.
    if (c.loop_length_m) c.loop.hop_m = {*c.loop_length_m / static_cast<double>(c.loop.nodes.size())};
    // The HBAs address the disks in their LBA unit.
    c.initiator.block_bytes = c.target.block_bytes = lba_block_bytes(c);
    if (c.erase_tl_by_disk_count) {
        // 4096 / N rounded down to a power of two: 14 -> 256, 8 -> 512, 4 -> 1024, 2 -> 2048.
        c.erase.transfer_blocks = 1;
        while (c.erase.transfer_blocks * 2 <= 4096 / c.erase_disks) c.erase.transfer_blocks *= 2;
    }
}

}  // namespace

SimConfig build_config(const ParameterTable& t)
{
    SimConfig c;
    t.fill(c);
    resolve(c);

    // The rules that involve more than one key, each error naming the key at fault.
    if (c.rtl.lockstep && c.cmdf_impl != CmdfImpl::Rtl) throw ConfigError("rtl.lockstep: needs cmdf.impl=rtl");
    check_disk_model(c.disk, DiskKeys{});
    for (unsigned i : t.override_disks()) check_disk_model(c.disks[i], DiskKeys{"disk." + std::to_string(i) + "."});
    if (c.loop.nodes.size() < c.disk_count + 1)
        throw ConfigError("loop.nodes: " + std::to_string(c.loop.nodes.size()) + " is fewer than disk.count + 1 = " +
                          std::to_string(c.disk_count + 1));
    check_hba("initiator", c.initiator_port);
    check_hba("target", c.target_port);
    check_workload(c);
    check_volume(c);
    check_erase(t, c);
    // disk.* as given, then each disk with overrides: its own values meet the same rules, reported
    // against its keys (disk.<i>.<name>).
    check_disk(c, c.disk, DiskKeys{}, t.parameters());
    for (unsigned i : t.override_disks()) check_disk(c, c.disks[i], DiskKeys{"disk." + std::to_string(i) + "."}, t.parameters());
    check_elaboration(c);
    check_events(c);
    return c;
}

SimConfig default_config() { return build_config(fcal_parameters()); }

nlohmann::json to_json(const SimConfig& c) { return fcal_parameters().echo(c); }

std::uint32_t lba_block_bytes(const SimConfig& c)
{
    return c.disk.model == disk::DiskModel::Zoned ? c.disk.zoned.geometry.sector_bytes : kVolumeBlockBytes;
}

std::uint64_t capacity_sectors(const disk::DiskParams& p)
{
    return p.model == disk::DiskModel::Zoned ? disk::ZoneGeometry(p.zoned.geometry).capacity_sectors() : disk::fixed_capacity_sectors(p);
}

unsigned volume_members(const SimConfig& c) { return c.disk_count - c.volume.spares; }

AddressSpace address_space(const SimConfig& c)
{
    AddressSpace a;
    a.block_bytes = lba_block_bytes(c);
    const auto capacity = [&](unsigned i) { return capacity_sectors(disk_params(c, i)); };
    a.disk_blocks = c.disk.model == disk::DiskModel::Zoned ? capacity(0) : host::kDiskCapacityBlocks;
    for (unsigned i = 0; i < c.disk_count; ++i)
        if (const std::uint64_t blocks = capacity(i); blocks > 0) a.disk_blocks = std::min(a.disk_blocks, blocks);
    a.capacity_blocks = a.disk_blocks;
    if (c.volume.raid != controller::RaidLevel::None) {
        controller::VolumeGeometry g;
        g.level = c.volume.raid;
        g.disks = volume_members(c);
        g.unit_blocks = c.volume.stripe_bytes / kVolumeBlockBytes;
        g.disk_blocks = a.disk_blocks = member_blocks(c, a.disk_blocks, g.unit_blocks);
        a.unit_blocks = g.unit_blocks;
        const bool fits = g.unit_blocks <= g.disk_blocks;
        // DECODE's layout leaves slots free (controller/decode_layout.hpp).
        const bool decode_layout = c.volume.decode || c.decode.free_fraction > 0;
        a.capacity_blocks = !fits          ? 0
                            : decode_layout ? controller::DecodeMap(g.disks, g.disk_blocks / g.unit_blocks, c.decode.free_fraction).units() *
                                                  g.unit_blocks
                                            : controller::volume_blocks(g);
    }
    a.span_blocks = c.span_bytes / a.block_bytes;
    return a;
}

}  // namespace fcal::sim
