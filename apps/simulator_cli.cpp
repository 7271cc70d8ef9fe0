// fcal-sim's command line: options, then calls to the simulator library (sim/). With no arguments it
// runs the baseline scenario (docs/model.md, "The baseline scenario") and prints a readable summary.
//
// Exit codes: 0 every I/O ended, completed or failed (docs/faults.md, "FCP recovery": failed
// I/Os are counted in the results, failed_ios, and named on stderr); 1 the time
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
#include "simulator_cli.hpp"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/run_controller.hpp"
#include "fcal/sim/run_outputs.hpp"
#include "fcal/sim/summary.hpp"
#include "fcal/sim/user_text.hpp"
#include "run_progress.hpp"

namespace fcal::apps {

namespace {

using namespace sim::exit_code;

constexpr const char* kExitCodes =
    "Exit codes: 0 every I/O completed or failed (failed I/Os: failed_ios in the results, a line on stderr); "
    "1 sim.time_limit_s reached first; 2 bad input (key, value, file or output "
    "path, named on stderr; nothing runs, no file is touched); 3 deadlock (I/Os outstanding, nothing left to happen); "
    "4 the RTL transmit queue failed a check (cmdf.impl=rtl); 5 internal error (an exception escaped the model, or the "
    "I/O account issued = completed + failed + outstanding does not balance: a bug); 6 an output could not be written "
    "(the file or standard output is named; no file at the output paths is changed); 130 / 143 interrupted by SIGINT / "
    "SIGTERM (stats JSON and CDF hold the partial run, run_end interrupted; trace and VCD are not written). "
    "Outputs go to a temporary file beside their path, renamed onto it only when complete.";

// No SystemC banner. SystemC 2.3.4 prints it from its own main(), before it calls sc_main, unless
// SC_COPYRIGHT_MESSAGE is DISABLE (its only switch at run time; the other is an option of the
// library's build), so it is set by a static initializer, which runs before any main. A value the
// user set is left alone: SC_COPYRIGHT_MESSAGE=ENABLE brings the banner back.
const bool g_no_banner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

// The signal that asked the run to stop (0: none). The handler only records it; the run looks at
// it between slices of simulated time (sim::RunController::run).
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
    return sim::exit_code::kWriteError;
}

struct Options {
    std::vector<std::string> config_files;
    sim::OutputPaths outputs;
    std::vector<std::string> sets;
    double progress_interval_s = 1.0;
    bool list = false, list_json = false, quiet = false, check = false, stop_with_parent = false, progress = false,
         no_progress = false;
};

int run_simulator(int argc, char* argv[], CliExtension* extension)
{
    // First of all: a parent that ends before this line goes unnoticed by --stop-with-parent.
    const pid_t parent = ::getppid();
    CLI::App app{"fcal-sim: FC-AL storage back end simulator (runs the baseline scenario with no arguments)"};
    app.footer(std::string(kExitCodes));
    Options o;
    std::vector<CLI::Option*> paths;
    auto* configs = app.add_option("--config", o.config_files,
                                   "JSON configuration (nested objects or dotted keys) or a stats JSON (its config block); "
                                   "repeatable: later files override earlier ones key by key")
                        ->allow_extra_args(false);
    app.add_option("--set", o.sets, "KEY=VALUE, applied after the files (repeatable)");
    paths.push_back(app.add_option("--stats-json", o.outputs.stats_json, "write the results as JSON to PATH ('-' for stdout)"));
    auto* list = app.add_flag("--list-params", o.list, "print every parameter: key, default, unit, range, description");
    auto* list_json = app.add_flag("--json", o.list_json,
                 "with --list-params: as a JSON array (key, type, unit, default, default_text, range, min, max, min_exclusive, "
                 "multiple_of, choices, per_disk, description)")
        ->needs(list);
    paths.push_back(app.add_option("--trace", o.outputs.trace, "write the port-watcher trace of every port to PATH"));
    // The waveform options (docs/cli.md, "Smaller waveforms").
    auto* vcd = app.add_option("--vcd", o.outputs.vcd,
                               "write a VCD of every port to PATH, or FST if PATH ends in .fst (needs vcd2fst, from gtkwave); with "
                               "cmdf.impl=rtl also the RTL's to PATH minus .vcd/.fst, plus _rtl.vcd/_rtl.fst");
    paths.push_back(vcd);
    app.add_option("--vcd-window", o.outputs.vcd_window,
                   "START_US:END_US: only that window of simulated time in the VCDs (values at START, then the changes up to END)")
        ->needs(vcd);
    app.add_option("--vcd-ports", o.outputs.vcd_ports, "LIST: only these ports in the VCD, by exact name (controller,disk0,...)")
        ->delimiter(',')
        ->needs(vcd);
    app.add_flag("--vcd-rtl-pins", o.outputs.vcd_rtl_pins, "with cmdf.impl=rtl: only the RTL top's pins in its VCD (not its internal state)")
        ->needs(vcd);
    paths.push_back(
        app.add_option("--cdf", o.outputs.cdf, "write the measured response-time distribution to PATH (CSV: quantile,response_us)"));
    app.add_flag("--quiet", o.quiet, "no summary on stdout");
    app.add_flag("--check", o.check, "check the configuration and the output paths, then exit (0 or 2); nothing runs or is written");
    auto* progress = app.add_flag("--progress", o.progress,
                                  "show the run's progress on stderr even when it is not a terminal (on a terminal it is shown anyway)");
    app.add_flag("--no-progress", o.no_progress, "no progress on stderr, even on a terminal")->excludes(progress);
    app.add_option("--progress-interval", o.progress_interval_s, "seconds of wall time between progress updates (default 1)")
        ->check(CLI::Validator(
            [](std::string& text) {
                // (NaN passes a range check: every comparison with it is false.)
                return std::isnan(std::strtod(text.c_str(), nullptr)) ? std::string("not a number: ") + text : std::string();
            },
            "NUMBER"))
        ->check(CLI::Range(1e-3, 3600.0));
    app.add_flag("--stop-with-parent", o.stop_with_parent,
                 "stop the run as on SIGTERM when the process that started fcal-sim ends (for tools that run many)");
    if (extension) extension->add_options(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "fcal-sim: %s (see --help)\n", sim::escape_controls(e.what()).c_str());
        return kBadInput;
    }
    // --list-params prints the table and runs nothing: any other option with it (but --json) would be ignored.
    if (o.list)
        for (const CLI::Option* option : app.get_options())
            if (option->count() > 0 && option != list && option != list_json) {
                std::fprintf(stderr, "fcal-sim: --list-params takes no option but --json (%s given)\n", option->get_name().c_str());
                return kBadInput;
            }
    for (const CLI::Option* option : paths)
        if (option->count() > 0 && option->as<std::string>().empty()) {
            std::fprintf(stderr, "fcal-sim: %s: an empty path\n", option->get_name().c_str());
            return kBadInput;
        }
    for (const std::string& file : o.config_files)
        if (file.empty()) {
            std::fprintf(stderr, "fcal-sim: %s: an empty path\n", configs->get_name().c_str());
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
    sim::SimConfig config;
    sim::RunOutputs outputs(o.outputs);
    try {
        // In order, each over the ones before it, then the --set assignments (docs/cli.md, "fcal-sim").
        for (const std::string& file : o.config_files) table.load_json_file(file);
        for (const auto& s : o.sets) table.set_assignment(s);
        config = sim::build_config(table);
        outputs.check(config);
        if (extension) extension->check(config);
        // The files are only made once everything has been checked; --check makes and removes them
        // (the only sure test that a folder can be written).
        if (o.check) {
            outputs.create(config);
            return kCompleted;
        }
    } catch (const sim::ConfigError& e) {  // the parameter table's and the outputs'
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return kBadInput;
    }
    std::unique_ptr<sim::StorageSystem> system;
    try {
        system = std::make_unique<sim::StorageSystem>("system", config);
        outputs.create(config);
        outputs.observe(*system);
    } catch (const sim::ConfigError& e) {  // a rule the configuration's checks missed, or an output
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return kBadInput;
    } catch (const std::runtime_error& e) {  // the RTL's VCD, opened at once
        std::fprintf(stderr, "fcal-sim: --vcd: %s\n", sim::escape_controls(e.what()).c_str());
        return kBadInput;
    }
    if (extension) extension->attach(*system);
    // Progress on stderr: on a terminal unless --no-progress, elsewhere only with --progress.
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    std::optional<RunProgress> progress_line;
    if (o.progress || (terminal && !o.no_progress)) progress_line.emplace(*system, stderr, terminal, std::chrono::duration<double>(o.progress_interval_s));
    if (host::EraseJob* job = system->erase_job()) {
        // Long erasure jobs report every tenth of their commands (stderr: not part of any result).
        job->on_progress([&progress_line](std::uint64_t done, std::uint64_t total) {
            char line[160];
            std::snprintf(line, sizeof line, "fcal-sim: erase %3llu %% (%llu of %llu commands) at %.3f s simulated",
                          static_cast<unsigned long long>(done * 100 / total), static_cast<unsigned long long>(done),
                          static_cast<unsigned long long>(total), sc_core::sc_time_stamp().to_seconds());
            if (progress_line)
                progress_line->note(line);
            else
                std::fprintf(stderr, "%s\n", line);
        });
    }

    sim::RunController controller(*system);
    // Asked between slices of simulated time, the only place the progress may be shown: there it
    // reads counters and changes nothing. With --stop-with-parent a parent that has gone (this
    // process handed to another) counts as SIGTERM.
    const auto stop_requested = [&] {
        if (progress_line) progress_line->update();
        if (o.stop_with_parent && g_stop_signal == 0 && ::getppid() != parent) g_stop_signal = SIGTERM;
        return g_stop_signal != 0;
    };
    const auto t0 = std::chrono::steady_clock::now();
    const sim::RunResult run = controller.run(stop_requested);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (progress_line) progress_line->finish();
    const bool interrupted = run.end == sim::RunEnd::Interrupted;

    nlohmann::json results = controller.results();
    const std::string account = controller.account_violation();
    results["wall_time_s"] = wall;
    results["run_end"] = sim::to_string(run.end);
    const nlohmann::json doc = {{"config", sim::to_json(config)}, {"results", results}};
    if (o.outputs.stats_json == "-") std::cout << std::setw(2) << doc << "\n";  // as dump(2)

    // Every output complete and written, or none replaces what was there.
    std::vector<std::string> errors = outputs.finish(*system, doc, interrupted);
    if (!account.empty()) {
        std::fprintf(stderr, "fcal-sim: internal error: the I/O account does not balance: %s\n", account.c_str());
        return kInternalError;
    }
    if (!errors.empty()) return write_failed(errors);
    errors = outputs.commit(interrupted);
    if (!o.quiet && o.outputs.stats_json != "-") sim::print_summary(config, doc["config"], results);
    if (std::string e = finish_stdout(); !e.empty()) errors.push_back(e);
    if (!errors.empty()) return write_failed(errors);

    if (interrupted) {
        const int signal = g_stop_signal;
        std::fprintf(stderr, "fcal-sim: interrupted by %s at %.6f s simulated%s\n%s", signal == SIGINT ? "SIGINT" : "SIGTERM",
                     results["sim_time_s"].get<double>(), o.stop_with_parent && ::getppid() != parent ? " (its parent ended)" : "",
                     run.diagnosis.c_str());
        return kInterruptedBase + signal;
    }
    const sim::RunController::Outcome outcome = controller.outcome(run, results);
    if (!outcome.message.empty()) std::fprintf(stderr, "fcal-sim: %s", outcome.message.c_str());
    return outcome.exit_code;
}

}  // namespace

int run_simulator_cli(int argc, char* argv[], CliExtension* extension)
{
    // sc_stop() at the end of a run is expected, not news.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    // Whatever escapes the model (a SystemC error, an exception from a process, an allocation
    // failure) is a bug, not a time limit: SystemC's own handler would exit 1. Fatal SystemC reports
    // (sc_assert) are thrown too rather than aborting, so that they end the same way.
    sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_THROW);
    try {
        return run_simulator(argc, argv, extension);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fcal-sim: internal error: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "fcal-sim: internal error: unknown exception\n");
    }
    return kInternalError;
}

}  // namespace fcal::apps
