#pragma once
// What each component counted over a run (its part of the results JSON), and what it is doing now
// (its lines of the diagnosis of a run that ended early): one function per component, reading only
// its public counters and state. Each is meant to become the component's own report(nlohmann::json&)
// and state(std::ostream&) once its folder is free to change (issue 20; the HBA and disk classes
// are being split meanwhile).
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/controller/volume_controller.hpp"
#include "fcal/cosim/lockstep_transmit_queue.hpp"
#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/hba/initiator_hba.hpp"
#include "fcal/hba/target_hba.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/workload.hpp"
#include "fcal/loop/loop.hpp"

namespace fcal::sim {

// The I/O account of the whole run (issued_ios, completed_ios, outstanding_ios, failed_ios) and the
// first failures.
void report(const host::Workload& workload, nlohmann::json& j);
void report(const host::DeviceDriver& driver, nlohmann::json& j);  // retries
// The loop's bit errors (frames_discarded, code_violations) and the kernel block (port activations
// and frames sent: how the run was computed), summed over its ports.
void report(const std::vector<const loop::LPort*>& ports, std::uint64_t port_activations, nlohmann::json& j);
// The initiator's recovery and transmit counters, with late frames and sequence errors summed over
// it and the targets, and the targets' data timeouts.
void report(const hba::InitiatorHba& initiator, const std::vector<const hba::TargetHba*>& targets, nlohmann::json& j);
// What the disks' actuators did over the whole run (warm-up included), summed over the disks
// (disk_mechanics): means per positioning, for checking the disk model against its formulas.
void report(const std::vector<const disk::Disk*>& disks, nlohmann::json& j);
// The member commands, the RAID 5 write shapes and DECODE's relocations (volume), whole run.
void report(const controller::VolumeController& volume, nlohmann::json& j);
// RTL-only counters (rtl): everything else is the same whichever implementation ran.
void report(const cosim::RtlTransmitQueue& rtl, const cosim::LockstepTransmitQueue* lockstep, nlohmann::json& j);
// The erasure job's figures (docs/erasure.md, "Erasure"): the whole job's time and, for each disk it
// erased, its own time, commands, wire and media bytes, merged into that disk's entry of "disks".
void report(const host::EraseJob& job, const std::vector<const disk::Disk*>& disks, nlohmann::json& j);

// States, one line or one part of a line each, for a diagnosis.
void state(const host::Workload& workload, std::ostream& out);          // "issued I, completed C, outstanding O"
void state(const controller::VolumeController& volume, std::ostream& out);  // " (volume: ...)"
void state(const host::DeviceDriver& driver, std::ostream& out);       // " (driver: ...)"
void state(const loop::LPort& port, std::ostream& out);                // "  name AL_PA state ...\n"
void state(const disk::Disk& disk, std::ostream& out);                 // "  name holds N commands\n"

}  // namespace fcal::sim
