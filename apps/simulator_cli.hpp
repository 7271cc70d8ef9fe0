#pragma once
// fcal-sim's command line (apps/simulator_cli.cpp says what it does and returns), shared by the
// installed program (apps/fcal_sim.cpp) and variants that extend it: the test variant fcal-sim-test
// (tb/fcal_sim_test.cpp) adds its test-only hooks through CliExtension, so the installed program
// carries none of them.
#include <CLI/CLI.hpp>

#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"

namespace fcal::apps {

class CliExtension {
public:
    virtual ~CliExtension() = default;
    // Its own options.
    virtual void add_options(CLI::App& app) = 0;
    // Its options against the configuration, with the rest of the input: ConfigError is bad input.
    virtual void check(const sim::SimConfig& config) = 0;
    // Into the built system, before it runs.
    virtual void attach(sim::StorageSystem& system) = 0;
};

// The whole program: parses argv, runs, writes the outputs; returns the exit code. Every exception
// is caught.
int run_simulator_cli(int argc, char* argv[], CliExtension* extension = nullptr);

}  // namespace fcal::apps
