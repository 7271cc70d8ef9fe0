// The zoned disk: geometry and LBA mapping, read streaming through the buffer with the full-ratio
// rule, write-back, SPTF, and the fixed model's access-time distributions. Expected values are
// worked out here from the formulas of docs/model.md ("The disks").
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/disk/fixed_mechanism.hpp"
#include "fcal/disk/zone_geometry.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_ZERO_TIME;

namespace {

// A small drive: 1000 cylinders, 2 heads, 6000 rpm (R = 10 ms), 100 sectors per track inside and
// 200 outside (t = 0.1 ms and 0.05 ms).
disk::ZoneGeometryParams small_geometry()
{
    disk::ZoneGeometryParams g;
    g.cylinders = 1000;
    g.heads = 2;
    g.sector_bytes = 512;
    g.revolution_s = 10e-3;
    g.sector_time_inner_s = 0.1e-3;
    g.sector_time_outer_s = 0.05e-3;
    return g;
}

// N(x) = heads (SEC_in x + (SEC_out - SEC_in) x^2 / (2 (C - 1))) for the small drive.
double sectors_below(double x) { return 2 * (100 * x + 100 * x * x / (2 * 999.0)); }

disk::DiskParams zoned(std::uint64_t buffer_bytes = 64 * 1024, bool write_cache = false,
                       disk::Scheduler scheduler = disk::Scheduler::Fcfs)
{
    disk::DiskParams p;
    p.model = disk::DiskModel::Zoned;
    p.queue_slots = 8;
    p.seed = 1;
    p.zoned.geometry = small_geometry();
    p.zoned.seek_read_min_s = 1e-3;
    p.zoned.seek_read_max_s = 10e-3;
    p.zoned.seek_write_min_s = 1e-3;
    p.zoned.seek_write_max_s = 10e-3;
    p.zoned.positioning = disk::PositioningMode::Physical;
    p.zoned.command_overhead_s = 0;
    p.scheduler = scheduler;
    p.write_cache = write_cache;
    p.buffer_bytes = buffer_bytes;
    p.buffer_full_ratio = 0.25;
    return p;
}

// Plays the target HBA. With `drain`, it takes announced read data out of the buffer at once.
struct Bench : sc_core::sc_module, disk::DiskReady {
    tlm_utils::simple_initiator_socket<Bench> out;
    disk::Disk disk;
    bool drain = true;
    std::map<std::uint64_t, sc_time> ready;
    std::map<std::uint64_t, std::uint32_t> taken;
    std::vector<std::uint32_t> announced;

    Bench(sc_core::sc_module_name name, const disk::DiskParams& params) : sc_module(name), out("out"), disk("disk", params)
    {
        out.bind(disk.socket);
    }

    void read_data(std::uint64_t tag, std::uint32_t bytes) override
    {
        announced.push_back(bytes);
        if (drain) take(tag, bytes);
    }
    void disk_ready(std::uint64_t tag) override
    {
        ready[tag] = sc_time_stamp();
        if (drain && disk_reads.count(tag)) take(tag, disk_reads[tag]);
    }

    void take(std::uint64_t tag, std::uint32_t upto)
    {
        std::uint32_t& from = taken[tag];
        if (upto <= from) return;
        std::vector<unsigned char> buffer(upto - from);
        tlm::tlm_generic_payload trans;
        trans.set_command(tlm::TLM_READ_COMMAND);
        trans.set_address(disk::buffer_address(tag, from));
        trans.set_data_ptr(buffer.data());
        trans.set_data_length(upto - from);
        trans.set_streaming_width(upto - from);
        sc_time delay = SC_ZERO_TIME;
        out->b_transport(trans, delay);
        REQUIRE(trans.get_response_status() == tlm::TLM_OK_RESPONSE);
        from = upto;
    }

    void command(disk::CommandKind kind, bool read, std::uint32_t bytes, std::uint64_t tag, std::uint64_t lba)
    {
        tlm::tlm_generic_payload trans;
        disk::DiskCommand cmd;
        cmd.kind = kind;
        cmd.read = read;
        cmd.bytes = bytes;
        cmd.tag = tag;
        cmd.lba = lba;
        cmd.done = this;
        disk::prepare_command(trans, cmd);
        sc_time delay = SC_ZERO_TIME;
        out->b_transport(trans, delay);
        trans.clear_extension(&cmd);
        REQUIRE(trans.get_response_status() == tlm::TLM_OK_RESPONSE);
        REQUIRE(cmd.status == disk::CommandStatus::Accepted);
        if (read) disk_reads[tag] = bytes;
    }
    void read(std::uint32_t bytes, std::uint64_t tag, std::uint64_t lba) { command(disk::CommandKind::New, true, bytes, tag, lba); }

    std::map<std::uint64_t, std::uint32_t> disk_reads;
};

}  // namespace

