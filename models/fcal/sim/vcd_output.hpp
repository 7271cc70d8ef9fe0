#pragma once
// One waveform output of fcal-sim (the ports' or the RTL's; docs/cli.md, "Smaller waveforms"): the
// file at the path given, in the format its name asks for (".fst": FST, else VCD), optionally cut to
// a window. The tracer always writes a VCD; when the file needs more (a window, FST) that VCD goes
// to a scratch file beside the target and is filtered and/or converted into the target's temporary
// file at the end. Like every output, the target is renamed onto its path only when complete.
#include <memory>
#include <optional>
#include <string>

#include "fcal/sim/output_file.hpp"
#include "fcal/sim/vcd_window.hpp"

namespace fcal::sim {

class VcdOutput {
public:
    // Creates the temporary files (ConfigError if one cannot be made).
    VcdOutput(const std::string& option, const std::string& path, std::optional<VcdWindow> window);

    // Where the tracer writes its VCD (it ends in ".vcd").
    const std::string& writer_path() const { return (raw_ ? raw_ : target_)->temporary(); }
    // After the tracer closed its file: windows and converts. "" or a one-line error naming the output.
    std::string finish();
    // The same error text for a failure found otherwise.
    std::string error(const std::string& why) const { return target_->error(why); }
    std::string commit() { return target_->commit(); }

private:
    std::optional<VcdWindow> window_;
    bool fst_;
    std::unique_ptr<OutputFile> target_, raw_, windowed_;  // raw_ and windowed_ are scratch files, never committed
};

}  // namespace fcal::sim
