// Strict split-merge as a queue (docs/model.md, "The storage controller: volumes and RAID"): a RAID 5
// volume of 5 fixed-time disks behind the ideal transport gets Poisson arrivals of one-unit writes at
// consecutive units. Each is a read-modify-write: old data and old parity are read in parallel (one
// disk service S each), then new data and parity are written in parallel (S again), so every
// request holds the array for exactly T = 2 S. Serving one request at a time, the volume is an M/D/1
// queue with service T: mean response = T + lambda T^2 / (2 (1 - lambda T)) (Pollaczek-Khinchine),
// and each disk works 4 S per request shared over 5 disks: utilisation 4 lambda S / 5.
#include <catch2/catch.hpp>

#include <string>

#include "sim/parameter_table.hpp"
#include "sim/sim_config.hpp"
#include "sim/storage_system.hpp"
#include "queueing.hpp"

using namespace fcal;

TEST_CASE("strict split-merge RAID 5 small writes: M/D/1 with read phase + write phase", "[validation][queueing][raid5]")
{
    const double s = 2e-3 + 65536 / 50e6;  // one 64 KiB unit on a 2 ms, 50 MB/s disk
    const double t = 2 * s;
    const double rho = 0.5, lambda = rho / t;
    const double w = test::pollaczek_khinchine_response(t, t * t, lambda);

    sim::ParameterTable p = sim::fcal_parameters();
    p.set("transport", "ideal");
    p.set("disk.count", "5");
    p.set("disk.access_ms", "2");
    p.set("disk.rate_mbs", "50");
    p.set("volume.raid", "raid5");
    p.set("volume.stripe_kib", "64");
    p.set("volume.split_merge", "strict");
    p.set("workload.type", "open");
    p.set("workload.lba", "sequential");
    p.set("workload.read_fraction", "0");
    p.set("workload.io_size", "64K");
    p.set("workload.rate_iops", std::to_string(lambda));
    // Over seeds 1-4 the mean stayed within 0.25 % of the formula.
    p.set("workload.measured_ios", "300000");
    p.set("workload.warmup_ios", "1000");
    p.set("sim.time_limit_s", "1000000");
    sim::StorageSystem system("system", sim::build_config(p));
    REQUIRE(system.run().end == sim::RunEnd::Completed);
    const auto r = system.results();
    INFO("T " << t * 1e6 << " us, lambda " << lambda << " /s, P-K mean response " << w * 1e6 << " us");
    CHECK(r["volume"]["read_modify_writes"] == system.workload().completed());
    CHECK(r["volume"]["member_ios"] == 4 * system.workload().completed());
    CHECK(r["mean_response_us"].get<double>() == Approx(w * 1e6).epsilon(0.015));
    for (const auto& d : r["disks"]) CHECK(d["utilisation"].get<double>() == Approx(4 * lambda * s / 5).epsilon(0.02));
}
