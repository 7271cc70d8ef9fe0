#pragma once
// The resolved, typed configuration the system builder works from. Filled by the ParameterTable,
// whose declarations (sim/fcal_parameters.cpp) bind each key to its member here, so that defaults
// live in one place only: the members carry no defaults of their own, use default_config() for the
// baseline. Members are named after their keys' last part, unit included (cmd_exec_us is
// microseconds); to_json() echoes them by their keys.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/controller/raid_layout.hpp"
#include "fcal/controller/volume_controller.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/single_frame_transfers.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/line_rate.hpp"
#include "fcal/sim/parameter_table.hpp"

namespace fcal::sim {

enum class WorkloadType { Closed, Open, Erase };
enum class Schedule { Normal, Cmdf };  // docs/hba.md, "Command-First"

enum class CmdfImpl { Model, Rtl };

// The HBA's own Command-First levels (cmdf.fifo, cmdf.arbitration, cmdf.preempt) and which
// implementation of the transmit queue runs them.
struct CmdfConfig : hba::CommandFirst {
    CmdfImpl impl{};
};

// The Verilated RTL transmit queue (cmdf.impl=rtl).
struct RtlConfig {
    double clock_mhz{};
    bool lockstep{};
};

struct LoopConfig {
    phy::LineRate rate{};
    double baud_gbps{};           // the rate's standard baud unless loop.baud_gbps overrides it
    unsigned nodes{};             // every L_Port on the loop, repeat-only ones included
    double hop_m{};               // cable between neighbours (from loop.length_m / nodes when that is set)
    std::optional<double> length_m;  // the whole ring's cable, when given
    unsigned port_delay_words{};
    double propagation_ns_per_m{};
    double ber{};          // bit error rate of every link
    double al_time_us{};   // AL_TIME
};

// What the initiator and target HBAs have in common.
struct HbaConfig {
    bool fair{};
    unsigned incoming_buffers{};
    unsigned login_bb_credit{};
    bool full_duplex{};
    double circuit_hold_us{};  // the port's close timer
    unsigned max_payload{};  // bytes
    double cmd_exec_us{};
    double dma_mbs{};  // 10^6 bytes per second
    double dma_sched_us{};
    double frame_proc_ns{};
    double sft_us{};
    hba::SftEngine sft_engine{};
};

struct InitiatorConfig : HbaConfig {
    phy::AlPa al_pa{};
    double xfer_rdy_us{};
    hba::DmaPolicy dma_policy{};
    unsigned max_outstanding{};
    double task_set_full_retry_us{};
    double exchange_timeout_ms{};
    double abts_timeout_ms{};
    unsigned tx_fifo_frames{};
    unsigned cmd_fifo_frames{};
};

struct TargetConfig : HbaConfig {
    double rsp_gen_us{};
    std::uint64_t burst_bytes{};  // 0 = the whole transfer
    double data_timeout_ms{};
};

struct DriverConfig {
    unsigned disk_outstanding{};  // 0 = no limit
    double arrival_us{};
    double completion_us{};
    unsigned retries{};
};

struct DiskConfig {
    unsigned count{};
    double access_ms{};
    double rate_mbs{};  // 10^6 bytes per second
    unsigned queue_slots{};
    unsigned max_concurrent{};  // fixed model: commands in service at once
    disk::DiskModel model{};
    disk::AccessDist access_dist{};
    // Zoned model.
    double rpm{};
    unsigned cylinders{};
    unsigned heads{};
    std::uint32_t sector_bytes{};
    double sector_time_inner_ms{}, sector_time_outer_ms{};
    double seek_read_min_ms{}, seek_read_max_ms{};
    double seek_write_min_ms{}, seek_write_max_ms{};
    disk::PositioningMode positioning{};
    disk::Scheduler scheduler{};
    bool write_cache{};
    unsigned buffer_kib{};
    double buffer_full_ratio{};
    double command_overhead_us{};
    double capacity_gb{};  // fixed model: 0 = no capacity
};

// workload.type=erase (docs/erasure.md, "Erasure").
struct EraseConfig {
    host::EraseCommand command{};
    host::EraseStrategy strategy{};
    bool tl_by_disk_count{};          // erase.tl_policy
    std::uint32_t transfer_blocks{};  // resolved: erase.transfer_blocks, or 4096 / disks as a power of two
    std::uint32_t same_blocks{};
    unsigned disks{};                 // the first this many disks
};


struct WorkloadConfig {
    WorkloadType type{};
    host::LbaPattern lba{};
    unsigned queue_depth{};  // per disk
    std::uint64_t io_size{};  // bytes
    double read_fraction{};
    double rate_iops{};  // open workload only; 0 for closed
    std::uint64_t io_size_max{};  // bytes; 0: every I/O io_size, else uniform in whole blocks up to this
    std::uint64_t span_bytes{};   // 0: the whole disk or volume, else its first span_bytes
    std::uint64_t measured_ios{};
    std::uint64_t warmup_ios{};  // also the cool-down left out at the end
    std::uint64_t seed{};
};

// The LBA unit of volumes and disks.
constexpr std::uint32_t kVolumeBlockBytes = 512;

enum class Transport { Loop, Ideal };  // docs/controller.md, "The ideal transport"

// The storage controller's volume (docs/controller.md, "Volumes and RAID").
struct VolumeConfig {
    controller::RaidLevel raid{};  // none: each disk its own volume, no controller layer
    std::uint64_t stripe_kib{};
    controller::SplitMerge split_merge{};
    bool decode{};  // DECODE write load balancing (raid0 only)
};

// DECODE's layout and policy (docs/controller.md, "DECODE"). free_fraction also applies with
// volume.decode=false: conventional striping over the same layout.
struct DecodeConfig {
    unsigned area_units{};
    double threshold{};
    bool own_write{};
    double free_fraction{};  // 0: no DECODE layout (plain RAID 0) unless volume.decode
};

struct SimConfig {
    LoopConfig loop;
    InitiatorConfig initiator;
    TargetConfig target;
    DriverConfig driver;
    DiskConfig disk;
    std::vector<DiskConfig> disks;  // each disk's, disk.<i>.* overrides applied (disk.count entries)
    WorkloadConfig workload;
    EraseConfig erase;
    VolumeConfig volume;
    DecodeConfig decode;
    Transport transport{};
    Schedule schedule{};
    CmdfConfig cmdf;  // resolved: the schedule's preset with explicit cmdf.* keys applied
    RtlConfig rtl;
    double time_limit_s{};  // simulated seconds
};

// Resolves derived defaults and checks the rules that involve more than one key; throws ConfigError
// naming the key at fault.
SimConfig build_config(const ParameterTable& table);
SimConfig default_config();  // build_config(fcal_parameters())

// The disk model's own parameters for disk `index` (its random stream is seeded from workload.seed
// and the index).
disk::DiskParams disk_params(const SimConfig& config, unsigned index);
disk::DiskParams disk_params(const DiskConfig& disk, std::uint64_t seed);
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

}  // namespace fcal::sim
