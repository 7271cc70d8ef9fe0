// Strict split-merge as a queue (docs/model.md, "The storage controller: volumes and RAID"): a RAID 5
// volume of 5 fixed-time disks behind the ideal transport gets Poisson arrivals of one-unit writes at
// consecutive units. Each is a read-modify-write: old data and old parity are read in parallel (one
// disk service S each), then new data and parity are written in parallel (S again), so every
// request holds the array for exactly T = 2 S. Serving one request at a time, the volume is an M/D/1
// queue with service T: mean response = T + lambda T^2 / (2 (1 - lambda T)) (Pollaczek-Khinchine),
// and each disk works 4 S per request shared over 5 disks: utilisation 4 lambda S / 5.
#include <catch2/catch.hpp>

#include <string>

#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/storage_system.hpp"
#include "queueing.hpp"
#include "sim_fixture.hpp"

using namespace fcal;

TEST_CASE("strict split-merge RAID 5 small writes: M/D/1 with read phase + write phase", "[validation][queueing][raid5]")
{
    const double s = 2e-3 + 65536 / 50e6;  // one 64 KiB unit on a 2 ms, 50 MB/s disk
    const double t = 2 * s;
    const double rho = 0.5, lambda = rho / t;
    const double w = test::pollaczek_khinchine_response(t, t * t, lambda);

    sim::StorageSystem system("system", test::configure({
        {"transport", "ideal"},
        {"disk.count", "5"},
        {"disk.access_ms", "2"},
        {"disk.rate_mbs", "50"},
        {"volume.raid", "raid5"},
        {"volume.stripe_kib", "64"},
        {"volume.split_merge", "strict"},
        {"workload.type", "open"},
        {"workload.lba", "sequential"},
        {"workload.read_fraction", "0"},
        {"workload.io_size", "64K"},
        {"workload.rate_iops", std::to_string(lambda)},
        // Over seeds 1-4 the mean stayed within 0.25 % of the formula.
        {"workload.measured_ios", "300000"},
        {"workload.warmup_ios", "1000"},
        {"sim.time_limit_s", "1000000"},
    }));
    REQUIRE(system.run().end == sim::RunEnd::Completed);
    const auto r = system.results();
    INFO("T " << t * 1e6 << " us, lambda " << lambda << " /s, P-K mean response " << w * 1e6 << " us");
    CHECK(r["volume"]["read_modify_writes"] == system.workload().completed());
    CHECK(r["volume"]["member_ios"] == 4 * system.workload().completed());
    CHECK(r["mean_response_us"].get<double>() == Approx(w * 1e6).epsilon(0.015));
    for (const auto& d : r["disks"]) CHECK(d["utilisation"].get<double>() == Approx(4 * lambda * s / 5).epsilon(0.02));
}
