#pragma once
// What the components whose folders are not free to change this session (the disk, the volume's
// counters, the RTL transmit queue) counted over a run, and what they are doing now, read from their
// public counters and state. The others report themselves: Workload and EraseJob, DeviceDriver,
// InitiatorHba, TargetHba and Loop have report(nlohmann::json&), LPort, Workload and DeviceDriver
// print_state(std::ostream&). These are meant to become the disk's, the volume's and the RTL
// queue's own in turn (issue 20).
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/controller/volume_controller.hpp"
#include "fcal/cosim/lockstep_transmit_queue.hpp"
#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/disk/disk.hpp"
#include "fcal/host/erase_job.hpp"

namespace fcal::sim {

// What the disks' actuators did over the whole run (warm-up included), summed over the disks
// (disk_mechanics): means per positioning, for checking the disk model against its formulas.
void report(const std::vector<const disk::Disk*>& disks, nlohmann::json& j);
// The member commands, the RAID 5 write shapes and DECODE's relocations (volume), whole run.
void report(const controller::VolumeController& volume, nlohmann::json& j);
// RTL-only counters (rtl): everything else is the same whichever implementation ran.
void report(const cosim::RtlTransmitQueue& rtl, const cosim::LockstepTransmitQueue* lockstep, nlohmann::json& j);
// What each disk an erasure job erased wrote (media_bytes, in its entry of "disks" and summed in
// "erase"), beside the job's own report (host::EraseJob::report).
void report_erased(const host::EraseJob& job, const std::vector<const disk::Disk*>& disks, nlohmann::json& j);
// Adds each count of `part` to the same key of `total` (a key `total` lacks counts from 0): the
// counters of several components of one kind summed, as the results give them.
void add_counts(nlohmann::json& total, const nlohmann::json& part);

// States, one line or one part of a line each, for a diagnosis.
void state(const controller::VolumeController& volume, std::ostream& out);  // " (volume: ...)"
void state(const disk::Disk& disk, std::ostream& out);                 // "  name holds N commands\n"

}  // namespace fcal::sim
