#pragma once
// What the model can represent, checked once the configuration is resolved (docs/cli.md,
// "Configuration limits"): every delay built from the parameters fits in sc_time, I/O counts do not
// wrap, one data sequence fits the 16-bit SEQ_CNT, and the controller's AL_PA is an NL_Port's.
// A value past a limit is the user's mistake, reported as a ConfigError naming the key, never a
// SystemC abort or a run that ends in nonsense.
#include <cstdint>
#include <string>
#include <vector>

#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

// The longest delay the model may schedule, and the largest sim.time_limit_s, in seconds:
// 2^63 time-resolution units (1 ps by default: about 106.7 days). SystemC converts a double time
// through a signed 64-bit count, and with both the current time (at most the time limit) and a
// delay below 2^63 their sum stays below 2^64, the largest sc_time.
double longest_delay_s();

// Frames in one FC sequence: SEQ_CNT is 16 bits and restarts in every sequence (docs/fcp.md,
// "Exchanges").
constexpr std::uint64_t kMaxFramesPerSequence = 65536;

// The largest workload.io_size the model can move with the given payloads and write burst (0 = the
// whole transfer): every data sequence of an I/O must fit in kMaxFramesPerSequence frames.
std::uint64_t largest_io_size(const SimConfig& config);

// Throws ConfigError naming the key at fault; called by build_config(). Every key of `parameters`
// with a time unit (s, ms, us, ns) is checked as a delay of its own, beside the delays built from
// several keys.
void check_limits(const SimConfig& config, const std::vector<Parameter>& parameters);
// The same for the values of one disk (disk i's overrides applied), named with `prefix` (disk.<i>.).
void check_disk_limits(const SimConfig& config, const disk::DiskParams& disk, const std::string& prefix,
                       const std::vector<Parameter>& parameters);

}  // namespace fcal::sim
