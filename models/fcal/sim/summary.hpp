#pragma once
// fcal-sim's readable summary of a run on stdout (docs/cli.md, "fcal-sim").
#include <nlohmann/json.hpp>

#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

// `echo`: the configuration as the stats JSON writes it (for the names of its choices); `results`:
// the run's results with wall_time_s.
void print_summary(const SimConfig& config, const nlohmann::json& echo, const nlohmann::json& results);

}  // namespace fcal::sim
