#pragma once
// Test-only helper for whole-system tests: a simulator configuration from the parameter table's
// defaults and a few KEY=VALUE settings, exactly as `fcal-sim --set` builds it.
#include <string>
#include <utility>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal::test {

inline sim::SimConfig configure(const std::vector<std::pair<std::string, std::string>>& sets)
{
    sim::ParameterTable t = sim::fcal_parameters();
    for (const auto& [k, v] : sets) t.set(k, v);
    return sim::build_config(t);
}

}  // namespace fcal::test
