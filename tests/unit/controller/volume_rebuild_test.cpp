// Rebuilds onto hot spares (docs/controller.md, "Degraded mode and rebuild") over
// fake disks whose timing the test sets, so that every time is known from first principles: an idle
// rebuild under a rate cap, one as fast as it goes (the bottleneck disk sets the pace), host writes
// during a rebuild, a second failure that loses the data, a spare that fails, an inserted disk, and
// the host's response times by phase.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "volume_bench.hpp"

using namespace fcal;
using namespace fcal::controller;
using namespace fcal::test;
using namespace sc_core;

namespace {

constexpr std::uint32_t kUnitBytes = 64 * 1024;
// 64 KiB at 65.536 MB/s: one round (one unit) per millisecond.
constexpr double kOneUnitPerMs = 65.536e6;

sc_time ms(double v) { return sc_time(v, SC_MS); }

std::vector<std::pair<double, std::string>> changes(const VolumeBench& b)
{
    nlohmann::json j;
    b.volume.report(j);
    std::vector<std::pair<double, std::string>> out;
    for (const auto& c : j["state_changes"]) out.emplace_back(c["t_s"].get<double>() * 1e3, c["state"].get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("volume rebuild: an idle raid5 rebuild under a rate cap starts rounds one interval apart")
{
    VolumeShape shape;
    shape.members = 9;  // 8+P+S
    shape.spares = 1;
    shape.rows = 40;
    shape.rebuild = {5e-3, kOneUnitPerMs, 128 * 512, 4};
    const sc_time latency(100, SC_US);
    VolumeBench b(shape, latency, true);
    b.time.run_until(ms(2));
    b.volume.disk_failed(3, "failed");
    b.time.run();
    // Rows x per-row cost: round i starts at the start + i intervals (T = 64 KiB / rate = 1 ms) and
    // takes one service time for the 8 reads side by side, then one for the write: the last of the 40
    // ends 39 T + 2 L after the start, which is the failure + the delay.
    const sc_time T = ms(1);
    const sc_time rebuild = 39 * T + 2 * latency;
    CHECK(b.volume.rebuild()->time_of_completed() == rebuild);
    CHECK(b.time.now() == ms(2) + ms(5) + rebuild);
    // Against capacity / rate (40 units of 64 KiB at 65.536 MB/s: 40 ms): within 2 %.
    CHECK(b.volume.rebuild()->time_of_completed().to_seconds() == Approx(40 * kUnitBytes / kOneUnitPerMs).epsilon(0.02));
    CHECK(changes(b) == std::vector<std::pair<double, std::string>>{{2, "degraded"}, {7, "rebuilding"}, {46.2, "optimal"}});
    CHECK(b.volume.rebuild()->bytes_written() == 40 * kUnitBytes);
    CHECK(b.volume.health().disk_of(3) == 9);
    // Each survivor read every unit once, the spare wrote every unit once, in order; disk 3 nothing.
    std::map<unsigned, std::vector<std::uint64_t>> reads, writes;
    for (const auto& s : b.disks.sent) {
        (s.read ? reads : writes)[s.disk].push_back(s.lba);
        CHECK(s.bytes == kUnitBytes);
        if (!s.read) CHECK(s.at == ms(7) + s.lba / 128 * T + latency);
    }
    std::vector<std::uint64_t> all;
    for (std::uint64_t r = 0; r < 40; ++r) all.push_back(r * 128);
    for (unsigned d = 0; d < 9; ++d) CHECK(reads[d] == (d == 3 ? std::vector<std::uint64_t>{} : all));
    CHECK(writes.size() == 1);
    CHECK(writes[9] == all);
    // The spare now serves member 3.
    std::uint64_t on_3 = 0;
    while (b.volume.layout().locate(on_3).disk != 3) on_3 += 128;
    const std::size_t from = b.disks.sent.size();
    b.submit(true, on_3, 4096);
    REQUIRE(b.sent_since(from).size() == 1);
    CHECK(b.sent_since(from)[0].disk == 9);
    b.time.run();
    b.check_account();
}

TEST_CASE("volume rebuild: as fast as it goes, the slower of the survivors' reads and the spare's writes sets the pace")
{
    // Each disk serves one command at a time. With 4 rounds in flight the bottleneck never idles:
    // a spare slower than the survivors (t_w > t_r) ends after t_r + R t_w; survivors slower than the
    // spare after R t_r + t_w.
    for (const auto& [t_r, t_w] : {std::pair{0.5, 0.8}, std::pair{0.8, 0.5}}) {
        VolumeShape shape;
        shape.members = 5;
        shape.spares = 1;
        shape.rows = 30;
        shape.rebuild = {0.0, 0.0, 128 * 512, 4};
        VolumeBench b(shape, ms(t_r), false);
        b.disks.set_service(5, ms(t_r), ms(t_w));
        b.volume.disk_failed(2, "failed");
        b.time.run();
        const double expected = t_w > t_r ? t_r + 30 * t_w : 30 * t_r + t_w;
        INFO("t_r " << t_r << " t_w " << t_w);
        CHECK(b.volume.rebuild()->time_of_completed() == ms(expected));
        CHECK(b.volume.state() == VolumeState::Optimal);
        b.check_account();
    }
}

TEST_CASE("volume rebuild: host writes to rebuilt rows go to the spare, to the others as degraded, to a row being rebuilt after it")
{
    VolumeShape shape;  // raid5 4+P, spare disk 5
    shape.spares = 1;
    shape.rows = 20;
    shape.rebuild = {0.0, kOneUnitPerMs, 128 * 512, 4};
    const sc_time L(100, SC_US);
    VolumeBench b(shape, L, true);
    const auto& layout = b.volume.layout();
    // Member 0's unit in row r: parity on 4 - r mod 5, column j on (parity + 1 + j) mod 5.
    const auto unit_on_0 = [&](std::uint64_t row) {
        for (std::uint64_t j = 0; j < 4; ++j)
            if (layout.locate((row * 4 + j) * 128).disk == 0) return (row * 4 + j) * 128;
        FAIL("row " << row << " has its parity on member 0");
        return std::uint64_t{0};
    };
    b.volume.disk_failed(0, "failed");  // rounds start at 0, 1, 2, ... ms, each done 0.2 ms later
    std::map<std::string, std::size_t> first;
    const auto submit_at = [&](const std::string& name, double t, bool read, std::uint64_t lba) {
        b.time.at(ms(t), [&, name, read, lba] {
            first[name] = b.disks.sent.size();
            b.submit(read, lba, 4096);
        });
    };
    // The first n host commands (4 KiB; the rebuild's are 64 KiB) sent from the request's submission.
    const auto sent_by = [&](const std::string& name, std::size_t n) {
        std::vector<FakeDisks::Sent> out;
        for (std::size_t i = first.at(name); i < b.disks.sent.size() && out.size() < n; ++i)
            if (b.disks.sent[i].bytes == 4096) out.push_back(b.disks.sent[i]);
        REQUIRE(out.size() == n);
        return out;
    };
    // At 10.5 ms rows 0-10 are rebuilt and no round is under way.
    submit_at("rebuilt row", 10.5, false, unit_on_0(3));
    submit_at("row not rebuilt", 10.5, false, unit_on_0(15));
    submit_at("read, row not rebuilt", 10.5, true, unit_on_0(15));
    submit_at("read, rebuilt row", 10.5, true, unit_on_0(3));
    // Round 11 runs from 11.0 to 11.2 ms: a write to its row waits for it.
    submit_at("row being rebuilt", 11.05, false, unit_on_0(11));
    // A degraded write to row 12 under way from 11.9 to 12.1 ms holds round 12 (due at 12.0) back.
    submit_at("row 12", 11.9, false, unit_on_0(12));
    b.time.run_until(ms(10.6));

    // Rebuilt: read-modify-write with the spare (disk 5) as member 0.
    auto s = sent_by("rebuilt row", 2);
    CHECK(std::set<unsigned>{s[0].disk, s[1].disk} == std::set<unsigned>{5, layout.parity_disk(3)});
    // Not rebuilt: the other three data units, then the parity; neither the spare nor disk 0.
    s = sent_by("row not rebuilt", 3);
    for (const auto& x : s) CHECK((x.read && x.disk != 0 && x.disk != 5 && x.disk != layout.parity_disk(15)));
    CHECK(sent_by("read, row not rebuilt", 4).size() == 4);
    CHECK(sent_by("read, rebuilt row", 1)[0].disk == 5);

    b.time.run_until(ms(11.25));
    s = sent_by("row being rebuilt", 2);
    CHECK(s[0].at == ms(11.2));  // held until round 11 was done
    CHECK(std::set<unsigned>{s[0].disk, s[1].disk} == std::set<unsigned>{5, layout.parity_disk(11)});

    b.time.run();
    // Round 12's reads went out when the host's write to row 12 was done, at 12.1 ms, its write at
    // 12.2; the next rounds keep the 1 ms spacing from there: round 19 at 19.1, done at 19.3 ms.
    bool round12 = false;
    for (const auto& x : b.disks.sent)
        if (!x.read && x.disk == 5 && x.lba == 12 * 128 && x.bytes == kUnitBytes) {
            round12 = true;
            CHECK(x.at == ms(12.2));
        }
    CHECK(round12);
    CHECK(b.volume.rebuild()->time_of_completed() == ms(19.3));
    CHECK(b.volume.statistics().degraded_writes() == 2);  // rows 15 and 12
    b.check_account();
}

TEST_CASE("volume rebuild: a second failure during the rebuild loses the data; every later request fails, named; the account balances")
{
    VolumeShape shape;  // raid5 4+P+S
    shape.spares = 1;
    shape.rows = 100;
    shape.rebuild = {2e-3, kOneUnitPerMs, 128 * 512, 4};
    VolumeBench b(shape, sc_time(100, SC_US), true);
    std::mt19937_64 rng(2323);
    const std::uint64_t units = b.volume.blocks() / 128;
    const auto issue = [&] {
        if (b.requests.size() >= 600 || b.time.now() >= ms(40)) return;
        b.submit(rng() % 2 == 0, (rng() % units) * 128 + 8 * (rng() % 16), 4096);
    };
    b.on_done = [&](const hba::IoRequest&) { issue(); };
    for (int i = 0; i < 4; ++i) issue();
    b.time.at(ms(5), [&] { b.volume.disk_failed(1, "failed"); });
    b.time.at(ms(30), [&] { b.volume.disk_failed(3, "removed"); });
    b.time.run();

    CHECK(b.volume.state() == VolumeState::Failed);
    CHECK(b.volume.health().data_lost());
    const std::string lost = "raid5 member 3 (disk 3: removed at 30 ms) failed while member 1 was being rebuilt";
    CHECK(b.volume.health().lost() == lost);
    CHECK(b.volume.health().failures() ==
          std::vector<std::string>{"disk 1 (member 1): failed at 5 ms", "disk 3 (member 3): removed at 30 ms"});
    CHECK_FALSE(b.volume.rebuild()->running());
    CHECK(b.volume.rebuild()->rebuilds_completed() == 0);
    REQUIRE(b.requests.size() == 600);
    std::uint64_t late = 0;
    for (const auto& r : b.requests) {
        if (r.issued >= ms(30)) {
            ++late;
            CHECK(r.failure == "volume failed: " + lost);
        } else if (r.issued < ms(5)) {
            CHECK_FALSE(r.failed());
        } else if (r.failed()) {
            CHECK(r.failure == "volume failed: " + lost);  // in flight at 30 ms and needing the lost disk
        }
    }
    const auto& st = b.volume.statistics();
    CHECK(st.failed(VolumePhase::Failed) == late);
    std::uint64_t counted = 0;
    for (auto p : {VolumePhase::Before, VolumePhase::Degraded, VolumePhase::Rebuilding, VolumePhase::After, VolumePhase::Failed})
        counted += st.completed(p) + st.failed(p);
    CHECK(counted == b.requests.size());
    CHECK(st.completed(VolumePhase::Rebuilding) > 0);
    nlohmann::json j;
    b.volume.report(j);
    CHECK(j["data_lost"] == true);
    CHECK(j["data_lost_reason"] == lost);
    CHECK(j["state"] == "failed");
    b.check_account();
}

TEST_CASE("volume rebuild: a spare that fails during the rebuild hands over to the next; an inserted disk becomes a spare")
{
    VolumeShape shape;
    shape.level = RaidLevel::Raid1;
    shape.members = 2;
    shape.spares = 2;  // disks 2 and 3
    shape.rows = 10;
    shape.rebuild = {3e-3, kOneUnitPerMs, 128 * 512, 4};
    VolumeBench b(shape, sc_time(100, SC_US), true);
    b.volume.disk_failed(0, "failed");
    b.time.at(ms(5.15), [&] { b.volume.disk_failed(2, "failed"); });  // round 2's write to it under way
    b.time.at(ms(20), [&] { b.volume.disk_inserted(0); });
    b.time.at(ms(21), [&] { b.volume.disk_failed(1, "failed"); });
    b.time.run();
    // 10 rounds: 9 intervals + the copy's read and write, 9.2 ms, each time.
    CHECK(changes(b) == std::vector<std::pair<double, std::string>>{{0, "degraded"},
                                                                    {3, "rebuilding"},
                                                                    {5.15, "degraded"},
                                                                    {8.15, "rebuilding"},
                                                                    {17.35, "optimal"},
                                                                    {21, "degraded"},
                                                                    {24, "rebuilding"},
                                                                    {33.2, "optimal"}});
    CHECK(b.volume.health().disk_of(0) == 3);
    CHECK(b.volume.health().disk_of(1) == 0);  // the inserted disk, rebuilt as member 1
    CHECK(b.volume.rebuild()->rebuilds_completed() == 2);
    CHECK(b.volume.rebuild()->time_of_completed() == ms(18.4));
    CHECK(b.volume.rebuild()->bytes_written() == (2 + 10 + 10) * kUnitBytes);  // 2 rounds onto disk 2 before it failed
    CHECK_FALSE(b.volume.health().data_lost());
    b.check_account();
}

TEST_CASE("volume rebuild: a rebuild command that fails stops the rebuild, named; the volume stays degraded")
{
    VolumeShape shape;
    shape.spares = 1;
    shape.rows = 10;
    VolumeBench b(shape, sc_time(100, SC_US), true);
    b.disks.kill(4, ms(1));  // a survivor that does not answer, though nobody has declared it failed
    b.volume.disk_failed(0, "failed");
    b.time.run();
    CHECK(b.volume.state() == VolumeState::Degraded);
    CHECK(b.volume.health().rebuild_failure() == "rebuild of member 0 abandoned: member disk 4: disk 4 does not answer");
    CHECK(b.volume.health().spares() == 1);
    b.check_account();
}

TEST_CASE("volume rebuild: the host's response times by phase, each request in the phase it arrived in")
{
    // RAID 1 with one spare; disks serve one command at a time in 0.1 ms. A read of row 9 every
    // millisecond at k + 0.55 ms. The failure at 10.5 ms, the rebuild from 15.5 ms (5 ms delay),
    // rounds at 15.5 + k ms reading the survivor for 0.1 ms: each host read of the rebuilding phase
    // waits 0.05 ms behind one (row 9 is rebuilt last, so the survivor serves it); the rebuild ends at
    // 15.5 + 9 + 0.2 = 24.7 ms.
    VolumeShape shape;
    shape.level = RaidLevel::Raid1;
    shape.members = 2;
    shape.spares = 1;
    shape.rows = 10;
    shape.rebuild = {5e-3, kOneUnitPerMs, 128 * 512, 4};
    VolumeBench b(shape, sc_time(100, SC_US), false);
    for (int k = 0; k < 40; ++k) b.time.at(ms(k + 0.55), [&] { b.submit(true, 9 * 128, 4096); });
    b.time.at(ms(10.5), [&] { b.volume.disk_failed(0, "failed"); });
    b.time.run();
    const auto& st = b.volume.statistics();
    CHECK(st.completed(VolumePhase::Before) == 10);
    CHECK(st.completed(VolumePhase::Degraded) == 5);
    CHECK(st.completed(VolumePhase::Rebuilding) == 10);
    CHECK(st.completed(VolumePhase::After) == 15);
    for (auto p : {VolumePhase::Before, VolumePhase::Degraded, VolumePhase::After}) {
        CHECK(st.mean_s(p) == Approx(100e-6).epsilon(1e-9));
        CHECK(st.p99_s(p) == Approx(100e-6).epsilon(1e-9));
    }
    CHECK(st.mean_s(VolumePhase::Rebuilding) == Approx(150e-6).epsilon(1e-9));
    CHECK(st.p99_s(VolumePhase::Rebuilding) == Approx(150e-6).epsilon(1e-9));
    nlohmann::json j;
    b.volume.report(j);
    CHECK(j["phases"]["rebuilding"]["completed"] == 10);
    CHECK(j["phases"]["rebuilding"]["p99_response_us"].get<double>() == Approx(150.0));
    CHECK(j["rebuild_time_s"].get<double>() == Approx(9.2e-3));
    b.check_account();
}

TEST_CASE("volume rebuild: with rounds shorter than a row, a row part rebuilt holds host writes back until it is whole")
{
    VolumeShape shape;  // raid5 4+P, spare disk 5
    shape.spares = 1;
    shape.rows = 4;
    shape.rebuild = {0.0, kOneUnitPerMs, 64 * 512, 4};  // half a unit: a round every 0.5 ms
    VolumeBench b(shape, sc_time(100, SC_US), true);
    const auto& layout = b.volume.layout();
    std::uint64_t row0_on_0 = 0, row1_on_0 = 4 * 128;
    while (layout.locate(row0_on_0).disk != 0) row0_on_0 += 128;
    while (layout.locate(row1_on_0).disk != 0) row1_on_0 += 128;
    b.volume.disk_failed(0, "failed");
    // At 0.3 ms the first half of row 0 is rebuilt (0 - 0.2 ms) and the second half's round (0.5 -
    // 0.7 ms) not yet started: row 0 is locked, row 1 is not.
    hba::IoRequest* w0 = nullptr;
    hba::IoRequest* w1 = nullptr;
    std::size_t before = 0;
    b.time.at(ms(0.3), [&] {
        before = b.disks.sent.size();
        w0 = &b.submit(false, row0_on_0, 4096);
        w1 = &b.submit(false, row1_on_0, 4096);
    });
    b.time.run_until(ms(0.35));
    CHECK(b.volume.waiting() == 1);
    auto sent = b.sent_since(before);
    REQUIRE(sent.size() == 3);  // w1, degraded: the row's other three data units
    for (const auto& s : sent) CHECK((s.read && s.disk != 0 && s.disk != 5));
    b.time.run();
    CHECK(w0->completed == ms(0.7) + sc_time(200, SC_US));  // planned at 0.7 ms with the spare: reads, then writes
    bool spare_written = false;
    for (const auto& s : b.disks.sent) spare_written = spare_written || (s.disk == 5 && !s.read && s.bytes == 4096 && s.at == ms(0.8));
    CHECK(spare_written);
    CHECK(w1->completed == sc_time(500, SC_US));
    b.check_account();
}

TEST_CASE("volume rebuild: random failures, insertions and host load; every request ends once, no command reaches a gone disk")
{
    for (const RaidLevel level : {RaidLevel::Raid5, RaidLevel::Raid1})
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            VolumeShape shape;
            shape.level = level;
            shape.members = level == RaidLevel::Raid5 ? 5 : 4;
            shape.spares = 2;
            shape.rows = 12;
            shape.unit_blocks = 16;
            std::mt19937_64 rng(seed);
            shape.rebuild = {static_cast<double>(rng() % 3) * 1e-3, rng() % 2 ? 0.0 : 4e6, (8 + rng() % 24) * 512, 1 + static_cast<unsigned>(rng() % 4)};
            VolumeBench b(shape, sc_time(100, SC_US), false);
            const unsigned disks = shape.members + shape.spares;
            std::vector<bool> gone(disks, false);
            std::size_t checked = 0;
            const auto check_sent = [&] {
                for (; checked < b.disks.sent.size(); ++checked) CHECK_FALSE(gone[b.disks.sent[checked].disk]);
            };
            const std::uint64_t blocks = b.volume.blocks();
            const auto issue = [&] {
                if (b.requests.size() >= 1000) return;
                const std::uint64_t n = 1 + rng() % 40;
                const std::uint64_t lba = rng() % (blocks - n);
                b.submit(rng() % 2 == 0, lba, static_cast<std::uint32_t>(n * 512));
                check_sent();
            };
            b.on_done = [&](const hba::IoRequest&) { issue(); };
            for (int i = 0; i < 8; ++i) issue();
            // Disk events at random times: a present disk fails, a gone one is replaced.
            for (int e = 0; e < 5; ++e)
                b.time.at(sc_time(static_cast<double>(1 + rng() % 30), SC_MS), [&, pick = rng()] {
                    check_sent();
                    std::vector<unsigned> present, absent;
                    for (unsigned d = 0; d < disks; ++d) (gone[d] ? absent : present).push_back(d);
                    if (pick % 2 != 0 || absent.empty()) {
                        const unsigned d = present[pick % present.size()];
                        gone[d] = true;
                        b.volume.disk_failed(d, "failed");
                    } else {
                        const unsigned d = absent[pick % absent.size()];
                        gone[d] = false;
                        b.volume.disk_inserted(d);
                    }
                });
            while (b.time.step()) check_sent();
            INFO("level " << controller::to_string(level) << " seed " << seed);
            b.check_account();
            const bool lost = b.volume.health().data_lost();
            for (const auto& [id, why] : b.failures) CHECK(why.rfind("volume failed: ", 0) == 0);
            if (!lost) CHECK(b.failures.empty());
            CHECK_FALSE(b.volume.rebuild()->running());
            CHECK(b.volume.state() != VolumeState::Rebuilding);
        }
}
