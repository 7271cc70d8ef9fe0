#include "fcal/sim/vcd_output.hpp"

#include <fstream>

#include "fcal/sim/fst_converter.hpp"

namespace fcal::sim {

VcdOutput::VcdOutput(const std::string& option, const std::string& path, std::optional<VcdWindow> window)
    : window_(window), fst_(FstConverter::wanted(path))
{
    target_ = std::make_unique<OutputFile>(option, path, fst_ ? ".fst" : ".vcd");
    if (window_ || fst_) raw_ = std::make_unique<OutputFile>(option, path, ".vcd");
    if (window_ && fst_) windowed_ = std::make_unique<OutputFile>(option, path, ".vcd");
}

std::string VcdOutput::finish()
{
    std::string vcd = writer_path();
    if (window_) {
        OutputFile& out = windowed_ ? *windowed_ : *target_;
        std::ifstream in(vcd, std::ios::binary);
        if (!in) return target_->error("cannot read the VCD back");
        if (const std::string e = window_->filter(in, out.stream()); !e.empty()) return target_->error("--vcd-window: " + e);
        if (const std::string e = out.finish(); !e.empty()) return e;
        vcd = out.temporary();
    }
    if (fst_)
        if (const std::string e = FstConverter::convert(vcd, target_->temporary()); !e.empty()) return target_->error(e);
    return "";
}

}  // namespace fcal::sim