TEST_CASE("Zone geometry: capacity and LBA placement follow N(x)", "[disk][zoned]")
{
    const disk::ZoneGeometry g(small_geometry());
    REQUIRE(g.capacity_sectors() == static_cast<std::uint64_t>(std::floor(sectors_below(1000))));
    REQUIRE(g.sectors_per_track(0) == Approx(100));
    REQUIRE(g.sectors_per_track(999) == Approx(200));
    const disk::SectorPlace first = g.place(0);
    REQUIRE(first.cylinder == 0);
    REQUIRE(first.head == 0);
    REQUIRE(first.angle == 0);
    const disk::SectorPlace last = g.place(g.capacity_sectors() - 1);
    REQUIRE(last.cylinder == 999);
    REQUIRE(last.head == 1);
    REQUIRE_THROWS(g.place(g.capacity_sectors()));
    // Every LBA lies in the cylinder whose sector range holds it; head and angle follow the track.
    for (std::uint64_t lba = 0; lba < g.capacity_sectors(); lba += 997) {
        const disk::SectorPlace s = g.place(lba);
        const double l = static_cast<double>(lba);
        REQUIRE(sectors_below(s.cylinder) <= l + 1e-6);
        REQUIRE(l < sectors_below(s.cylinder + 1) + 1e-6);
        const double track = (sectors_below(s.cylinder + 1) - sectors_below(s.cylinder)) / 2;
        const double offset = l - sectors_below(s.cylinder);
        REQUIRE(s.head == static_cast<unsigned>(offset / track));
        REQUIRE(s.angle == Approx(offset / track - s.head).margin(1e-9));
    }
    // Media rate: SEC(i) sectors per revolution.
    REQUIRE(g.bytes_per_s(0) == Approx(100 * 512 / 10e-3));
}

TEST_CASE("Zoned read: rotational wait to the first sector, then the media rate", "[disk][zoned]")
{
    Bench bench("bench", zoned());
    sc_start(SC_ZERO_TIME);
    // LBA 50 is halfway round track 0 of cylinder 0 (100.05 sectors per track there); the head is on
    // cylinder 0 and the spindle at angle 0 at t = 0: no seek, wait 50 / track of a revolution.
    const double track = sectors_below(1) / 2;
    const double wait_s = 50 / track * 10e-3;
    const double transfer_s = 4096 / (100 * 512 / 10e-3);
    bench.read(4096, 1, 50);
    sc_start(100, SC_MS);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx(wait_s + transfer_s).margin(1e-9));
    REQUIRE(bench.disk.stats().seek_s == 0);
    REQUIRE(bench.disk.stats().rotation_s == Approx(wait_s));
}

TEST_CASE("Zoned read streams through the buffer: announced at the full ratio, overlapping the medium", "[disk][zoned]")
{
    // Buffer 64 KiB, ratio 0.25: announcements every 16 KiB; a 256 KiB read from LBA 0 (no seek,
    // no rotational wait), drained at once, never pauses and ends after 256 KiB at cylinder 0's rate.
    Bench bench("bench", zoned(64 * 1024));
    sc_start(SC_ZERO_TIME);
    bench.read(256 * 1024, 1, 0);
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx(256.0 * 1024 / (100 * 512 / 10e-3)).margin(1e-9));
    REQUIRE(bench.announced.size() == 15);  // 16 KiB, 32 KiB, ... 240 KiB; the rest with disk_ready
    for (std::size_t i = 0; i < bench.announced.size(); ++i) REQUIRE(bench.announced[i] == (i + 1) * 16 * 1024);
    REQUIRE(bench.disk.stats().media_pauses == 0);
    REQUIRE(bench.disk.stats().buffer_bytes_out == 256 * 1024);
}

TEST_CASE("Zoned read pauses the medium while the buffer is full", "[disk][zoned]")
{
    Bench bench("bench", zoned(64 * 1024));
    bench.drain = false;
    sc_start(SC_ZERO_TIME);
    bench.read(256 * 1024, 1, 0);
    sc_start(100, SC_MS);  // 64 KiB take 6.4 ms at 5.12 MB/s: the buffer is long full
    REQUIRE(bench.ready.count(1) == 0);
    REQUIRE(bench.disk.stats().media_pauses == 1);
    REQUIRE(bench.announced.back() == 64 * 1024);  // everything in the buffer went to the HBA
    // Draining it at 100 ms lets the medium go on once the next sector comes round again (the
    // medium stopped at 64 KiB / rate; whole revolutions of 10 ms later it is back under the head),
    // then 192 KiB more, drained as announced from now on.
    const double rate = 100 * 512 / 10e-3;
    const double stopped = 64.0 * 1024 / rate;
    const double behind = std::fmod(0.1 - stopped, 10e-3);
    bench.drain = true;
    bench.take(1, 64 * 1024);
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx(0.1 + (10e-3 - behind) + 192.0 * 1024 / rate).margin(1e-9));
}

