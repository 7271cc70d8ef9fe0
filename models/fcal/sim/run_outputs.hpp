#pragma once
// fcal-sim's output files (docs/cli.md, "fcal-sim": nothing lost at the edges): checked with the
// configuration before anything is made, created as temporary files (sim/output_file.hpp) once
// everything has been checked, written after the run and renamed onto their paths only when every
// one of them is complete. An interrupted run's trace and VCD, cut at an arbitrary point, are dropped.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/sim/output_file.hpp"
#include "fcal/sim/vcd_output.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"

namespace fcal::sim {

// "" for an output not asked for.
struct OutputPaths {
    std::string stats_json;  // "-": standard output (written by the caller)
    std::string cdf, trace, vcd;
    // How the VCDs are narrowed (docs/cli.md, "Smaller waveforms"); each needs vcd.
    std::string vcd_window;              // "START_US:END_US", "" the whole run
    std::vector<std::string> vcd_ports;  // port names, empty: every port
    bool vcd_rtl_pins = false;           // the RTL's VCD holds only its top's pins
};

class RunOutputs {
public:
    explicit RunOutputs(OutputPaths paths) : paths_(std::move(paths)) {}

    // What the outputs must satisfy with `config`: a ConfigError naming the option. Creates nothing.
    void check(const SimConfig& config) const;
    // Creates the temporary files (--check creates and removes them: the only sure test that a
    // folder can be written). ConfigError if one cannot be made.
    void create(const SimConfig& config);
    // Points the trace and the VCDs of `system` at their temporary files (before the run;
    // std::runtime_error if the RTL's VCD cannot be opened).
    void observe(StorageSystem& system);
    // After the run: writes the stats document and the CDF and closes every file; the errors, one
    // line each naming the output ("" none). With `interrupted` the trace and VCD are not checked.
    std::vector<std::string> finish(const StorageSystem& system, const nlohmann::json& stats, bool interrupted);
    // Renames the files onto their paths (not the trace and VCD of an interrupted run): the errors.
    std::vector<std::string> commit(bool interrupted);

private:
    OutputPaths paths_;
    std::unique_ptr<OutputFile> stats_, cdf_, trace_;
    std::unique_ptr<VcdOutput> vcd_, rtl_vcd_;
};

}  // namespace fcal::sim
