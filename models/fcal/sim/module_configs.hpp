#pragma once
// What each module of the modelled system is built with (docs/model.md, "The modelled system"),
// worked out from a resolved SimConfig, which holds most modules' configs already: this adds the
// AL_PAs, each disk's seed, the ring and what the workload addresses. A pure function: nothing is
// elaborated, so it is unit-tested without building a system; the system builder
// (sim/storage_system.hpp) only puts modules together from it.
#include <optional>
#include <vector>

#include "fcal/controller/volume_controller.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "fcal/hba/hba_params.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

struct ModuleConfigs {
    // AL_PA of each disk: the lowest priorities, in loop_ID order, skipping the controller's.
    std::vector<phy::AlPa> disk_al_pas;
    // transport=loop: the controller's port at node 0, disk i at node i + 1, repeat-only nodes after.
    loop::LoopConfig loop;
    hba::HbaParams initiator;
    hba::FifoDepths controller_fifos;  // the initiator's transmit queue
    hba::HbaParams target;             // every disk's HBA
    host::DeviceDriverParams driver;
    std::vector<disk::DiskParams> disks;
    // The workload's I/Os: to every disk, or to the volume (one disk, 0) when there is one.
    host::WorkloadParams workload;
    std::optional<controller::VolumeParams> volume;  // volume.raid other than none
    std::optional<host::EraseParams> erase;          // workload.type=erase
};

ModuleConfigs module_configs(const SimConfig& config);
// Disk d's port name: disk.<d>.port_name, or loop::default_port_name of its ring position (d + 1).
std::uint64_t disk_port_name(const SimConfig& config, unsigned d);

}  // namespace fcal::sim
