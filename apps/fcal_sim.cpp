// fcal-sim: the simulator's command line. With no arguments it runs the baseline scenario
// (docs/model.md, "The baseline scenario") and prints a readable summary.
//
// Exit codes: 0 every I/O ended, completed or failed (docs/model.md, "Faults and recovery: FCP
// recovery": failed I/Os are counted in the results, failed_ios, and named on stderr); 1 the time
// limit (sim.time_limit_s) stopped the run first; 2 bad input (configuration key, value, file or
// output path; one line on stderr naming it, before anything runs or any file is touched); 3
// deadlock (I/Os outstanding and nothing left to happen; every port's state is printed); 4 the RTL
// transmit queue (cmdf.impl=rtl) failed a check: an assertion inside it, an answer naming no queued
// frame, or with rtl.lockstep a decision the reference model takes differently (the first failure
// is printed); 5 internal error: an exception or SystemC error escaped the model although the
// configuration passed every check, or the I/O account (issued = completed + failed + outstanding,
// checked after every run) does not balance (a bug; the message is printed); 6 an output could not
// be written (a file given by --stats-json, --cdf, --trace or --vcd, or standard output; one line
// names it; no file at those paths is changed); 130 and 143 the run was interrupted by SIGINT or
// SIGTERM (or, with --stop-with-parent, its parent ended): it stops at the next slice of simulated
// time, the stats JSON and CDF describe the partial run (run_end "interrupted"), the trace and VCD
// are not written. Where two apply, 5 comes before 6 and 6 before the rest.
// No other code is returned: every exception is caught here.
//
// Outputs (fcal/sim/output_file.hpp): each is written to a temporary file beside its path and renamed
// onto it only when complete, so a refused, failed or interrupted run leaves existing files as
// they were.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <signal.h>
#include <unistd.h>

#include "fcal/hba/io_request.hpp"
#include "fcal/loop/loop.hpp"
#include "fcal/sim/output_file.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"
#include "fcal/sim/user_text.hpp"
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
enum ExitCode : int {
    kCompleted = 0,
    kTimeLimit = 1,
    kBadInput = 2,
    kDeadlock = 3,
    kRtlError = 4,
    kInternalError = 5,
    kWriteError = 6,
    kInterruptedBase = 128,  // + the signal's number, as shells report it: 130 SIGINT, 143 SIGTERM
};

constexpr const char* kExitCodes =
    "Exit codes: 0 every I/O completed or failed (failed I/Os: failed_ios in the results, a line on stderr); "
    "1 sim.time_limit_s reached first; 2 bad input (key, value, file or output "
    "path, named on stderr; nothing runs, no file is touched); 3 deadlock (I/Os outstanding, nothing left to happen); "
    "4 the RTL transmit queue failed a check (cmdf.impl=rtl); 5 internal error (an exception escaped the model, or the "
    "I/O account issued = completed + failed + outstanding does not balance: a bug); 6 an output could not be written "
    "(the file or standard output is named; no file at the output paths is changed); 130 / 143 interrupted by SIGINT / "
    "SIGTERM (stats JSON and CDF hold the partial run, run_end interrupted; trace and VCD are not written). "
    "Outputs go to a temporary file beside their path, renamed onto it only when complete.";

// The signal that asked the run to stop (0: none). The handler only records it; the run looks at
// it between slices of simulated time (StorageSystem::run).
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void record_stop_signal(int signal) { g_stop_signal = signal; }

// SIGINT and SIGTERM stop the run cleanly; a second one ends the program at once (SA_RESETHAND).
// A signal the caller ignores (a shell's background job ignores SIGINT) stays ignored.
void catch_stop_signals()
{
    for (int signal : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction action {};
        action.sa_handler = record_stop_signal;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal, &action, nullptr);
    }
}

// Standard output, flushed and checked: "" or the error (a full disk behind a redirection).
std::string finish_stdout()
{
    std::cout.flush();
    if (std::fflush(stdout) == 0 && !std::ferror(stdout) && std::cout.good()) return "";
    return std::string("standard output: cannot write (") + std::strerror(errno) + ")";
}

int write_failed(const std::vector<std::string>& errors)
{
    for (const auto& e : errors) std::fprintf(stderr, "fcal-sim: %s\n", e.c_str());
    return kWriteError;
}

