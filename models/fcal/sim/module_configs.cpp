#include "fcal/sim/module_configs.hpp"

#include <algorithm>
#include <string>

namespace fcal::sim {

// Disk d's port name: disk.<d>.port_name, or one derived from its ring position (node d + 1).
std::uint64_t disk_port_name(const SimConfig& config, unsigned d)
{
    const std::optional<std::uint64_t> given = d < config.disks.size() ? config.disks[d].port_name : config.disk.port_name;
    return given ? *given : loop::default_port_name(d + 1);
}

namespace {

loop::PortConfig port_config(const std::string& name, phy::AlPa al_pa, const loop::PortConfig& keys, const SimConfig& config)
{
    loop::PortConfig p = keys;
    p.name = name;
    p.al_pa = al_pa;
    p.init_frame_processing_s = config.loop.init_frame_processing_s;
    return p;
}

loop::LoopConfig loop_config(const SimConfig& config, const std::vector<phy::AlPa>& disk_al_pas)
{
    loop::LoopConfig lc = config.loop;
    lc.error_seed = loop::derive_seed(config.workload.seed, 0x6C6F6F70 /* "loop" */, 0);  // a stream of its own
    // As many nodes as loop.nodes (at least the controller and the disks): these first, the rest only repeat.
    loop::LoopNode repeater;
    repeater.passive = true;
    lc.nodes.assign(std::max(config.loop.nodes.size(), disk_al_pas.size() + 1), repeater);
    lc.nodes[0] = loop::LoopNode{};
    lc.nodes[0].port = port_config("controller", config.initiator_port.al_pa, config.initiator_port, config);
    for (std::size_t d = 0; d < disk_al_pas.size(); ++d) {
        lc.nodes[d + 1] = loop::LoopNode{};
        lc.nodes[d + 1].port = port_config("disk" + std::to_string(d), disk_al_pas[d], config.target_port, config);
        lc.nodes[d + 1].port.init.port_name = disk_port_name(config, static_cast<unsigned>(d));
    }
    return lc;
}

// DECODE's layout and policy, and what the controller knows of the drives for its load estimates.
controller::DecodeParams decode_params(const SimConfig& config)
{
    controller::DecodeParams p = config.decode;
    if (!config.volume.decode) p.area_units = 0;  // the layout only, nothing moves
    const disk::DiskParams d = disk_params(config, 0);
    p.drive.zoned = d.model == disk::DiskModel::Zoned;
    p.drive.block_bytes = kVolumeBlockBytes;
    p.drive.geometry = d.zoned.geometry;
    p.drive.stochastic = d.zoned.positioning == disk::PositioningMode::Stochastic;
    p.drive.seek_read_min_s = d.zoned.seek_read_min_s;
    p.drive.seek_read_max_s = d.zoned.seek_read_max_s;
    p.drive.seek_write_min_s = d.zoned.seek_write_min_s;
    p.drive.seek_write_max_s = d.zoned.seek_write_max_s;
    p.drive.access_s = d.access_time_s;
    p.drive.media_bytes_per_s = d.media_rate_bytes_per_s;
    return p;
}

}  // namespace

ModuleConfigs module_configs(const SimConfig& config)
{
    ModuleConfigs m;
    const unsigned disks = config.disk_count;
    for (unsigned id = 0; m.disk_al_pas.size() < disks; ++id) {
        const phy::AlPa a = phy::al_pa_of_loop_id(id);
        if (a != config.initiator_port.al_pa) m.disk_al_pas.push_back(a);
    }
    for (unsigned d = 0; d < disks; ++d) m.disks.push_back(disk_params(config, d));

    m.loop = loop_config(config, m.disk_al_pas);
    m.initiator = config.initiator;
    m.controller_fifos = config.controller_fifos;
    m.target = config.target;
    m.driver = config.driver;

    // What the workload addresses, sized (and checked) by the configuration (sim/sim_config.hpp).
    const AddressSpace space = address_space(config);
    host::WorkloadParams& wp = m.workload;
    wp = config.workload;
    wp.disks = m.disk_al_pas;
    wp.total_ios = 2 * config.warmup_ios + config.measured_ios;
    wp.block_bytes = space.block_bytes;
    wp.disk_capacity_blocks = space.capacity_blocks;
    wp.span_blocks = space.span_blocks;

    if (config.volume.raid != controller::RaidLevel::None) {
        controller::VolumeParams vp;
        vp.geometry.level = config.volume.raid;
        const unsigned members = volume_members(config);
        vp.geometry.disks = members;
        vp.geometry.unit_blocks = space.unit_blocks;
        vp.geometry.disk_blocks = space.disk_blocks;
        vp.split_merge = config.volume.split_merge;
        vp.block_bytes = kVolumeBlockBytes;
        vp.member_al_pas.assign(m.disk_al_pas.begin(), m.disk_al_pas.begin() + members);
        vp.spare_al_pas.assign(m.disk_al_pas.begin() + members, m.disk_al_pas.end());
        // Rebuilds only onto spares (docs/controller.md, "Degraded mode and rebuild"): those of
        // volume.spares, or a disk inserted (or enabled) by a scheduled event, which comes back as one.
        const bool comes_back = std::any_of(config.events.begin(), config.events.end(), [](const auto& e) {
            return e.second.kind == EventKind::Insert || e.second.kind == EventKind::Enable;
        });
        if (!vp.spare_al_pas.empty() || (comes_back && (vp.geometry.level == controller::RaidLevel::Raid1 || vp.geometry.level == controller::RaidLevel::Raid5))) vp.rebuild = config.rebuild;
        if (config.volume.decode || config.decode.free_fraction > 0) vp.decode = decode_params(config);
        m.volume = vp;
        wp.disks = {0};  // the workload sees one disk: the volume
    }

    if (config.workload_type == WorkloadType::Erase) {
        host::EraseParams ep = config.erase;
        ep.disks.assign(m.disk_al_pas.begin(), m.disk_al_pas.begin() + config.erase_disks);
        for (unsigned d = 0; d < config.erase_disks; ++d) ep.capacity_blocks.push_back(capacity_sectors(m.disks[d]));
        ep.block_bytes = lba_block_bytes(config);
        m.erase = ep;
    }
    return m;
}

}  // namespace fcal::sim