TEST_CASE("Zoned write-back completes when the data is in the buffer", "[disk][zoned]")
{
    Bench bench("bench", zoned(64 * 1024, true));
    sc_start(SC_ZERO_TIME);
    bench.command(disk::CommandKind::New, false, 16 * 1024, 5, 0);
    sc_start(1, SC_MS);
    bench.command(disk::CommandKind::WriteDataIn, false, 0, 5, 0);
    sc_start(SC_ZERO_TIME);
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.ready.at(5) == sc_time(1, SC_MS));
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.disk.busy());  // the medium write follows
    REQUIRE(bench.disk.stats().writes_cached == 1);
    sc_start(100, SC_MS);
    REQUIRE(!bench.disk.busy());
}

TEST_CASE("Zoned write-through completes when the data is on the medium", "[disk][zoned]")
{
    Bench bench("bench", zoned(64 * 1024, false));
    sc_start(SC_ZERO_TIME);
    bench.command(disk::CommandKind::New, false, 16 * 1024, 5, 0);
    bench.command(disk::CommandKind::WriteDataIn, false, 0, 5, 0);
    sc_start(100, SC_MS);
    // From cylinder 0, LBA 0 at t = 0: no seek, no wait, 16 KiB at cylinder 0's rate.
    REQUIRE(bench.ready.at(5).to_seconds() == Approx(16.0 * 1024 / (100 * 512 / 10e-3)).margin(1e-9));
    REQUIRE(bench.disk.stats().writes_cached == 0);
}

namespace {

// Three reads: one in service at once from LBA 0, then one on the outermost cylinder, then one
// near the head; returns their ready times.
std::map<std::uint64_t, sc_time> far_then_near(disk::Scheduler scheduler)
{
    Bench bench("bench", zoned(1024 * 1024, false, scheduler));
    sc_start(SC_ZERO_TIME);
    const disk::ZoneGeometry g(small_geometry());
    bench.read(4096, 1, 0);
    bench.read(4096, 2, g.capacity_sectors() - 100);
    bench.read(4096, 3, 400);  // cylinder 1 or 2
    sc_start(1, sc_core::SC_SEC);
    return bench.ready;
}

}  // namespace

TEST_CASE("SPTF serves the queued command with the shortest positioning first", "[disk][zoned]")
{
    const auto ready = far_then_near(disk::Scheduler::Sptf);
    REQUIRE(ready.at(3) < ready.at(2));
}

TEST_CASE("FCFS serves the queued commands in arrival order", "[disk][zoned]")
{
    const auto ready = far_then_near(disk::Scheduler::Fcfs);
    REQUIRE(ready.at(1) < ready.at(2));
    REQUIRE(ready.at(2) < ready.at(3));
}

TEST_CASE("Fixed access-time distributions keep the mean and are reproducible", "[disk]")
{
    const double mean = 2e-3;
    for (const auto dist : {disk::AccessDist::Uniform, disk::AccessDist::Exponential}) {
        disk::FixedMechanism m(mean, dist, 50e6, 7), again(mean, dist, 50e6, 7), other(mean, dist, 50e6, 8);
        const int n = 200000;
        double sum = 0, sum2 = 0, low = 1, high = 0;
        bool differs = false;
        for (int i = 0; i < n; ++i) {
            const double x = m.position({}, 0).rotation_s;
            REQUIRE(x == again.position({}, 0).rotation_s);
            differs = differs || x != other.position({}, 0).rotation_s;
            sum += x;
            sum2 += x * x;
            low = std::min(low, x);
            high = std::max(high, x);
        }
        REQUIRE(differs);
        REQUIRE(sum / n == Approx(mean).epsilon(0.01));
        const double var = sum2 / n - (sum / n) * (sum / n);
        if (dist == disk::AccessDist::Uniform) {
            REQUIRE(var == Approx(4 * mean * mean / 12).epsilon(0.02));  // uniform on [0, 2 mean]
            REQUIRE(low >= 0);
            REQUIRE(high <= 2 * mean);
        } else {
            REQUIRE(var == Approx(mean * mean).epsilon(0.03));
        }
    }
    disk::FixedMechanism constant(mean, disk::AccessDist::Constant, 50e6, 7);
    REQUIRE(constant.position({}, 0).rotation_s == mean);
}

// FCP recovery (docs/model.md, "Faults and recovery: FCP recovery"): a streaming read aborted while
// the full buffer holds the medium gives back its slot and its buffer space; without that the next
// read would pause for ever.
TEST_CASE("Zoned read aborted while paused frees its slot and the buffer", "[disk][zoned][recovery]")
{
    Bench bench("bench", zoned(64 * 1024));
    bench.drain = false;
    sc_start(SC_ZERO_TIME);
    bench.read(256 * 1024, 1, 0);
    sc_start(100, SC_MS);
    REQUIRE(bench.disk.stats().media_pauses > 0);
    REQUIRE(bench.ready.count(1) == 0);
    bench.command(disk::CommandKind::Abort, false, 0, 1, 0);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(!bench.disk.busy());
    REQUIRE(bench.disk.stats().commands_aborted == 1);
    bench.drain = true;
    bench.read(256 * 1024, 2, 0);
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(bench.ready.count(1) == 0);
    REQUIRE(bench.ready.count(2) == 1);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.taken.at(2) == 256 * 1024);
}