struct Options {
    std::string config_file, stats_json, trace_path, vcd_path, cdf_path;
    std::vector<std::string> sets;
    bool list = false, list_json = false, quiet = false, check = false, stop_with_parent = false;
    std::uint64_t lose_io = 0, throw_io = 0;  // test-only hooks
    std::vector<std::string> drop_frames;
    long long drop_disk = -1;
};

// The RTL's VCD beside the ports' (cmdf.impl=rtl): PATH without ".vcd", then "_rtl.vcd".
std::string rtl_vcd_path(const std::string& vcd_path)
{
    const bool vcd = vcd_path.size() > 4 && vcd_path.compare(vcd_path.size() - 4, 4, ".vcd") == 0;
    return (vcd ? vcd_path.substr(0, vcd_path.size() - 4) : vcd_path) + "_rtl.vcd";
}

// What the outputs must satisfy, checked with the configuration (nothing is created).
void check_outputs(const Options& o, const sim::SimConfig& config)
{
    if (config.transport == sim::Transport::Ideal) {
        // The ideal transport has no loop ports to watch.
        if (!o.trace_path.empty()) throw sim::ConfigError("--trace: transport=ideal has no loop ports to trace");
        if (!o.vcd_path.empty()) throw sim::ConfigError("--vcd: transport=ideal has no loop ports to trace");
    }
    // (option, path, needs a file of its own: the VCD writers add to the name or reopen it)
    struct Target {
        const char* option;
        std::string path;
        bool file_only;
    };
    std::vector<Target> targets;
    if (!o.stats_json.empty() && o.stats_json != "-") targets.push_back({"--stats-json", o.stats_json, false});
    if (!o.cdf_path.empty()) targets.push_back({"--cdf", o.cdf_path, false});
    if (!o.trace_path.empty()) targets.push_back({"--trace", o.trace_path, false});
    if (!o.vcd_path.empty()) targets.push_back({"--vcd", o.vcd_path, true});
    if (!o.vcd_path.empty() && config.cmdf.impl == sim::CmdfImpl::Rtl) targets.push_back({"--vcd", rtl_vcd_path(o.vcd_path), true});
    std::vector<std::filesystem::path> files;  // two outputs renamed onto one file would overwrite each other
    for (const Target& t : targets) {
        sim::OutputFile::check_target(t.option, t.path, t.file_only);
        std::error_code ec;
        if (std::filesystem::exists(t.path, ec) && !std::filesystem::is_regular_file(t.path, ec)) continue;  // /dev/null
        files.push_back(std::filesystem::weakly_canonical(t.path, ec));
        for (std::size_t j = 0; j + 1 < files.size(); ++j)
            if (files[j] == files.back())
                throw sim::ConfigError(std::string(t.option) + ": '" + sim::escape_controls(t.path) + "' is the path of another output");
    }
}

// The outputs' temporary files, created once everything has been checked.
struct Outputs {
    std::unique_ptr<sim::OutputFile> stats, cdf, trace, vcd, rtl_vcd;
};

Outputs create_outputs(const Options& o, const sim::SimConfig& config)
{
    Outputs out;
    if (!o.stats_json.empty() && o.stats_json != "-") out.stats = std::make_unique<sim::OutputFile>("--stats-json", o.stats_json);
    if (!o.cdf_path.empty()) out.cdf = std::make_unique<sim::OutputFile>("--cdf", o.cdf_path);
    if (!o.trace_path.empty()) out.trace = std::make_unique<sim::OutputFile>("--trace", o.trace_path);
    if (!o.vcd_path.empty()) out.vcd = std::make_unique<sim::OutputFile>("--vcd", o.vcd_path, ".vcd");
    if (!o.vcd_path.empty() && config.cmdf.impl == sim::CmdfImpl::Rtl)
        out.rtl_vcd = std::make_unique<sim::OutputFile>("--vcd", rtl_vcd_path(o.vcd_path), ".vcd");
    return out;
}

