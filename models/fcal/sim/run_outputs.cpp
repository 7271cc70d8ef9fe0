#include "fcal/sim/run_outputs.hpp"

#include <filesystem>

#include "fcal/sim/user_text.hpp"

namespace fcal::sim {

namespace {

// The RTL's VCD beside the ports' (cmdf.impl=rtl): PATH without ".vcd", then "_rtl.vcd".
std::string rtl_vcd_path(const std::string& vcd_path)
{
    const bool vcd = vcd_path.size() > 4 && vcd_path.compare(vcd_path.size() - 4, 4, ".vcd") == 0;
    return (vcd ? vcd_path.substr(0, vcd_path.size() - 4) : vcd_path) + "_rtl.vcd";
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
        files.push_back(std::filesystem::weakly_canonical(t.path, ec));
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
    if (!paths_.vcd.empty()) vcd_ = std::make_unique<OutputFile>("--vcd", paths_.vcd, ".vcd");
    if (rtl_vcd(paths_, config)) rtl_vcd_ = std::make_unique<OutputFile>("--vcd", rtl_vcd_path(paths_.vcd), ".vcd");
}

void RunOutputs::observe(StorageSystem& system)
{
    if (vcd_) {
        const std::string& base = vcd_->temporary();
        system.trace_vcd(base.substr(0, base.size() - 4), rtl_vcd_ ? rtl_vcd_->temporary() : std::string());
    }
    if (trace_) system.watch_ports(trace_->stream());
}

std::vector<std::string> RunOutputs::finish(const StorageSystem& system, const nlohmann::json& stats, bool interrupted)
{
    if (stats_) stats_->stream() << stats.dump(2) << "\n";
    if (cdf_) system.statistics().write_cdf(cdf_->stream());
    std::vector<std::string> errors;
    for (OutputFile* f : {stats_.get(), cdf_.get(), trace_.get()})
        if (f)
            if (std::string e = f->finish(); !e.empty()) errors.push_back(e);
    if (vcd_ && !interrupted && !system.ports_vcd_complete()) errors.push_back(vcd_->error("the file was cut short: is the disk full?"));
    if (rtl_vcd_ && !interrupted)
        if (const std::string e = system.rtl_vcd_error(); !e.empty()) errors.push_back(rtl_vcd_->error(e));
    return errors;
}

std::vector<std::string> RunOutputs::commit(bool interrupted)
{
    std::vector<std::string> errors;
    for (OutputFile* f : {stats_.get(), cdf_.get()})
        if (f)
            if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    if (!interrupted)
        for (OutputFile* f : {trace_.get(), vcd_.get(), rtl_vcd_.get()})
            if (f)
                if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    return errors;
}

}  // namespace fcal::sim
