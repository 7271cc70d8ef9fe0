// fcal-sim: the simulator's command line. With no arguments it runs the baseline scenario
// (docs/model.md, "The baseline scenario") and prints a readable summary.
//
// Exit codes: 0 all I/Os completed; 1 the time limit (sim.time_limit_s) stopped the run first;
// 2 bad input (configuration key, value or file; one line on stderr naming it); 3 deadlock (I/Os
// outstanding and nothing left to happen; every port's state is printed); 4 the RTL transmit queue
// (cmdf.impl=rtl) failed a check: an assertion inside it, an answer naming no queued frame, or with
// rtl.lockstep a decision the reference model takes differently (the first failure is printed).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "loop/loop.hpp"
#include "sim/parameter_table.hpp"
#include "sim/sim_config.hpp"
#include "sim/storage_system.hpp"

using namespace fcal;

namespace {

void print_summary(const sim::SimConfig& c, const nlohmann::json& r)
{
    const std::string where = c.transport == sim::Transport::Ideal
                                  ? std::string("behind the ideal transport")
                                  : "on a " + phy::to_string(c.loop.rate) + " loop (" + std::to_string(c.loop.nodes) + " nodes)";
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
    if (r["ports"].empty()) {  // transport=ideal
        std::printf("  transport          ideal; simulated %.6f s in %.3f s wall\n", r["sim_time_s"].get<double>(),
                    r["wall_time_s"].get<double>());
        return;
    }
    const auto& ctl = r["ports"][0];
    std::printf("  controller port    arbitration wait mean %.2f us, max %.2f us; loop tenancy %.1f%%\n",
                ctl["arbitration_wait_mean_us"].get<double>(), ctl["arbitration_wait_max_us"].get<double>(),
                ctl["tenancy_share"].get<double>() * 100);
    const auto& m = r["disk_mechanics"];
    if (c.disk.model == disk::DiskModel::Zoned)
        std::printf("  zoned disks        capacity %.3f GB each (%u cylinders x %u heads, %u rpm); mean seek %.1f us, rotation %.1f us, transfer %.1f us\n",
                    m["capacity_bytes"].get<std::uint64_t>() / 1e9, c.disk.cylinders, c.disk.heads,
                    static_cast<unsigned>(c.disk.rpm), m["mean_seek_us"].get<double>(), m["mean_rotation_us"].get<double>(),
                    m["mean_transfer_us"].get<double>());
    if (r["task_set_full_retries"].get<std::uint64_t>() > 0)
        std::printf("  TASK SET FULL      %llu commands retried\n",
                    static_cast<unsigned long long>(r["task_set_full_retries"].get<std::uint64_t>()));
    double tenancy = 0;
    for (const auto& p : r["ports"]) tenancy += p["tenancy_share"].get<double>();
    std::printf("  loop               owned %.1f%% of the time; simulated %.6f s in %.3f s wall\n", tenancy * 100,
                r["sim_time_s"].get<double>(), r["wall_time_s"].get<double>());
}

}  // namespace

int sc_main(int argc, char* argv[])
{
    // sc_stop() at the end of a run is expected, not news.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    CLI::App app{"fcal-sim: FC-AL storage back end simulator (runs the baseline scenario with no arguments)"};
    std::string config_file, stats_json, trace_path, vcd_path, cdf_path;
    std::vector<std::string> sets;
    bool list = false, quiet = false;
    app.add_option("--config", config_file, "JSON configuration (nested objects or dotted keys)");
    app.add_option("--set", sets, "KEY=VALUE, applied after the file (repeatable)");
    app.add_option("--stats-json", stats_json, "write the results as JSON to PATH ('-' for stdout)");
    app.add_flag("--list-params", list, "print every parameter: key, default, unit, range, description");
    app.add_option("--trace", trace_path, "write the port-watcher trace of every port to PATH");
    app.add_option("--vcd", vcd_path, "write a VCD of every port to PATH");
    app.add_option("--cdf", cdf_path, "write the measured response-time distribution to PATH (CSV: quantile,response_us)");
    app.add_flag("--quiet", quiet, "no summary on stdout");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "fcal-sim: %s (see --help)\n", e.what());
        return 2;
    }

    sim::ParameterTable table = sim::fcal_parameters();
    if (list) {
        table.list(std::cout);
        return 0;
    }
    sim::SimConfig config;
    std::unique_ptr<sim::StorageSystem> system;
    try {
        if (!config_file.empty()) table.load_json_file(config_file);
        for (const auto& s : sets) table.set_assignment(s);
        config = sim::build_config(table);
        system = std::make_unique<sim::StorageSystem>("system", config);
    } catch (const loop::ConfigError& e) {  // the parameter table's and the loop's
        std::fprintf(stderr, "fcal-sim: %s\n", e.what());
        return 2;
    }
    std::ofstream trace_out;
    if (!trace_path.empty()) {
        trace_out.open(trace_path);
        if (!trace_out) {
            std::fprintf(stderr, "fcal-sim: --trace: cannot write '%s'\n", trace_path.c_str());
            return 2;
        }
        system->watch_ports(trace_out);
    }
    if (!vcd_path.empty()) {
        std::string base = vcd_path;
        if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
        try {
            system->trace_vcd(base);
        } catch (const std::runtime_error& e) {
            std::fprintf(stderr, "fcal-sim: --vcd: %s\n", e.what());
            return 2;
        }
    }

    // Checked before the run, so that a bad path does not cost a simulation.
    std::ofstream cdf_out;
    if (!cdf_path.empty()) {
        cdf_out.open(cdf_path);
        if (!cdf_out) {
            std::fprintf(stderr, "fcal-sim: --cdf: cannot write '%s'\n", cdf_path.c_str());
            return 2;
        }
    }

    const auto t0 = std::chrono::steady_clock::now();
    const sim::RunResult run = system->run();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    nlohmann::json results = system->results();
    results["wall_time_s"] = wall;
    results["run_end"] = run.end == sim::RunEnd::Completed   ? "completed"
                         : run.end == sim::RunEnd::TimeLimit ? "time_limit"
                         : run.end == sim::RunEnd::Deadlock  ? "deadlock"
                                                             : "rtl_error";
    nlohmann::json doc = {{"config", sim::to_json(config)}, {"results", results}};
    if (!stats_json.empty()) {
        const std::string text = doc.dump(2) + "\n";
        if (stats_json == "-") {
            std::cout << text;
        } else {
            std::ofstream out(stats_json);
            if (!out || !(out << text)) {
                std::fprintf(stderr, "fcal-sim: --stats-json: cannot write '%s'\n", stats_json.c_str());
                return 2;
            }
        }
    }
    if (cdf_out.is_open()) {
        system->write_cdf(cdf_out);
        if (!cdf_out.flush()) {
            std::fprintf(stderr, "fcal-sim: --cdf: cannot write '%s'\n", cdf_path.c_str());
            return 2;
        }
    }
    if (!quiet && stats_json != "-") print_summary(config, results);
    if (run.end == sim::RunEnd::RtlError) {
        std::fprintf(stderr, "fcal-sim: %s", run.diagnosis.c_str());
        return 4;
    }
    if (run.end == sim::RunEnd::Deadlock) {
        std::fprintf(stderr, "fcal-sim: deadlock: I/Os are outstanding and nothing is left to happen\n%s", run.diagnosis.c_str());
        return 3;
    }
    if (run.end == sim::RunEnd::TimeLimit) {
        std::fprintf(stderr, "fcal-sim: sim.time_limit_s reached before all I/Os completed\n%s", run.diagnosis.c_str());
        return 1;
    }
    return 0;
}
