// WRITE SAME at the disk (docs/erasure.md, "Erasure"): one sector of data written to a whole range,
// positioned like any command and then passing the range track by track, one revolution per track.
// Expected times are worked out here from the geometry.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <systemc>
#include <tuple>
#include <tlm>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/disk/disk_initiator_socket.hpp"
#include "fcal/disk/zone_geometry.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_ZERO_TIME;

namespace {

constexpr double kRevolution = 10e-3;  // 6000 rpm

// A tiny drive: `cylinders` x `heads`, sectors of 512 bytes, t_inner / t_outer in ms.
disk::DiskParams tiny(unsigned cylinders, unsigned heads, double inner_ms, double outer_ms)
{
    disk::DiskParams p;
    p.model = disk::DiskModel::Zoned;
    p.queue_slots = 4;
    p.seed = 1;
    p.zoned.geometry = {cylinders, heads, 512, kRevolution, inner_ms * 1e-3, outer_ms * 1e-3};
    p.zoned.seek_read_min_s = p.zoned.seek_write_min_s = 1e-3;
    p.zoned.seek_read_max_s = p.zoned.seek_write_max_s = 3e-3;
    p.zoned.positioning = disk::PositioningMode::Physical;
    p.scheduler = disk::Scheduler::Fcfs;
    p.buffer_bytes = 64 * 1024;
    p.buffer_full_ratio = 0.25;
    return p;
}

// Plays the target HBA: sends a WRITE SAME (command, its one sector of data, "data in"), and with
// `chain` sends the next range as soon as the previous one is done.
struct Bench : sc_core::sc_module, disk::DiskReady {
    disk::DiskInitiatorSocket out;
    disk::Disk disk;
    std::map<std::uint64_t, sc_time> ready;
    std::function<void(std::uint64_t tag)> chain;

    Bench(sc_core::sc_module_name name, const disk::DiskParams& params) : sc_module(name), out("out", *this), disk("disk", params)
    {
        out.bind(disk.socket);
    }
    void disk_ready(std::uint64_t tag) override
    {
        ready[tag] = sc_time_stamp();
        if (chain) chain(tag);
    }

    tlm::tlm_response_status transact(disk::CommandKind kind, std::uint64_t tag, std::uint64_t lba, std::uint32_t blocks,
                                      std::uint32_t bytes = 512)
    {
        disk::DiskCommand cmd;
        cmd.read = false;  // a write of `bytes` to every sector of [lba, lba + blocks)
        std::tie(cmd.kind, cmd.tag, cmd.lba, cmd.same_blocks, cmd.bytes) = std::make_tuple(kind, tag, lba, blocks, bytes);
        return out.command(cmd);
    }
    // Returns whether the disk took the command.
    bool write_same(std::uint64_t tag, std::uint64_t lba, std::uint32_t blocks, std::uint32_t bytes = 512)
    {
        if (transact(disk::CommandKind::New, tag, lba, blocks, bytes) != tlm::TLM_OK_RESPONSE) return false;
        REQUIRE(out.buffer(tlm::TLM_WRITE_COMMAND, tag, 0, bytes) == tlm::TLM_OK_RESPONSE);
        REQUIRE(transact(disk::CommandKind::WriteDataIn, tag, lba, blocks, bytes) == tlm::TLM_OK_RESPONSE);
        return true;
    }
};

}  // namespace

TEST_CASE("WRITE SAME pass of a whole zoned disk: one revolution per track", "[disk][erase]")
{
    // 3 cylinders, 1 head, 100 sectors per track inside, 200 outside: N(x) = 100 x + 25 x^2, so the
    // tracks hold 125, 175 and 225 sectors and the disk 525. One range over all of it, from LBA 0 at
    // t = 0 (head on cylinder 0, angle 0): no seek, no wait, 3 tracks x one revolution.
    const disk::ZoneGeometry g(tiny(3, 1, 0.1, 0.05).zoned.geometry);
    REQUIRE(g.capacity_sectors() == 525);
    Bench bench("bench", tiny(3, 1, 0.1, 0.05));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.write_same(1, 0, 525));
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx(3 * kRevolution).margin(1e-12));
    REQUIRE(bench.disk.stats().media_bytes == 525 * 512);
    REQUIRE(bench.disk.stats().buffer_bytes_in == 512);  // one sector of data
}

