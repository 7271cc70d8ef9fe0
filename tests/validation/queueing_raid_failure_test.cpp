// A disk that fails during a run, end to end through fcal-sim's system: scheduled events
// (docs/faults.md, "Scheduled events"), degraded RAID, rebuild onto a hot spare
// (docs/controller.md, "Degraded mode and rebuild"). Expectations from first principles: the
// layout of SPEC-style left-symmetric RAID 5, the rebuild's bottleneck rate, the I/O account.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/run_controller.hpp"
#include "fcal/sim/sim_config.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

using Sets = std::vector<std::pair<std::string, std::string>>;

struct Run {
    nlohmann::json results;
    std::vector<std::uint64_t> reads, writes;  // served by each disk, whole run
};

Run run(const Sets& sets)
{
    const sim::SimConfig c = configure(sets);
    sim::StorageSystem system("system", c);
    sim::RunController controller(system);
    const sim::RunResult end = controller.run();
    INFO(end.diagnosis);
    REQUIRE(end.end == sim::RunEnd::Completed);
    REQUIRE(controller.account_violation() == "");
    Run r;
    r.results = controller.results();
    for (unsigned d = 0; d < c.disk_count; ++d) {
        r.reads.push_back(system.disk_model(d).stats().reads_served);
        r.writes.push_back(system.disk_model(d).stats().writes_served);
    }
    return r;
}

void balanced(const nlohmann::json& r)
{
    const std::uint64_t issued = r["issued_ios"], completed = r["completed_ios"], failed = r["failed_ios"], out = r["outstanding_ios"];
    CHECK(issued == completed + failed + out);
    CHECK(out == 0);
}

// 4 members and one spare, 64 KiB units, 20 MB used per member: 20e6 / 512 = 39062 blocks, whole
// units of 128 blocks: 305 rows of 65536 bytes to rebuild. An open workload of 20 reads at 2/s keeps
// the run going about 10 s while hardly loading the disks.
constexpr double kRebuildBytes = 305 * 65536.0;
Sets idle_rebuild(const std::string& rate_mbs)
{
    return {{"disk.count", "5"},          {"volume.raid", "raid5"},           {"volume.spares", "1"},
            {"volume.member_capacity_gb", "0.02"}, {"volume.rebuild_rate_mbs", rate_mbs}, {"volume.rebuild_io_kib", "64"},
            {"workload.type", "open"},    {"workload.rate_iops", "2"},       {"workload.measured_ios", "20"},
            {"workload.warmup_ios", "0"}, {"workload.io_size", "4K"},        {"event.0.at_ms", "1"},
            {"event.0.kind", "fail"},     {"event.0.disk", "1"}};
}

}  // namespace

TEST_CASE("idle rebuild under a rate cap takes member capacity over the cap", "[validation][rebuild]")
{
    const Run r = run(idle_rebuild("5"));
    const auto& v = r.results["volume"];
    REQUIRE(v["rebuilds_completed"] == 1);
    CHECK(v["state"] == "optimal");
    CHECK(v["rebuild_bytes"] == kRebuildBytes);
    CHECK(v["rebuild_time_s"].get<double>() == Approx(kRebuildBytes / 5e6).epsilon(0.02));
    CHECK(r.writes[4] == 305u);  // the spare: one write per row
    balanced(r.results);
}

TEST_CASE("idle rebuild as fast as it goes is bound by the spare's media write rate", "[validation][rebuild]")
{
    // No access time; the spare writes at 20 MB/s (3.3 ms a round), the 3 survivors read at 50 MB/s
    // (1.3 ms); each round moves 4 x 64 KiB over the 2GFC loop (at most 212.5 MB/s: at least 1.2 ms).
    Sets sets = idle_rebuild("0");
    sets.push_back({"disk.access_ms", "0"});
    sets.push_back({"disk.4.rate_mbs", "20"});
    const Run r = run(sets);
    const auto& v = r.results["volume"];
    REQUIRE(v["rebuilds_completed"] == 1);
    CHECK(v["rebuild_time_s"].get<double>() == Approx(kRebuildBytes / 20e6).epsilon(0.02));
    balanced(r.results);
}

