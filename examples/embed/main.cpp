// A user's own sc_main that embeds the fcal models: it builds the storage system of a configuration
// (the baseline with 4 disks and 4 KiB reads here), runs it and prints two results. A real platform
// would put its own modules beside it in the same elaboration.
#include <cstdio>
#include <systemc>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"

int sc_main(int, char*[])
{
    // The run ends with sc_stop(): expected, not news.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    fcal::sim::ParameterTable table = fcal::sim::fcal_parameters();
    table.set("disk.count", "4");
    table.set("workload.io_size", "4K");
    table.set("workload.measured_ios", "400");
    const fcal::sim::SimConfig config = fcal::sim::build_config(table);
    fcal::sim::StorageSystem system("storage", config);
    const fcal::sim::RunResult run = system.run();
    const nlohmann::json results = system.results();
    std::printf("run %s: %.1f IOPS, mean response %.1f us\n", run.end == fcal::sim::RunEnd::Completed ? "completed" : "stopped",
                results["iops"].get<double>(), results["mean_response_us"].get<double>());
    return run.end == fcal::sim::RunEnd::Completed ? 0 : 1;
}
