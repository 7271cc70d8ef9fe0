// fcal-sim: the simulator's command line. With no arguments it runs the baseline scenario
// (docs/model.md, "The baseline scenario") and prints a readable summary.
//
// Exit codes: 0 every I/O ended, completed or failed (docs/model.md, "Faults and recovery: FCP
// recovery": failed I/Os are counted in the results, failed_ios, and named on stderr); 1 the time limit (sim.time_limit_s) stopped the run first;
// 2 bad input (configuration key, value, file or output path; one line on stderr naming it, before
// anything runs); 3 deadlock (I/Os outstanding and nothing left to happen; every port's state is
// printed); 4 the RTL transmit queue (cmdf.impl=rtl) failed a check: an assertion inside it, an
// answer naming no queued frame, or with rtl.lockstep a decision the reference model takes
// differently (the first failure is printed); 5 internal error: an exception or SystemC error
// escaped the model although the configuration passed every check, or the I/O account (issued =
// completed + failed + outstanding, checked after every run) does not balance (a bug; the message is
// printed).
// No other code is returned: every exception is caught here.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fcal/hba/io_request.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"
#include "test_hooks.hpp"

using namespace fcal;

namespace {

void print_summary(const sim::SimConfig& c, const nlohmann::json& r)
{
    const std::string where = c.transport == sim::Transport::Ideal
                                  ? std::string("behind the ideal transport")
                                  : "on a " + phy::to_string(c.loop.rate) + " loop (" + std::to_string(c.loop.nodes) + " nodes)";
    if (c.workload.type == sim::WorkloadType::Erase)
        std::printf("fcal-sim: %u disks %s, erase workload, schedule %s\n", c.disk.count, where.c_str(),
                    sim::to_string(c.schedule).c_str());
    else
        std::printf("fcal-sim: %u disks %s, %s workload, queue depth %u, %llu-byte I/Os, %.0f%% reads, schedule %s\n",
                    c.disk.count, where.c_str(), sim::to_string(c.workload.type).c_str(),
                    c.workload.queue_depth, static_cast<unsigned long long>(c.workload.io_size), c.workload.read_fraction * 100,
                    sim::to_string(c.schedule).c_str());
    std::printf("  measured I/Os      %llu over %.6f s (warm-up and cool-down %llu each)\n",
                static_cast<unsigned long long>(r["measured_ios"].get<std::uint64_t>()), r["measured_time_s"].get<double>(),
                static_cast<unsigned long long>(r["warmup_ios"].get<std::uint64_t>()));
    std::printf("  throughput         %.1f IOPS, %.2f MB/s\n", r["iops"].get<double>(), r["mb_per_s"].get<double>());
    std::printf("  response time      mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us\n", r["mean_response_us"].get<double>(),
                r["p50_response_us"].get<double>(), r["p99_response_us"].get<double>(), r["max_response_us"].get<double>());
    std::printf("  command wait (HBA) mean %.1f us, p99 %.1f us\n", r["command_wait_mean_us"].get<double>(), r["command_wait_p99_us"].get<double>());
    if (c.volume.raid != controller::RaidLevel::None)
        std::printf("  volume             %s over %u disks, %llu KiB stripe unit, %s\n", controller::to_string(c.volume.raid).c_str(),
                    c.disk.count, static_cast<unsigned long long>(c.volume.stripe_kib), controller::to_string(c.volume.split_merge).c_str());
    if (r.contains("erase_time_s"))
        std::printf("  erase              %s, %s, %u disks, %u blocks per command: %.3f s\n", host::to_string(c.erase.command),
                    host::to_string(c.erase.strategy), c.erase.disks, r["erase"]["blocks_per_command"].get<unsigned>(),
                    r["erase_time_s"].get<double>());
    const auto& m = r["disk_mechanics"];
    if (c.disk.model == disk::DiskModel::Zoned)
        // Disk 0's geometry (disk.<i>.* overrides may make the others differ).
        std::printf("  zoned disks        capacity %.3f GB each (%u cylinders x %u heads, %u rpm); mean seek %.1f us, rotation %.1f us, transfer %.1f us\n",
                    m["capacity_bytes"].get<std::uint64_t>() / 1e9, c.disks.front().cylinders, c.disks.front().heads,
                    static_cast<unsigned>(c.disks.front().rpm), m["mean_seek_us"].get<double>(), m["mean_rotation_us"].get<double>(),
                    m["mean_transfer_us"].get<double>());
    if (r["ports"].empty()) {  // transport=ideal
        std::printf("  transport          ideal; simulated %.6f s in %.3f s wall\n", r["sim_time_s"].get<double>(),
                    r["wall_time_s"].get<double>());
        return;
    }
    const auto& ctl = r["ports"][0];
    std::printf("  controller port    arbitration wait mean %.2f us, max %.2f us; loop tenancy %.1f%%\n",
                ctl["arbitration_wait_mean_us"].get<double>(), ctl["arbitration_wait_max_us"].get<double>(),
                ctl["tenancy_share"].get<double>() * 100);
    if (r["task_set_full_retries"].get<std::uint64_t>() > 0)
        std::printf("  TASK SET FULL      %llu commands retried\n",
                    static_cast<unsigned long long>(r["task_set_full_retries"].get<std::uint64_t>()));
    double tenancy = 0;
    for (const auto& p : r["ports"]) tenancy += p["tenancy_share"].get<double>();
    if (r["aborts"].get<std::uint64_t>() > 0 || r["failed_ios"].get<std::uint64_t>() > 0)
        std::printf("  recovery           %llu exchanges aborted, %llu retries, %llu I/Os failed, %llu late frames dropped\n",
                    static_cast<unsigned long long>(r["aborts"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["retries"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["failed_ios"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["late_frames"].get<std::uint64_t>()));
    std::printf("  loop               owned %.1f%% of the time; simulated %.6f s in %.3f s wall\n", tenancy * 100,
                r["sim_time_s"].get<double>(), r["wall_time_s"].get<double>());
}

// The documented exit codes (file comment above; README, "fcal-sim").
enum ExitCode : int { kCompleted = 0, kTimeLimit = 1, kBadInput = 2, kDeadlock = 3, kRtlError = 4, kInternalError = 5 };

constexpr const char* kExitCodes =
    "Exit codes: 0 every I/O completed or failed (failed I/Os: failed_ios in the results, a line on stderr); "
    "1 sim.time_limit_s reached first; 2 bad input (key, value, file or output "
    "path, named on stderr); 3 deadlock (I/Os outstanding, nothing left to happen); 4 the RTL transmit queue failed a "
    "check (cmdf.impl=rtl); 5 internal error (an exception escaped the model, or the I/O account issued = completed + "
    "failed + outstanding does not balance: a bug).";

// Opens an output before anything runs, so that an unwritable path is bad input found at once
// (exit 2 naming the option and the path), not a SystemC error or a lost run afterwards.
void open_output(const char* option, const std::string& path, std::ofstream& out)
{
    out.open(path);
    if (!out) throw sim::ConfigError(std::string(option) + ": cannot write '" + path + "'");
}

struct Options {
    std::string config_file, stats_json, trace_path, vcd_path, cdf_path;
    std::vector<std::string> sets;
    bool list = false, quiet = false;
    std::uint64_t lose_io = 0, throw_io = 0;  // test-only hooks
    std::vector<std::string> drop_frames;
    long long drop_disk = -1;
};

// The outputs, opened before the run.
struct Outputs {
    std::ofstream stats, trace, cdf;
    std::string vcd_base;  // PATH without ".vcd"
};

Outputs open_outputs(const Options& o, const sim::SimConfig& config)
{
    Outputs out;
    if (config.transport == sim::Transport::Ideal) {
        // The ideal transport has no loop ports to watch.
        if (!o.trace_path.empty()) throw sim::ConfigError("--trace: transport=ideal has no loop ports to trace");
        if (!o.vcd_path.empty()) throw sim::ConfigError("--vcd: transport=ideal has no loop ports to trace");
    }
    if (!o.stats_json.empty() && o.stats_json != "-") open_output("--stats-json", o.stats_json, out.stats);
    if (!o.trace_path.empty()) open_output("--trace", o.trace_path, out.trace);
    if (!o.cdf_path.empty()) open_output("--cdf", o.cdf_path, out.cdf);
    if (!o.vcd_path.empty()) {
        out.vcd_base = o.vcd_path;
        if (out.vcd_base.size() > 4 && out.vcd_base.compare(out.vcd_base.size() - 4, 4, ".vcd") == 0)
            out.vcd_base.resize(out.vcd_base.size() - 4);
        // SystemC and Verilator open their files only once the run starts; try them now.
        std::ofstream ports, rtl;
        open_output("--vcd", out.vcd_base + ".vcd", ports);
        if (config.cmdf.impl == sim::CmdfImpl::Rtl) open_output("--vcd", out.vcd_base + "_rtl.vcd", rtl);
    }
    return out;
}

int run_simulator(int argc, char* argv[])
{
    CLI::App app{"fcal-sim: FC-AL storage back end simulator (runs the baseline scenario with no arguments)"};
    app.footer(std::string(kExitCodes));
    Options o;
    app.add_option("--config", o.config_file, "JSON configuration (nested objects or dotted keys)");
    app.add_option("--set", o.sets, "KEY=VALUE, applied after the file (repeatable)");
    app.add_option("--stats-json", o.stats_json, "write the results as JSON to PATH ('-' for stdout)");
    app.add_flag("--list-params", o.list, "print every parameter: key, default, unit, range, description");
    app.add_option("--trace", o.trace_path, "write the port-watcher trace of every port to PATH");
    app.add_option("--vcd", o.vcd_path, "write a VCD of every port to PATH");
    app.add_option("--cdf", o.cdf_path, "write the measured response-time distribution to PATH (CSV: quantile,response_us)");
    app.add_flag("--quiet", o.quiet, "no summary on stdout");
    app.add_option("--test-lose-io", o.lose_io, "test only: the N-th completion never reaches the driver")->group("");
    app.add_option("--test-throw-io", o.throw_io, "test only: the N-th completion throws")->group("");
    app.add_option("--test-drop-frame", o.drop_frames, "test only: drop the N-th frame of KIND delivered to an HBA")->group("");
    app.add_option("--test-drop-disk", o.drop_disk, "test only: drop every frame delivered to disk D's HBA")->group("");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "fcal-sim: %s (see --help)\n", e.what());
        return kBadInput;
    }

    sim::ParameterTable table = sim::fcal_parameters();
    if (o.list) {
        table.list(std::cout);
        return kCompleted;
    }
    sim::SimConfig config;
    std::unique_ptr<sim::StorageSystem> system;
    Outputs out;
    try {
        if (!o.config_file.empty()) table.load_json_file(o.config_file);
        for (const auto& s : o.sets) table.set_assignment(s);
        config = sim::build_config(table);
        out = open_outputs(o, config);
        system = std::make_unique<sim::StorageSystem>("system", config);
    } catch (const loop::ConfigError& e) {  // the parameter table's, the loop's and the outputs'
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return kBadInput;
    }
    if (out.trace.is_open()) system->watch_ports(out.trace);
    if (!out.vcd_base.empty()) {
        try {
            system->trace_vcd(out.vcd_base);
        } catch (const std::runtime_error& e) {  // the RTL's VCD, opened at once
            std::fprintf(stderr, "fcal-sim: --vcd: %s\n", e.what());
            return kBadInput;
        }
    }
    std::unique_ptr<tb::CompletionHook> hook;
    if (o.lose_io > 0 || o.throw_io > 0) {
        if (config.transport != sim::Transport::Loop) {
            std::fprintf(stderr, "fcal-sim: --test-lose-io/--test-throw-io: need transport=loop (they sit behind the HBA)\n");
            return kBadInput;
        }
        hook = std::make_unique<tb::CompletionHook>(system->driver(), o.lose_io, o.throw_io);
        system->initiator().set_completion(hook.get());
    }
    tb::FrameDrop drop;
    std::vector<std::unique_ptr<tb::DroppingPortUser>> droppers;
    if (!o.drop_frames.empty() || o.drop_disk >= 0) {
        try {
            if (config.transport != sim::Transport::Loop) throw sim::ConfigError("--test-drop-frame/--test-drop-disk: need transport=loop");
            if (o.drop_disk >= static_cast<long long>(config.disk.count))
                throw sim::ConfigError("--test-drop-disk: no disk " + std::to_string(o.drop_disk));
            for (const auto& rule : o.drop_frames) drop.add_rule(rule);
        } catch (const sim::ConfigError& e) {
            std::fprintf(stderr, "fcal-sim: %s\n", e.what());
            return kBadInput;
        }
        hba::InitiatorHba& ini = system->initiator();
        droppers.push_back(std::make_unique<tb::DroppingPortUser>("drop_initiator", ini.port(), ini, drop, false));
        for (unsigned d = 0; d < config.disk.count; ++d) {
            hba::TargetHba& t = system->target(d);
            droppers.push_back(std::make_unique<tb::DroppingPortUser>(("drop_disk" + std::to_string(d)).c_str(), t.port(), t, drop,
                                                                  o.drop_disk == static_cast<long long>(d)));
        }
    }

    if (host::EraseJob* job = system->erase_job()) {
        // Long erasure jobs report every tenth of their commands (stderr: not part of any result).
        job->on_progress([](std::uint64_t done, std::uint64_t total) {
            std::fprintf(stderr, "fcal-sim: erase %3llu %% (%llu of %llu commands) at %.3f s simulated\n",
                         static_cast<unsigned long long>(done * 100 / total), static_cast<unsigned long long>(done),
                         static_cast<unsigned long long>(total), sc_core::sc_time_stamp().to_seconds());
        });
    }
    const auto t0 = std::chrono::steady_clock::now();
    const sim::RunResult run = system->run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    nlohmann::json results = system->results();
    const std::string account = system->account_violation();
    results["wall_time_s"] = wall;
    results["run_end"] = run.end == sim::RunEnd::Completed   ? "completed"
                         : run.end == sim::RunEnd::TimeLimit ? "time_limit"
                         : run.end == sim::RunEnd::Deadlock  ? "deadlock"
                                                             : "rtl_error";
    nlohmann::json doc = {{"config", sim::to_json(config)}, {"results", results}};
    if (!o.stats_json.empty()) {
        const std::string text = doc.dump(2) + "\n";
        if (o.stats_json == "-") {
            std::cout << text;
        } else if (!(out.stats << text) || !out.stats.flush()) {
            std::fprintf(stderr, "fcal-sim: --stats-json: cannot write '%s'\n", o.stats_json.c_str());
            return kBadInput;
        }
    }
    if (out.cdf.is_open()) {
        system->write_cdf(out.cdf);
        if (!out.cdf.flush()) {
            std::fprintf(stderr, "fcal-sim: --cdf: cannot write '%s'\n", o.cdf_path.c_str());
            return kBadInput;
        }
    }
    if (!o.quiet && o.stats_json != "-") print_summary(config, results);
    if (!account.empty()) {
        std::fprintf(stderr, "fcal-sim: internal error: the I/O account does not balance: %s\n", account.c_str());
        return kInternalError;
    }
    if (run.end == sim::RunEnd::RtlError) {
        std::fprintf(stderr, "fcal-sim: %s", run.diagnosis.c_str());
        return kRtlError;
    }
    if (run.end == sim::RunEnd::Deadlock) {
        std::fprintf(stderr, "fcal-sim: deadlock: I/Os are outstanding and nothing is left to happen\n%s", run.diagnosis.c_str());
        return kDeadlock;
    }
    if (run.end == sim::RunEnd::TimeLimit) {
        std::fprintf(stderr, "fcal-sim: sim.time_limit_s reached before all I/Os completed\n%s", run.diagnosis.c_str());
        return kTimeLimit;
    }
    // Failed I/Os end the run like completed ones (exit 0), but not silently.
    const auto failed = results["failed_ios"].get<std::uint64_t>();
    if (failed > 0)
        std::fprintf(stderr, "fcal-sim: %llu I/Os failed after %u retries each; the first: %s\n", static_cast<unsigned long long>(failed),
                     config.driver.retries, results["failures"][0].get<std::string>().c_str());
    return kCompleted;
}

}  // namespace

int sc_main(int argc, char* argv[])
{
    // sc_stop() at the end of a run is expected, not news.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    // Whatever escapes the model (a SystemC error, an exception from a process, an allocation
    // failure) is a bug, not a time limit: SystemC's own handler would exit 1. Fatal SystemC reports
    // (sc_assert) are thrown too rather than aborting, so that they end the same way.
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
    try {
        return run_simulator(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fcal-sim: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "fcal-sim: internal error: unknown exception\n");
    }
    return kInternalError;
}
