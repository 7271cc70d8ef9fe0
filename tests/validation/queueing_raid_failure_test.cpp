// A disk that fails during a run, end to end through fcal-sim's system: scheduled events
// (docs/faults.md, "Scheduled events"), degraded RAID, rebuild onto a hot spare
// (docs/controller.md, "Degraded mode and rebuild"). Expectations from first principles: the
// layout of SPEC-style left-symmetric RAID 5, the rebuild's bottleneck rate, the I/O account.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
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

// Left-symmetric RAID 5 of n members: volume unit i is data unit j = i mod (n-1) of row i div (n-1),
// whose parity is on disk n-1 - (row mod n), its data unit j on disk (parity + 1 + j) mod n.
struct Raid5Unit {
    unsigned parity, disk, column;
};
Raid5Unit raid5_unit(std::uint64_t i, unsigned n)
{
    const std::uint64_t row = i / (n - 1);
    const auto column = static_cast<unsigned>(i % (n - 1));
    const unsigned parity = n - 1 - static_cast<unsigned>(row % n);
    return {parity, (parity + 1 + column) % n, column};
}

// Sequential requests of `io_size` from LBA 0 on a volume of `disks` disks, disk `failed` failing at
// 0 ms; writes come as Poisson arrivals (50/s: the first after the failure), reads one at a time.
Sets sequential_after_failure(const std::string& disks, const std::string& raid, const std::string& io_size, bool read,
                              const std::string& measured, const std::string& failed)
{
    Sets sets = {{"disk.count", disks},          {"volume.raid", raid},       {"workload.lba", "sequential"},
                 {"workload.io_size", io_size}, {"workload.measured_ios", measured}, {"event.0.at_ms", "0"},
                 {"event.0.kind", "fail"},       {"event.0.disk", failed}};
    if (read)
        sets.push_back({"workload.queue_depth", "1"});
    else
        for (const auto& kv : Sets{{"workload.read_fraction", "0"}, {"workload.type", "open"}, {"workload.rate_iops", "50"}})
            sets.push_back(kv);
    return sets;
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
constexpr double kRowBytes = 65536;
constexpr double kRebuildBytes = 305 * kRowBytes;
Sets idle_rebuild(const std::string& rate_mbs, const std::string& capacity_gb = "0.02", const std::string& io_kib = "64")
{
    return {{"disk.count", "5"},          {"volume.raid", "raid5"},           {"volume.spares", "1"},
            {"volume.member_capacity_gb", capacity_gb}, {"volume.rebuild_rate_mbs", rate_mbs}, {"volume.rebuild_io_kib", io_kib},
            {"workload.type", "open"},    {"workload.rate_iops", "2"},       {"workload.measured_ios", "20"},
            {"workload.warmup_ios", "0"}, {"workload.io_size", "4K"},        {"event.0.at_ms", "1"},
            {"event.0.kind", "fail"},     {"event.0.disk", "1"}};
}

// The loop's share of an idle RAID 5 rebuild (docs/controller.md, "The loop-bound rebuild"), in words
// of 2GFC: 40 bits at 2.125 Gbaud. A frame is SOF, 6 header words, its payload in whole words, CRC
// and EOF (docs/fcp.md); at least 6 fill words follow it.
constexpr double kWordS = 40.0 / 2.125e9;
constexpr double kPortDelayWords = 6, kHopM = 2, kPropagationSPerM = 5e-9;
double frame_words(unsigned payload) { return 1 + 6 + std::ceil(payload / 4.0) + 1 + 1; }

struct LoopBound {
    double frames_s;  // the frames and the fill words after them alone: no rebuild can be faster
    double loop_s;    // with every circuit's hand-over as well: the loop-bound rebuild time
};

// A round of b bytes per member moves, with n members, n-1 reads and one write of b bytes in
// 2048-byte data frames, n FCP_CMNDs (32 bytes), one FCP_XFER_RDY (12; target.burst_bytes=0 asks for
// the whole write at once) and n FCP_RSPs (24). Each circuit costs, from the end of its last frame
// to the first frame of the next, at most 2 words (CLS after the frame) + RT (the CLS to the peer and
// the peer's CLS back) + (ports-1) hops (the next winner's ARB, repeated again by the owner, reaching
// it) + RT (OPN out, the first R_RDY back: no login credit), instead of the 6 fill words. A round
// needs at most 3n+1 circuits: one per command, one per read (its FCP_RSP follows its data in the
// same circuit), the XFER_RDY, the write's data, the write's FCP_RSP, and one more for each command
// that Command-First preemption lets cut into the write's data. Credit never stalls a circuit:
// the R_RDY for a frame is back one round trip and 400 ns of frame processing after it, long before
// the frame after next (9.9 us later) needs it; the HBAs' DMA engines (1.9 us a frame) and processors
// (43.9 us a command) are faster than the loop; the disks (10 GB/s, no access time) take half a
// percent of a round's loop time. Not counted: the first command's and the last response's latency, once
// (about 0.2 ms), and the few host reads.
LoopBound loop_bound(unsigned n, std::uint64_t rows, std::uint64_t rows_per_round, unsigned ports)
{
    const double hop = kPortDelayWords + kHopM * kPropagationSPerM / kWordS;
    const double rt = ports * hop;
    const double handover = 2 + 2 * rt + (ports - 1) * hop;
    const double gap = 6;
    double frames = 0, loop = 0;
    for (std::uint64_t done = 0; done < rows; done += rows_per_round) {
        const double data_frames = static_cast<double>(std::min(rows_per_round, rows - done)) * kRowBytes / 2048;
        const double words = n * data_frames * (frame_words(2048) + gap) + n * (frame_words(32) + gap) +
                             (frame_words(12) + gap) + n * (frame_words(24) + gap);
        frames += words;
        loop += words + (3 * n + 1) * (handover - gap);
    }
    return {frames * kWordS, loop * kWordS};
}

// 4 members: each round's 3 reads and 1 write cross the loop of 6 ports (the controller and 5 disks).
void rebuild_bound_by_the_loop(const std::string& io_kib, const std::string& capacity_gb, std::uint64_t rows,
                               std::uint64_t rows_per_round, const std::string& disk_mbs = "10000",
                               const std::string& rounds = "4")
{
    Sets sets = idle_rebuild("0", capacity_gb, io_kib);
    for (const auto& kv : Sets{{"disk.access_ms", "0"},
                               {"disk.rate_mbs", disk_mbs},
                               {"volume.rebuild_rounds", rounds},
                               {"loop.speed", "2GFC"},
                               {"loop.port_delay_words", "6"},
                               {"loop.hop_m", "2"},
                               {"loop.propagation_ns_per_m", "5"},
                               {"initiator.max_payload", "2048"},
                               {"target.max_payload", "2048"},
                               {"initiator.login_bb_credit", "0"},
                               {"target.login_bb_credit", "0"},
                               {"target.burst_bytes", "0"}})
        sets.push_back(kv);
    const Run r = run(sets);
    const auto& v = r.results["volume"];
    REQUIRE(v["rebuilds_completed"] == 1);
    const double bytes = static_cast<double>(rows) * kRowBytes;
    CHECK(v["rebuild_bytes"] == bytes);
    const LoopBound bound = loop_bound(4, rows, rows_per_round, 6);
    const double t = v["rebuild_time_s"];
    INFO("rebuilt at " << bytes / t / 1e6 << " MB/s; the loop carries " << bytes / bound.loop_s / 1e6
                       << " MB/s, its frames alone " << bytes / bound.frames_s / 1e6);
    CHECK(t >= bound.frames_s);
    CHECK(t == Approx(bound.loop_s).epsilon(0.02));
    balanced(r.results);
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

TEST_CASE("idle rebuild with fast disks is bound by the loop carrying the n-1 reads and the write", "[validation][rebuild]")
{
    rebuild_bound_by_the_loop("64", "0.02", 305, 1);  // 64 KiB rounds, the default: 305 of them
}

TEST_CASE("idle rebuild with fast disks in 1 MiB rounds is bound by the loop with hand-overs 16 times lighter", "[validation][rebuild]")
{
    rebuild_bound_by_the_loop("1024", "0.1", 1525, 16);  // 100 MB used: 1525 rows, 95 rounds of 16 and one of 5
}

TEST_CASE("idle rebuild with disks of 150 MB/s is bound by the loop once enough rounds are in flight", "[validation][rebuild]")
{
    // A 64 KiB read takes the disk 437 us against 1.3 ms of the loop a round: with 16 rounds under way
    // the disks' latency hides behind other rounds' frames (docs/controller.md, "The loop-bound rebuild").
    rebuild_bound_by_the_loop("64", "0.02", 305, 1, "150", "16");
}

TEST_CASE("degraded RAID 5 reads of the failed member cost n-1 disk reads, the others one", "[validation][degraded]")
{
    // Sequential whole-unit reads from LBA 0, one at a time: request i reads volume unit i. Member 2
    // of 5 fails before the first request reaches it (unit 0 is on disk 0).
    constexpr unsigned n = 5, failed = 2;
    const Run r = run(sequential_after_failure("5", "raid5", "64K", true, "300", "2"));
    const std::uint64_t requests = r.results["issued_ios"];
    std::vector<std::uint64_t> units(n, 0);
    std::uint64_t degraded = 0;
    for (std::uint64_t i = 0; i < requests; ++i) {
        const unsigned disk = raid5_unit(i, n).disk;
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

TEST_CASE("degraded RAID 5 writes of one unit cost what the table gives for the member the row misses", "[validation][degraded]")
{
    // Sequential whole-unit writes from LBA 0: request i writes volume unit i (u = k = 1, the write
    // covering the parity's range R). Member 2 of 5 fails at 0 ms, before the first Poisson arrival,
    // so every row misses it, as its parity (1 row in n), as the written unit, or as another data unit.
    // The table of docs/controller.md, "Degraded mode and rebuild", with d = n-1 data units:
    //   the parity's member:   0 reads,                         u = 1 write  (the data alone);
    //   the written member's:  d-k = n-2 reads (the other data), u = 1 write  (the parity);
    //   another data member's: u+1 = 2 reads (data, parity),    u+1 = 2 writes (read-modify-write).
    constexpr unsigned n = 5, failed = 2;
    const Run r = run(sequential_after_failure("5", "raid5", "64K", false, "300", "2"));
    const std::uint64_t requests = r.results["issued_ios"];
    std::vector<std::uint64_t> reads(n, 0), writes(n, 0);
    std::uint64_t parity_lost = 0, own_lost = 0, other_lost = 0;
    for (std::uint64_t i = 0; i < requests; ++i) {
        const Raid5Unit u = raid5_unit(i, n);
        if (u.parity == failed) {
            ++parity_lost;
            ++writes[u.disk];
        } else if (u.disk == failed) {
            ++own_lost;
            for (unsigned c = 0; c < n - 1; ++c)
                if (c != u.column) ++reads[(u.parity + 1 + c) % n];
            ++writes[u.parity];
        } else {
            ++other_lost;
            for (const unsigned d : {u.disk, u.parity}) {
                ++reads[d];
                ++writes[d];
            }
        }
    }
    REQUIRE(parity_lost > 0);
    REQUIRE(own_lost > 0);
    REQUIRE(other_lost > 0);
    for (unsigned d = 0; d < n; ++d) {
        INFO("disk " << d);
        CHECK(r.reads[d] == reads[d]);
        CHECK(r.writes[d] == writes[d]);
    }
    CHECK(reads[failed] + writes[failed] == 0);
    std::uint64_t all_reads = 0, all_writes = 0;
    for (unsigned d = 0; d < n; ++d) {
        all_reads += r.reads[d];
        all_writes += r.writes[d];
    }
    CHECK(all_reads == own_lost * (n - 2) + other_lost * 2);
    CHECK(all_writes == parity_lost + own_lost + other_lost * 2);
    CHECK(r.results["volume"]["degraded_writes"] == requests);
    CHECK(r.results["failed_ios"] == 0);
    balanced(r.results);
}

TEST_CASE("degraded RAID 5 full-row writes write the n-1 survivors and read nothing", "[validation][degraded]")
{
    // Sequential 256 KiB writes from LBA 0 on 4+1 members of 64 KiB units: request i is row i, whole
    // (Poisson arrivals: the first comes after the failure at 0 ms).
    // With a member missing the row still needs no read: n-1 writes (the parity's member missing: the
    // d data units; a data member's: the other data and the parity).
    constexpr unsigned n = 5, failed = 3;
    const Run r = run(sequential_after_failure("5", "raid5", "256K", false, "200", "3"));
    const std::uint64_t requests = r.results["issued_ios"];
    for (unsigned d = 0; d < n; ++d) {
        INFO("disk " << d);
        CHECK(r.reads[d] == 0);
        CHECK(r.writes[d] == (d == failed ? 0 : requests));
    }
    CHECK(r.results["volume"]["degraded_writes"] == requests);
    CHECK(r.results["failed_ios"] == 0);
    balanced(r.results);
}

TEST_CASE("degraded RAID 1 writes go to the surviving copy alone; the intact pair writes both", "[validation][degraded]")
{
    // Two mirrored pairs (disks 0+1, 2+3) striped as RAID 0: sequential unit writes alternate between
    // them, request i on pair i mod 2. Disk 1 fails at 0 ms, before the first Poisson arrival: pair 0's
    // writes cost 1 write (disk 0), pair 1's 2.
    const Run r = run(sequential_after_failure("4", "raid1", "64K", false, "300", "1"));
    const std::uint64_t requests = r.results["issued_ios"];
    const std::uint64_t on_pair_0 = (requests + 1) / 2, on_pair_1 = requests / 2;
    CHECK(r.writes == std::vector<std::uint64_t>{on_pair_0, 0, on_pair_1, on_pair_1});
    CHECK(r.reads == std::vector<std::uint64_t>{0, 0, 0, 0});
    CHECK(r.results["volume"]["degraded_writes"] == on_pair_0);
    CHECK(r.results["failed_ios"] == 0);
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