TEST_CASE("degraded RAID 5 reads of the failed member cost n-1 disk reads, the others one", "[validation][degraded]")
{
    // Sequential whole-unit reads from LBA 0, one at a time: request i reads volume unit i. Member 2
    // of 5 fails before the first request reaches it (unit 0 is on disk 0).
    constexpr unsigned n = 5, failed = 2;
    const Run r = run({{"disk.count", "5"},
                       {"volume.raid", "raid5"},
                       {"workload.lba", "sequential"},
                       {"workload.io_size", "64K"},
                       {"workload.queue_depth", "1"},
                       {"workload.measured_ios", "300"},
                       {"event.0.at_ms", "0"},
                       {"event.0.kind", "fail"},
                       {"event.0.disk", "2"}});
    const std::uint64_t requests = r.results["issued_ios"];
    // Left-symmetric RAID 5: row r's parity on disk n-1 - (r mod n), its data unit j on disk
    // (parity + 1 + j) mod n.
    std::vector<std::uint64_t> units(n, 0);
    std::uint64_t degraded = 0;
    for (std::uint64_t i = 0; i < requests; ++i) {
        const std::uint64_t row = i / (n - 1), j = i % (n - 1);
        const unsigned parity = n - 1 - static_cast<unsigned>(row % n);
        const unsigned disk = (parity + 1 + static_cast<unsigned>(j)) % n;
        if (disk == failed)
            ++degraded;
        else
            ++units[disk];
    }
    REQUIRE(degraded > 0);
    CHECK(r.results["volume"]["degraded_reads"] == degraded);
    CHECK(r.reads[failed] == 0);
    std::uint64_t reads = 0;
    for (unsigned d = 0; d < n; ++d) {
        INFO("disk " << d);
        if (d != failed) CHECK(r.reads[d] == units[d] + degraded);  // its own units, and every reconstruction
        reads += r.reads[d];
    }
    CHECK(reads == (requests - degraded) + degraded * (n - 1));
    CHECK(r.results["failed_ios"] == 0);
    CHECK(r.results["disks"][failed]["state"] == "failed");
    CHECK(r.results["disks"][0]["state"] == "present");
    balanced(r.results);
}

TEST_CASE("degraded RAID 1 reads all go to the surviving copy", "[validation][degraded]")
{
    const Run r = run({{"disk.count", "2"},
                       {"volume.raid", "raid1"},
                       {"workload.io_size", "16K"},
                       {"workload.queue_depth", "4"},
                       {"workload.measured_ios", "400"},
                       {"event.0.at_ms", "0"},
                       {"event.0.kind", "fail"},
                       {"event.0.disk", "1"}});
    CHECK(r.reads[1] == 0);
    CHECK(r.reads[0] == r.results["completed_ios"].get<std::uint64_t>());
    CHECK(r.results["failed_ios"] == 0);
    CHECK(r.results["volume"]["state"] == "degraded");
    balanced(r.results);
}

TEST_CASE("a second RAID 5 failure during the rebuild loses the data, named, with the account balanced", "[validation][rebuild]")
{
    Sets sets = {{"disk.count", "5"},
                 {"volume.raid", "raid5"},
                 {"volume.spares", "1"},
                 {"volume.member_capacity_gb", "0.02"},
                 {"volume.rebuild_rate_mbs", "5"},
                 {"workload.queue_depth", "4"},
                 {"workload.io_size", "8K"},
                 {"workload.read_fraction", "0.7"},
                 {"workload.measured_ios", "3000"},
                 {"event.0.at_ms", "5"},
                 {"event.0.kind", "fail"},
                 {"event.0.disk", "1"},
                 {"event.1.at_ms", "500"},
                 {"event.1.kind", "fail"},
                 {"event.1.disk", "3"}};
    const Run r = run(sets);
    const auto& v = r.results["volume"];
    CHECK(v["data_lost"] == true);
    CHECK(v["state"] == "failed");
    const std::string reason = v["data_lost_reason"];
    CHECK(reason.find("member 3") != std::string::npos);
    CHECK(reason.find("member 1") != std::string::npos);
    REQUIRE(v["failures"].size() == 2);
    CHECK(v["rebuilds_completed"] == 0);
    const std::uint64_t failed = r.results["failed_ios"];
    REQUIRE(failed > 0);
    CHECK(r.results["failures"][0].get<std::string>().find("volume failed") != std::string::npos);
    CHECK(v["requests_failed"] == failed);
    balanced(r.results);
}

TEST_CASE("without a volume a failed disk's I/Os end CHECK CONDITION and no more are issued to it", "[validation][faults]")
{
    const Run r = run({{"disk.count", "2"},
                       {"workload.queue_depth", "4"},
                       {"workload.io_size", "8K"},
                       {"workload.read_fraction", "0.5"},
                       {"workload.measured_ios", "600"},
                       {"event.0.at_ms", "30"},
                       {"event.0.kind", "fail"},
                       {"event.0.disk", "1"}});
    const std::uint64_t failed = r.results["failed_ios"];
    // The four I/Os out to disk 1 when it failed, less any whose GOOD status was already on its way.
    CHECK(failed >= 1);
    CHECK(failed <= 4);
    for (const auto& f : r.results["failures"]) {
        const std::string text = f;
        CHECK(text.find("(disk 1,") != std::string::npos);
        CHECK(text.find("CHECK CONDITION") != std::string::npos);
    }
    CHECK(r.results["retries"] == 0);  // not retried
    CHECK(r.results["disks"][1]["state"] == "failed");
    // Nothing more reaches disk 1: the I/Os after the failure all went to disk 0.
    CHECK(r.reads[1] + r.writes[1] + failed < r.reads[0] + r.writes[0]);
    balanced(r.results);
}
