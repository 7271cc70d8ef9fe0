// The disk protocol's backward path (disk/disk_command.hpp; issue 20): a pass-through monitor between
// each target HBA and its disk sees every transaction both ways, and the system with the monitors
// behaves exactly as the one without (same completion times). The forward counts follow from the
// I/Os (2 KiB frames, one DMA job per frame, whole writes in one burst); the backward ones from the
// disk's own statistics.
#include <catch2/catch.hpp>

#include <systemc>

#include "hba_bench.hpp"

using namespace fcal;
using test::HbaBench;

namespace {

// A 64 KiB read and write and a 4 KiB read to each of two disks, submitted at once.
void submit_mix(HbaBench& bench)
{
    for (unsigned d = 0; d < 2; ++d) {
        bench.submit(d, true, 65536, 100);
        bench.submit(d, false, 65536, 200);
        bench.submit(d, true, 4096, 300);
    }
}

// Two like systems of two disks each, one with a monitor on each disk, given the same I/Os and run
// in one simulation until all is done.
struct PlainAndWatched {
    HbaBench plain, watched;

    explicit PlainAndWatched(const disk::DiskParams& disk)
        : plain("plain", test::initiator_params(), test::target_params(), {disk, disk}, false),
          watched("watched", test::initiator_params(), test::target_params(), {disk, disk}, true)
    {
        submit_mix(plain);
        submit_mix(watched);
        sc_core::sc_start(1, sc_core::SC_SEC);
    }
};

disk::DiskParams zoned_disk()
{
    disk::DiskParams p;
    p.model = disk::DiskModel::Zoned;
    p.queue_slots = 16;
    p.seed = 7;
    p.zoned.geometry.cylinders = 1000;
    p.zoned.geometry.heads = 2;
    p.zoned.geometry.sector_bytes = 512;
    p.zoned.geometry.revolution_s = 6e-3;
    p.zoned.geometry.sector_time_inner_s = 6e-5;
    p.zoned.geometry.sector_time_outer_s = 3e-5;
    p.zoned.seek_read_min_s = p.zoned.seek_write_min_s = 1e-3;
    p.zoned.seek_read_max_s = p.zoned.seek_write_max_s = 10e-3;
    p.zoned.positioning = disk::PositioningMode::Physical;
    p.scheduler = disk::Scheduler::Fcfs;
    p.buffer_bytes = 16384;  // a quarter of a 64 KiB read: it streams in several announcements
    p.buffer_full_ratio = 0.25;
    return p;
}

}  // namespace

TEST_CASE("A monitor between target HBA and disk sees every transaction both ways and changes nothing",
          "[hba][disk][backward_path]")
{
    const PlainAndWatched run(test::fixed_disk_params());
    const HbaBench& watched = run.watched;
    REQUIRE(run.plain.completed.size() == 6);
    CHECK(watched.completed == run.plain.completed);
    for (const auto& m : watched.monitors) {
        // Forward: 3 commands, one WriteDataIn, 32 + 2 frames read out of the buffer, 32 written in.
        CHECK(m->new_commands == 3);
        CHECK(m->write_data_in == 1);
        CHECK(m->aborts == 0);
        CHECK(m->buffer_reads == 34);
        CHECK(m->bytes_from_disk == 65536 + 4096);
        CHECK(m->buffer_writes == 32);
        CHECK(m->bytes_to_disk == 65536);
        // Backward: the fixed disk announces a read whole when it is done: one Ready per command.
        CHECK(m->ready_notices == 3);
        CHECK(m->read_data_notices == 0);
    }
}

TEST_CASE("A monitor passes a streaming disk's partial-read notices on", "[hba][disk][backward_path]")
{
    const PlainAndWatched run(zoned_disk());
    const HbaBench& watched = run.watched;
    REQUIRE(run.plain.completed.size() == 6);
    CHECK(watched.completed == run.plain.completed);
    for (std::size_t d = 0; d < 2; ++d) {
        const auto& m = *watched.monitors[d];
        const disk::DiskStats& s = watched.disks[d]->stats();
        CHECK(m.read_data_notices == s.announcements);
        // Each 4 KiB media step of the 64 KiB read reaches the full ratio (0.25 x 16 KiB) and is
        // announced, but the last, which completes the read (Ready); the 4 KiB read is one step.
        CHECK(m.read_data_notices == 65536 / 4096 - 1);
        CHECK(m.ready_notices == s.commands_served);
        CHECK(m.ready_notices == 3);
        CHECK(m.bytes_from_disk == s.buffer_bytes_out);
        CHECK(m.bytes_from_disk == 65536 + 4096);
        CHECK(m.bytes_to_disk == s.buffer_bytes_in);
        CHECK(m.forward() == m.new_commands + m.write_data_in + m.buffer_reads + m.buffer_writes);
    }
}
