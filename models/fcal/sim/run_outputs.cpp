#include "fcal/sim/run_outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <optional>

#include "fcal/sim/fst_converter.hpp"
#include "fcal/sim/module_configs.hpp"
#include "fcal/sim/user_text.hpp"
#include "fcal/sim/vcd_window.hpp"

namespace fcal::sim {

namespace {

// The RTL's VCD beside the ports' (cmdf.impl=rtl), in the same format: PATH without ".vcd" (".fst"),
// then "_rtl.vcd" ("_rtl.fst").
std::string rtl_vcd_path(const std::string& vcd_path)
{
    const bool fst = FstConverter::wanted(vcd_path);
    const bool vcd = vcd_path.size() > 4 && vcd_path.compare(vcd_path.size() - 4, 4, ".vcd") == 0;
    const std::string base = vcd || fst ? vcd_path.substr(0, vcd_path.size() - 4) : vcd_path;
    return base + (fst ? "_rtl" + vcd_path.substr(vcd_path.size() - 4) : std::string("_rtl.vcd"));
}

// Names that ask for something fcal does not write (compression, another dump format): refused
// rather than written as a plain VCD under a misleading name.
void check_vcd_name(const std::string& path)
{
    static const char* const others[] = {".gz", ".bz2", ".xz", ".zst", ".lz4", ".zip", ".lxt", ".lxt2", ".vzt", ".ghw", ".wlf", ".fsdb"};
    std::string lower = std::filesystem::path(path).extension().string();
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* ext : others)
        if (lower == ext)
            throw ConfigError("--vcd: '" + escape_controls(path) + "': fcal writes VCD, or FST for a name ending in .fst, not " + ext +
                              " (the file would not be what its name says)");
    if (FstConverter::wanted(path) && FstConverter::program().empty())
        throw ConfigError("--vcd: '" + escape_controls(path) + "': FST needs vcd2fst (Debian package gtkwave), which is not on PATH");
}

std::optional<VcdWindow> vcd_window(const OutputPaths& paths)
{
    if (paths.vcd_window.empty()) return std::nullopt;
    return VcdWindow::parse("--vcd-window", paths.vcd_window);
}

bool rtl_vcd(const OutputPaths& paths, const SimConfig& config) { return !paths.vcd.empty() && config.cmdf_impl == CmdfImpl::Rtl; }

}  // namespace

void RunOutputs::check(const SimConfig& config) const
{
    if (config.transport == Transport::Ideal) {
        // The ideal transport has no loop ports to watch.
        if (!paths_.trace.empty()) throw ConfigError("--trace: transport=ideal has no loop ports to trace");
        if (!paths_.vcd.empty()) throw ConfigError("--vcd: transport=ideal has no loop ports to trace");
    }
    // (option, path, needs a file of its own: the VCD writers add to the name or reopen it)
    struct Target {
        const char* option;
        std::string path;
        bool file_only;
    };
    if (!paths_.vcd.empty()) {
        check_vcd_name(paths_.vcd);
        vcd_window(paths_);
        if (paths_.vcd_rtl_pins && config.cmdf_impl != CmdfImpl::Rtl)
            throw ConfigError("--vcd-rtl-pins: there is no RTL VCD (cmdf.impl is not rtl)");
        if (!paths_.vcd_ports.empty()) {
            std::vector<std::string> ports;
            for (const loop::LoopNode& node : module_configs(config).loop.nodes)
                if (!node.passive) ports.push_back(node.port.name);
            for (const std::string& name : paths_.vcd_ports)
                if (std::find(ports.begin(), ports.end(), name) == ports.end())
                    throw ConfigError("--vcd-ports: no port '" + escape_controls(name) + "' (the ports: " + ports.front() +
                                      (ports.size() > 1 ? ", " + ports[1] : std::string()) +
                                      (ports.size() > 3 ? " ... " : ports.size() > 2 ? ", " : "") +
                                      (ports.size() > 2 ? ports.back() : std::string()) + ")");
        }
    }
    std::vector<Target> targets;
    if (!paths_.stats_json.empty() && paths_.stats_json != "-") targets.push_back({"--stats-json", paths_.stats_json, false});
    if (!paths_.cdf.empty()) targets.push_back({"--cdf", paths_.cdf, false});
    if (!paths_.trace.empty()) targets.push_back({"--trace", paths_.trace, false});
    if (!paths_.vcd.empty()) targets.push_back({"--vcd", paths_.vcd, true});
    if (rtl_vcd(paths_, config)) targets.push_back({"--vcd", rtl_vcd_path(paths_.vcd), true});
    std::vector<std::filesystem::path> files;  // two outputs renamed onto one file would overwrite each other
    for (const Target& t : targets) {
        OutputFile::check_target(t.option, t.path, t.file_only);
        std::error_code ec;
        if (std::filesystem::exists(t.path, ec) && !std::filesystem::is_regular_file(t.path, ec)) continue;  // /dev/null
        // (Absolute first: a relative path to a file not yet there is otherwise left as spelt, so that
        // "x" and "./x" would look like two files.)
        files.push_back(std::filesystem::weakly_canonical(std::filesystem::absolute(t.path, ec), ec));
        for (std::size_t j = 0; j + 1 < files.size(); ++j)
            if (files[j] == files.back())
                throw ConfigError(std::string(t.option) + ": '" + escape_controls(t.path) + "' is the path of another output");
    }
}