TEST_CASE("WRITE SAME of part of a zoned disk: rotational wait then the tracks' shares", "[disk][erase]")
{
    // LBA 100 lies 100/125 of the way round cylinder 0's track: wait 0.8 R. The range [100, 300)
    // covers the last 25 of its 125 sectors (0.2 R) and all 175 of cylinder 1 (R); the seek between
    // cylinders within one command is free (perfect skew).
    Bench bench("bench", tiny(3, 1, 0.1, 0.05));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.write_same(1, 100, 200));
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx((0.8 + 0.2 + 1.0) * kRevolution).margin(1e-12));
    REQUIRE(bench.disk.stats().rotation_s == Approx(0.8 * kRevolution));
}

TEST_CASE("Sequential WRITE SAME pass of one cylinder per command: tracks x R plus the cylinder switches", "[disk][erase]")
{
    // 4 cylinders x 2 heads, no zoning, 100 sectors per track: each cylinder is LBAs [200 i, 200 i + 200).
    // Commands of 200 sectors, each sent when the previous is done. The first starts at angle 0 with
    // no seek; every later one seeks one cylinder (the track-to-track seek, 1 ms) and, having just
    // passed angle 0 at the end of the previous cylinder, waits for it to come round: (R - seek).
    const unsigned cylinders = 4, heads = 2;
    const double seek = 1e-3;
    Bench bench("bench", tiny(cylinders, heads, 0.1, 0.1));
    bench.chain = [&bench](std::uint64_t tag) {
        if (tag < 4) REQUIRE(bench.write_same(tag + 1, 200 * tag, 200));
    };
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.write_same(1, 0, 200));
    sc_start(1, sc_core::SC_SEC);
    const double tracks = cylinders * heads;
    const double switches = cylinders - 1;
    const double expected = tracks * kRevolution + switches * (seek + (kRevolution - seek));
    REQUIRE(bench.ready.at(4).to_seconds() == Approx(expected).margin(1e-12));
    REQUIRE(bench.disk.stats().seek_s == Approx(switches * seek));
    REQUIRE(bench.disk.stats().media_bytes == 800 * 512);
}

TEST_CASE("WRITE SAME on a fixed disk: access time + range bytes / media rate", "[disk][erase]")
{
    disk::DiskParams p;
    p.model = disk::DiskModel::Fixed;
    p.queue_slots = 4;
    p.seed = 1;
    p.access_time_s = 2e-3;
    p.access_dist = disk::AccessDist::Constant;
    p.media_rate_bytes_per_s = 50e6;
    p.capacity_bytes = 100000.0 * disk::kFixedSectorBytes;
    Bench bench("bench", p);
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.write_same(1, 0, 65535));
    sc_start(10, sc_core::SC_SEC);
    REQUIRE(bench.ready.at(1).to_seconds() == Approx(2e-3 + 65535.0 * 512 / 50e6).margin(1e-12));
    // The rest of the disk fits; one block more does not (never a wrap).
    REQUIRE_FALSE(bench.write_same(2, 65535, 100000 - 65535 + 1));
    REQUIRE(bench.write_same(3, 65535, 100000 - 65535));
}

TEST_CASE("WRITE SAME past the end of a zoned disk or with other than one sector of data is refused", "[disk][erase]")
{
    Bench bench("bench", tiny(3, 1, 0.1, 0.05));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.transact(disk::CommandKind::New, 1, 500, 26) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    REQUIRE(bench.transact(disk::CommandKind::New, 2, 0, 10, 1024) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    REQUIRE(bench.transact(disk::CommandKind::New, 3, 500, 25) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.disk.stats().commands_accepted == 1);
}
