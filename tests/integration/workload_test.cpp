// Whole-system checks: FCP exchanges frame by frame in the port-watcher trace, Little's law for the
// closed workload, and determinism (issue 4).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

// The primitives and frames a port sent on its own (not repeated), R_RDYs left out, in order.
std::vector<std::string> own_words(const std::string& trace, const std::string& port_hex)
{
    std::vector<std::string> out;
    std::istringstream in(trace);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string t, port, state, count, change;
        ls >> t >> port >> state >> count >> change;
        if (port != port_hex || state == "MONITORING" || state == "ARBITRATING") continue;
        const std::string to = change.substr(change.find("=>") + 2);
        if (to == "IDLE" || to.rfind("ARB", 0) == 0 || to == "R_RDY") continue;
        out.push_back(to);
    }
    return out;
}

std::vector<std::string> repeat(std::vector<std::string> block, unsigned n)
{
    std::vector<std::string> out;
    for (unsigned i = 0; i < n; ++i) out.insert(out.end(), block.begin(), block.end());
    return out;
}

std::vector<std::string> join(std::initializer_list<std::vector<std::string>> parts)
{
    std::vector<std::string> out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
}

}  // namespace

TEST_CASE("a read exchange goes CMND then DATA frames then RSP on the wire", "[integration][exchange]")
{
    // 5000 bytes in 2048-byte frames: 2048 + 2048 + 904, one sequence (SOFi3 then SOFn3), then
    // FCP_RSP as a new sequence (SOFi3), all in the disk's one circuit.
    std::ostringstream trace;
    sim::StorageSystem s("system", configure({{"disk.count", "1"}, {"workload.io_size", "5000"}, {"workload.measured_ios", "1"},
                                              {"workload.warmup_ios", "0"}}));
    s.watch_ports(trace);
    REQUIRE(s.run().end == sim::RunEnd::Completed);
    CHECK(own_words(trace.str(), "01") == std::vector<std::string>{"OPN(EF,EF)", "SOFi3", "CLS", "CLS"});
    CHECK(own_words(trace.str(), "EF") == std::vector<std::string>{"CLS", "OPN(01,01)", "SOFi3", "SOFn3", "SOFn3", "SOFi3", "CLS"});
}

TEST_CASE("a write exchange in one burst goes CMND then XFER_RDY then DATA then RSP", "[integration][exchange]")
{
    std::ostringstream trace;
    sim::StorageSystem s("system", configure({{"disk.count", "1"}, {"workload.io_size", "5000"}, {"workload.read_fraction", "0"},
                                              {"workload.measured_ios", "1"}, {"workload.warmup_ios", "0"}}));
    s.watch_ports(trace);
    REQUIRE(s.run().end == sim::RunEnd::Completed);
    // Controller: FCP_CMND; closes the disk's XFER_RDY circuit; the 3 data frames; closes the RSP circuit.
    CHECK(own_words(trace.str(), "01") ==
          std::vector<std::string>{"OPN(EF,EF)", "SOFi3", "CLS", "CLS", "OPN(EF,EF)", "SOFi3", "SOFn3", "SOFn3", "CLS", "CLS"});
    CHECK(own_words(trace.str(), "EF") == std::vector<std::string>{"CLS", "OPN(01,01)", "SOFi3", "CLS", "CLS", "OPN(01,01)", "SOFi3", "CLS"});
}

TEST_CASE("a write longer than the burst takes one XFER_RDY and one data sequence per burst", "[integration][exchange]")
{
    // 16 KiB in 4 KiB bursts: 4 x (XFER_RDY, then 2 data frames of 2048 bytes).
    std::ostringstream trace;
    sim::StorageSystem s("system", configure({{"disk.count", "1"}, {"workload.io_size", "16K"}, {"workload.read_fraction", "0"},
                                              {"target.burst_bytes", "4096"}, {"workload.measured_ios", "1"}, {"workload.warmup_ios", "0"}}));
    s.watch_ports(trace);
    REQUIRE(s.run().end == sim::RunEnd::Completed);
    const auto controller = join({{"OPN(EF,EF)", "SOFi3", "CLS"}, repeat({"CLS", "OPN(EF,EF)", "SOFi3", "SOFn3", "CLS"}, 4), {"CLS"}});
    const auto disk = join({{"CLS"}, repeat({"OPN(01,01)", "SOFi3", "CLS", "CLS"}, 4), {"OPN(01,01)", "SOFi3", "CLS"}});
    CHECK(own_words(trace.str(), "01") == controller);
    CHECK(own_words(trace.str(), "EF") == disk);
}

TEST_CASE("the closed workload obeys Little's law", "[integration][workload]")
{
    // N = X R: with queue_depth x disks I/Os always outstanding (each completion issues the next at
    // once, driver times zero), throughput times mean response time must give that number back.
    const unsigned disks = 6, depth = 3;
    sim::StorageSystem s("system", configure({{"disk.count", std::to_string(disks)}, {"workload.queue_depth", std::to_string(depth)},
                                              {"workload.read_fraction", "0.5"}, {"workload.io_size", "16K"}, {"workload.measured_ios", "3000"}}));
    REQUIRE(s.run().end == sim::RunEnd::Completed);
    const auto r = s.results();
    const double n = r["iops"].get<double>() * r["mean_response_us"].get<double>() * 1e-6;
    INFO("IOPS " << r["iops"].get<double>() << " x mean response " << r["mean_response_us"].get<double>() << " us = " << n);
    CHECK(n == Approx(disks * depth).epsilon(0.01));
    CHECK(r["issued_ios"] == r["completed_ios"]);
}