void RunOutputs::create(const SimConfig& config)
{
    if (!paths_.stats_json.empty() && paths_.stats_json != "-") stats_ = std::make_unique<OutputFile>("--stats-json", paths_.stats_json);
    if (!paths_.cdf.empty()) cdf_ = std::make_unique<OutputFile>("--cdf", paths_.cdf);
    if (!paths_.trace.empty()) trace_ = std::make_unique<OutputFile>("--trace", paths_.trace);
    if (!paths_.vcd.empty()) vcd_ = std::make_unique<VcdOutput>("--vcd", paths_.vcd, vcd_window(paths_));
    if (rtl_vcd(paths_, config)) rtl_vcd_ = std::make_unique<VcdOutput>("--vcd", rtl_vcd_path(paths_.vcd), vcd_window(paths_));
}

void RunOutputs::observe(StorageSystem& system)
{
    if (vcd_) {
        const std::string& base = vcd_->writer_path();
        system.trace_vcd(base.substr(0, base.size() - 4), rtl_vcd_ ? rtl_vcd_->writer_path() : std::string(), paths_.vcd_ports,
                         paths_.vcd_rtl_pins, vcd_window(paths_));
    }
    if (trace_) system.watch_ports(trace_->stream());
}

std::vector<std::string> RunOutputs::finish(const StorageSystem& system, const nlohmann::json& stats, bool interrupted)
{
    if (stats_) stats_->stream() << std::setw(2) << stats << "\n";  // as dump(2), without a copy in memory
    if (cdf_) system.statistics().write_cdf(cdf_->stream());
    std::vector<std::string> errors;
    for (OutputFile* f : {stats_.get(), cdf_.get(), trace_.get()})
        if (f)
            if (std::string e = f->finish(); !e.empty()) errors.push_back(e);
    if (interrupted) return errors;
    if (vcd_) {
        if (!system.ports_vcd_complete())
            errors.push_back(vcd_->error("the file was cut short: is the disk full?"));
        else if (const std::string e = vcd_->finish(); !e.empty())
            errors.push_back(e);
    }
    if (rtl_vcd_) {
        if (const std::string e = system.rtl_vcd_error(); !e.empty())
            errors.push_back(rtl_vcd_->error(e));
        else if (const std::string e2 = rtl_vcd_->finish(); !e2.empty())
            errors.push_back(e2);
    }
    return errors;
}

std::vector<std::string> RunOutputs::commit(bool interrupted)
{
    std::vector<std::string> errors;
    for (OutputFile* f : {stats_.get(), cdf_.get()})
        if (f)
            if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    if (!interrupted)
    {
        if (trace_)
            if (std::string e = trace_->commit(); !e.empty()) errors.push_back(e);
        for (VcdOutput* f : {vcd_.get(), rtl_vcd_.get()})
            if (f)
                if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    }
    return errors;
}

}  // namespace fcal::sim
