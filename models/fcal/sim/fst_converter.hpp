#pragma once
// VCD to FST (docs/cli.md, "Smaller waveforms"): a path ending in ".fst" gets GTKWave's compressed
// format. Neither SystemC's tracing nor the Verilated model (built without --trace-fst) writes FST,
// so the run writes its VCD to a temporary file and GTKWave's own converter, vcd2fst (Debian
// package gtkwave), turns it into FST at the end.
#include <string>

namespace fcal::sim {

class FstConverter {
public:
    // True for a path that asks for FST (it ends in ".fst", any case).
    static bool wanted(const std::string& path);
    // vcd2fst's full path, found on PATH ("" if it is not there).
    static std::string program();

    // Converts: "" or why it failed (vcd2fst's exit status, or no FST written; its own output is
    // not shown).
    static std::string convert(const std::string& vcd, const std::string& fst);
};

}  // namespace fcal::sim
