#pragma once
// The resolved, typed configuration the system builder works from: the modules' own configs
// (disk::DiskParams, hba::HbaParams, host::DeviceDriverParams, loop::PortConfig, ...) in SI units,
// and the few settings of the run itself. Filled by the ParameterTable, whose declarations
// (sim/fcal_parameters.cpp) bind each key straight to the field it fills, with the scale from the
// key's unit, so that defaults live in one place only: use default_config() for the baseline.
// to_json() echoes the fields by their keys, in the keys' units.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/controller/raid_layout.hpp"
#include "fcal/controller/volume_controller.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/hba_params.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/line_rate.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/scheduled_events.hpp"

namespace fcal::sim {

enum class WorkloadType { Closed, Open, Erase };
enum class Schedule { Normal, Cmdf };  // docs/hba.md, "Command-First"

enum class CmdfImpl { Model, Rtl };  // the controller's transmit queue (cmdf.impl)

// The Verilated RTL transmit queue (cmdf.impl=rtl).
struct RtlConfig {
    double clock_mhz{};
    bool lockstep{};
};

// The LBA unit of volumes and disks.
constexpr std::uint32_t kVolumeBlockBytes = 512;

enum class Transport { Loop, Ideal };  // docs/controller.md, "The ideal transport"

// The storage controller's volume (docs/controller.md, "Volumes and RAID").
struct VolumeConfig {
    controller::RaidLevel raid{};  // none: each disk its own volume, no controller layer
    std::uint64_t stripe_bytes{};
    controller::SplitMerge split_merge{};
    bool decode{};  // DECODE write load balancing (raid0 only)
    // Hot spares: the last `spares` disks of the loop, not members (docs/controller.md, "Degraded mode and rebuild").
    unsigned spares{};
    double member_capacity_bytes{};  // used on each member from LBA 0; 0: the whole drive
};

struct SimConfig {
    // The loop's own config, and its ports' (name and AL_PA given by the system builder;
    // initiator_port.al_pa is the controller's). loop.nodes holds as many nodes as the loop has
    // (loop.nodes), the builder gives them their ports; loop.hop_m one cable for every hop.
    loop::LoopConfig loop;
    // Independent loops with the same disks (docs/host.md, "Dual loops and multipath"); every loop.* key
    // describes each of them.
    unsigned loop_count{};
    double loop_timeline_s{};  // sim.loop_timeline_ms: bin of the per-loop throughput timeline; 0 = none
    std::optional<double> loop_length_m;  // the whole ring's cable, when given: split over the hops
    loop::PortConfig initiator_port;
    loop::PortConfig target_port;  // every disk's
    hba::HbaParams initiator;       // block_bytes resolved; cmdf the schedule's preset with cmdf.* applied
    hba::FifoDepths controller_fifos;  // the initiator's transmit queue
    hba::HbaParams target;          // every disk's HBA
    host::DeviceDriverParams driver;
    unsigned disk_count{};
    disk::DiskParams disk;          // disk.*, every disk's seed 0 (disk_params() gives each its own)
    std::vector<disk::DiskParams> disks;  // each disk's, disk.<i>.* overrides applied (disk_count entries)
    // The workload (docs/host.md, "The workloads"): the generator the builder makes, what every
    // generator shares (its disks, I/O count and address space are filled in by module_configs), each
    // generator's load, and the measurement window (sim/statistics.hpp).
    WorkloadType workload_type{};
    host::WorkloadParams workload;
    unsigned queue_depth{};          // host::ClosedWorkload's, per disk
    double rate_iops{};              // host::OpenWorkload's, over all disks; 0 for closed
    std::uint64_t span_bytes{};      // 0: the whole disk or volume (the workload gets span_blocks)
    std::uint64_t warmup_ios{};      // also the cool-down left out at the end
    std::uint64_t measured_ios{};
    // workload.type=erase (docs/erasure.md, "Erasure"): the job's config (its disks, their capacities
    // and the block size are filled in by module_configs), which disks, and how the WRITE transfer
    // length is chosen (erase.tl_policy=by_disk_count: transfer_blocks resolved from erase_disks).
    host::EraseParams erase;
    unsigned erase_disks{};          // the first this many disks
    bool erase_tl_by_disk_count{};
    VolumeConfig volume;
    controller::RebuildParams rebuild;  // volume.rebuild_*
    // DECODE's layout and policy (docs/controller.md, "DECODE"); free_fraction also applies with
    // volume.decode=false (conventional striping over the same layout). module_configs adds the
    // drive sheet and leaves area_units 0 (nothing moves) without volume.decode.
    controller::DecodeParams decode;
    Transport transport{};
    Schedule schedule{};
    CmdfImpl cmdf_impl{};
    RtlConfig rtl;
    double time_limit_s{};  // simulated seconds
    // Scheduled events by n (event.<n>.*), as given; `event` only names their fields for the keys'
    // declarations. ScheduledEvents validates them (build_config).
    EventKeys event;
    std::map<unsigned, EventKeys> events;
    // The values of scaled keys (a unit other than the field's SI unit) as given, by key
    // (disk.<i>.<name> for an override): the echo prints these, since a value scaled to SI and back
    // is not always the same double (43.9 us as seconds and back may not be 43.9).
    std::map<std::string, double> given;
};

// Resolves derived defaults and checks the rules that involve more than one key; throws ConfigError
// naming the key at fault.
SimConfig build_config(const ParameterTable& table);
SimConfig default_config();  // build_config(fcal_parameters())

// The disk model's own parameters for disk `index` (its random stream is seeded from workload.seed
// and the index).
disk::DiskParams disk_params(const SimConfig& config, unsigned index);
// As disk::Disk::capacity_sectors() will say: the zoned geometry's, a fixed disk's capacity_gb (0: none).
std::uint64_t capacity_sectors(const disk::DiskParams& params);

// Every resolved value, nested by key ({"loop":{"speed":"2GFC",...},...}); loads back as a
// configuration file giving the same SimConfig (fcal_parameters().echo()).
nlohmann::json to_json(const SimConfig& config);

// The unit of the LBAs the host and the CDBs count in: a zoned disk's sector, else kVolumeBlockBytes.
std::uint32_t lba_block_bytes(const SimConfig& config);

// What the workload addresses (docs/host.md, "The workloads"), in blocks of block_bytes: each disk
// (the smallest of them; a fixed disk without a capacity counts as host::kDiskCapacityBlocks, and so
// does any larger fixed disk), or with a volume the volume built on disks of that size. The system
// builder sizes the workload and the volume from it, and build_config checks it first.
struct AddressSpace {
    std::uint32_t block_bytes{};
    std::uint64_t disk_blocks{};      // each member disk
    std::uint64_t unit_blocks{};      // the volume's stripe unit (volume.raid other than none)
    std::uint64_t capacity_blocks{};  // what the LBAs range over: a disk, or the volume (0: the unit exceeds a disk)
    std::uint64_t span_blocks{};      // workload.span_bytes in blocks (0: the whole capacity)
};
AddressSpace address_space(const SimConfig& config);

// The volume's members: disk.count less volume.spares (the spares are the last disks).
unsigned volume_members(const SimConfig& config);

}  // namespace fcal::sim