// The test-only hooks' own checks (bad input like any other).
void check_test_hooks(const Options& o, const sim::SimConfig& config, tb::FrameDrop& drop)
{
    if ((o.lose_io > 0 || o.throw_io > 0) && config.transport != sim::Transport::Loop)
        throw sim::ConfigError("--test-lose-io/--test-throw-io: need transport=loop (they sit behind the HBA)");
    if (o.drop_frames.empty() && o.drop_disk < 0) return;
    if (config.transport != sim::Transport::Loop) throw sim::ConfigError("--test-drop-frame/--test-drop-disk: need transport=loop");
    if (o.drop_disk >= static_cast<long long>(config.disk.count))
        throw sim::ConfigError("--test-drop-disk: no disk " + std::to_string(o.drop_disk));
    for (const auto& rule : o.drop_frames) drop.add_rule(rule);
}

int run_simulator(int argc, char* argv[])
{
    CLI::App app{"fcal-sim: FC-AL storage back end simulator (runs the baseline scenario with no arguments)"};
    app.footer(std::string(kExitCodes));
    Options o;
    std::vector<CLI::Option*> paths;
    paths.push_back(app.add_option("--config", o.config_file, "JSON configuration (nested objects or dotted keys)"));
    app.add_option("--set", o.sets, "KEY=VALUE, applied after the file (repeatable)");
    paths.push_back(app.add_option("--stats-json", o.stats_json, "write the results as JSON to PATH ('-' for stdout)"));
    auto* list = app.add_flag("--list-params", o.list, "print every parameter: key, default, unit, range, description");
    app.add_flag("--json", o.list_json, "with --list-params: as a JSON array (key, type, default, unit, range, description, per_disk)")
        ->needs(list);
    paths.push_back(app.add_option("--trace", o.trace_path, "write the port-watcher trace of every port to PATH"));
    paths.push_back(app.add_option("--vcd", o.vcd_path,
                                   "write a VCD of every port to PATH (with cmdf.impl=rtl the RTL's to PATH minus .vcd, plus _rtl.vcd)"));
    paths.push_back(app.add_option("--cdf", o.cdf_path, "write the measured response-time distribution to PATH (CSV: quantile,response_us)"));
    app.add_flag("--quiet", o.quiet, "no summary on stdout");
    app.add_flag("--check", o.check, "check the configuration and the output paths, then exit (0 or 2); nothing runs or is written");
    app.add_flag("--stop-with-parent", o.stop_with_parent,
                 "stop the run as on SIGTERM when the process that started fcal-sim ends (for tools that run many)");
    app.add_option("--test-lose-io", o.lose_io, "test only: the N-th completion never reaches the driver")->group("");
    app.add_option("--test-throw-io", o.throw_io, "test only: the N-th completion throws")->group("");
    app.add_option("--test-drop-frame", o.drop_frames, "test only: drop the N-th frame of KIND delivered to an HBA")->group("");
    app.add_option("--test-drop-disk", o.drop_disk, "test only: drop every frame delivered to disk D's HBA")->group("");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "fcal-sim: %s (see --help)\n", sim::escape_controls(e.what()).c_str());
        return kBadInput;
    }
    for (const CLI::Option* option : paths)
        if (option->count() > 0 && option->as<std::string>().empty()) {
            std::fprintf(stderr, "fcal-sim: %s: an empty path\n", option->get_name().c_str());
            return kBadInput;
        }

    sim::ParameterTable table = sim::fcal_parameters();
    if (o.list) {
        if (o.list_json)
            table.list_json(std::cout);
        else
            table.list(std::cout);
        const std::string error = finish_stdout();
        return error.empty() ? kCompleted : write_failed({error});
    }
    catch_stop_signals();
    const pid_t parent = ::getppid();
    sim::SimConfig config;
    tb::FrameDrop drop;
    try {
        if (!o.config_file.empty()) table.load_json_file(o.config_file);
        for (const auto& s : o.sets) table.set_assignment(s);
        config = sim::build_config(table);
        check_outputs(o, config);
        check_test_hooks(o, config, drop);
        // The files are only made once everything has been checked; --check makes and removes them
        // (the only sure test that a folder can be written).
        if (o.check) {
            create_outputs(o, config);
            return kCompleted;
        }
    } catch (const loop::ConfigError& e) {  // the parameter table's and the outputs'
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return kBadInput;
    }
    std::unique_ptr<sim::StorageSystem> system;
    Outputs out;
    try {
        system = std::make_unique<sim::StorageSystem>("system", config);
        out = create_outputs(o, config);
        if (out.vcd) {
            const std::string& base = out.vcd->temporary();
            system->trace_vcd(base.substr(0, base.size() - 4), out.rtl_vcd ? out.rtl_vcd->temporary() : std::string());
        }
    } catch (const loop::ConfigError& e) {  // a rule the configuration's checks missed, or an output
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return kBadInput;
    } catch (const std::runtime_error& e) {  // the RTL's VCD, opened at once
        std::fprintf(stderr, "fcal-sim: --vcd: %s\n", sim::escape_controls(e.what()).c_str());
        return kBadInput;
    }
    if (out.trace) system->watch_ports(out.trace->stream());
    std::unique_ptr<tb::CompletionHook> hook;
    if (o.lose_io > 0 || o.throw_io > 0) {
        hook = std::make_unique<tb::CompletionHook>(system->driver(), o.lose_io, o.throw_io);
        system->initiator().set_completion(hook.get());
    }
    std::vector<std::unique_ptr<tb::DroppingPortUser>> droppers;
    if (!o.drop_frames.empty() || o.drop_disk >= 0) {
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
    // With --stop-with-parent a parent that has gone (this process handed to another) counts as SIGTERM.
    const auto stop_requested = [&] {
        if (o.stop_with_parent && g_stop_signal == 0 && ::getppid() != parent) g_stop_signal = SIGTERM;
        return g_stop_signal != 0;
    };
    const auto t0 = std::chrono::steady_clock::now();
    const sim::RunResult run = system->run(stop_requested);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const bool interrupted = run.end == sim::RunEnd::Interrupted;

    nlohmann::json results = system->results();
    const std::string account = system->account_violation();
    results["wall_time_s"] = wall;
    results["run_end"] = sim::to_string(run.end);
    nlohmann::json doc = {{"config", sim::to_json(config)}, {"results", results}};
    if (o.stats_json == "-") std::cout << doc.dump(2) << "\n";
    if (out.stats) out.stats->stream() << doc.dump(2) << "\n";
    if (out.cdf) system->write_cdf(out.cdf->stream());

    // Every output complete and written, or none replaces what was there. An interrupted run's
    // trace and VCD are cut at an arbitrary point: they are dropped (their temporary files removed).
    std::vector<std::string> errors;
    for (sim::OutputFile* f : {out.stats.get(), out.cdf.get(), out.trace.get()})
        if (f)
            if (std::string e = f->finish(); !e.empty()) errors.push_back(e);
    if (out.vcd && !interrupted && !system->ports_vcd_complete())
        errors.push_back(out.vcd->error("the file was cut short: is the disk full?"));
    if (out.rtl_vcd && !interrupted)
        if (const std::string e = system->rtl_vcd_error(); !e.empty()) errors.push_back(out.rtl_vcd->error(e));
    if (!account.empty()) {
        std::fprintf(stderr, "fcal-sim: internal error: the I/O account does not balance: %s\n", account.c_str());
        return kInternalError;
    }
    if (!errors.empty()) return write_failed(errors);
    for (sim::OutputFile* f : {out.stats.get(), out.cdf.get()})
        if (f)
            if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    if (!interrupted)
        for (sim::OutputFile* f : {out.trace.get(), out.vcd.get(), out.rtl_vcd.get()})
            if (f)
                if (std::string e = f->commit(); !e.empty()) errors.push_back(e);
    if (!o.quiet && o.stats_json != "-") print_summary(config, results);
    if (std::string e = finish_stdout(); !e.empty()) errors.push_back(e);
    if (!errors.empty()) return write_failed(errors);

    if (interrupted) {
        const int signal = g_stop_signal;
        std::fprintf(stderr, "fcal-sim: interrupted by %s at %.6f s simulated%s\n%s", signal == SIGINT ? "SIGINT" : "SIGTERM",
                     results["sim_time_s"].get<double>(), o.stop_with_parent && ::getppid() != parent ? " (its parent ended)" : "",
                     run.diagnosis.c_str());
        return kInterruptedBase + signal;
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
