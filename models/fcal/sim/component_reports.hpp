#pragma once
// What the results combine from several components: each component reports its own counters
// (report(nlohmann::json&)) and state (print_state(std::ostream&)); these put together what no single
// one of them holds.
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/disk/disk.hpp"
#include "fcal/host/erase_job.hpp"

namespace fcal::sim {

// What each disk an erasure job erased wrote (media_bytes, in its entry of "disks" and summed in
// "erase"), beside the job's own report (host::EraseJob::report).
void report_erased(const host::EraseJob& job, const std::vector<const disk::Disk*>& disks, nlohmann::json& j);
// Adds each count of `part` to the same key of `total` (a key `total` lacks counts from 0): the
// counters of several components of one kind summed, as the results give them.
void add_counts(nlohmann::json& total, const nlohmann::json& part);

}  // namespace fcal::sim
