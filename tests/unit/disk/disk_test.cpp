// Disk target: command queue, actuator timing and buffer accesses over TLM-2.0.
// Expected times are worked out here: service = access + bytes / media rate.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/disk/disk_initiator_socket.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;
using sc_core::sc_time_stamp;
using sc_core::SC_ZERO_TIME;

namespace {

// 2 ms + 65536 B / 50e6 B/s = 2 ms + 1.31072 ms.
const sc_time kService64k(3.31072, SC_MS);

// Plays the target HBA: issues commands and buffer accesses, records disk_ready times.
struct Bench : sc_core::sc_module, disk::DiskReady {
    disk::DiskInitiatorSocket out;
    disk::Disk disk;
    std::map<std::uint64_t, sc_time> ready;
    std::function<void(std::uint64_t)> on_ready;

    Bench(sc_core::sc_module_name name, const disk::DiskParams& params) : sc_module(name), out("out", *this), disk("disk", params)
    {
        out.bind(disk.socket);
    }

    void disk_ready(std::uint64_t tag) override
    {
        REQUIRE(ready.count(tag) == 0);
        ready[tag] = sc_time_stamp();
        if (on_ready) on_ready(tag);
    }

    // A new command; TLM_OK_RESPONSE with accepted() or task_set_full(), or an error.
    tlm::tlm_response_status command(bool read, std::uint32_t bytes, std::uint64_t tag,
                                     sc_time delay = SC_ZERO_TIME, std::uint64_t lba = 0)
    {
        disk::DiskCommand cmd;
        cmd.read = read;
        cmd.bytes = bytes;
        cmd.tag = tag;
        cmd.lba = lba;
        const tlm::tlm_response_status status = send(cmd, delay);
        last_status = cmd.status;
        return status;
    }
    bool accepted(bool read, std::uint32_t bytes, std::uint64_t tag, sc_time delay = SC_ZERO_TIME, std::uint64_t lba = 0)
    {
        return command(read, bytes, tag, delay, lba) == tlm::TLM_OK_RESPONSE &&
               last_status == disk::CommandStatus::Accepted;
    }
    bool task_set_full(bool read, std::uint32_t bytes, std::uint64_t tag)
    {
        return command(read, bytes, tag) == tlm::TLM_OK_RESPONSE && last_status == disk::CommandStatus::TaskSetFull;
    }

    // All data of write `tag` is in the buffer.
    tlm::tlm_response_status data_in(std::uint64_t tag, sc_time delay = SC_ZERO_TIME)
    {
        disk::DiskCommand cmd;
        cmd.kind = disk::CommandKind::WriteDataIn;
        cmd.read = false;
        cmd.tag = tag;
        return send(cmd, delay);
    }

    // The initiator aborted command `tag` (CommandKind::Abort).
    tlm::tlm_response_status abort(std::uint64_t tag)
    {
        disk::DiskCommand cmd;
        cmd.kind = disk::CommandKind::Abort;
        cmd.tag = tag;
        return send(cmd);
    }

    tlm::tlm_response_status send(disk::DiskCommand& cmd, sc_time delay = SC_ZERO_TIME) { return out.command(cmd, delay); }

    tlm::tlm_response_status data(tlm::tlm_command command, std::uint64_t tag, std::uint32_t offset, std::uint32_t bytes,
                                  sc_time delay = SC_ZERO_TIME)
    {
        return out.buffer(command, tag, offset, bytes, delay);
    }

    disk::CommandStatus last_status = disk::CommandStatus::Accepted;
};

disk::DiskParams baseline(unsigned slots = 8)
{
    disk::DiskParams p;
    p.access_time_s = 2e-3;
    p.media_rate_bytes_per_s = 50e6;
    p.queue_slots = slots;
    return p;
}

}  // namespace

TEST_CASE("Disk read is ready after access time plus size over media rate", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 7));
    REQUIRE(bench.disk.queued() == 1);
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.size() == 1);
    REQUIRE(bench.ready.at(7) == kService64k);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.disk.stats().commands_served == 1);
    REQUIRE(bench.disk.stats().reads_served == 1);
    REQUIRE(bench.disk.stats().busy_time == kService64k);
}

TEST_CASE("Disk serves two queued commands back to back", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 1));
    REQUIRE(bench.accepted(true, 65536, 2));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(1) == kService64k);
    REQUIRE(bench.ready.at(2) == sc_time(6.62144, SC_MS));  // 2 x 3.31072 ms
    REQUIRE(bench.disk.stats().max_queue == 2);
    REQUIRE(bench.disk.stats().commands_served == 2);
    REQUIRE(bench.disk.stats().busy_time == sc_time(6.62144, SC_MS));
}

TEST_CASE("Disk serves commands of different sizes first come first served", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 1000000, 1));  // 2 ms + 20 ms
    REQUIRE(bench.accepted(false, 4096, 2));    // 2 ms + 81.92 us
    REQUIRE(bench.data_in(2) == tlm::TLM_OK_RESPONSE);
    sc_start(50, SC_MS);
    REQUIRE(bench.ready.at(1) == sc_time(22, SC_MS));
    REQUIRE(bench.ready.at(2) == sc_time(22, SC_MS) + sc_time(2081.92, SC_US));
}

TEST_CASE("Disk answers TASK SET FULL when every queue slot is taken", "[disk]")
{
    Bench bench("bench", baseline(2));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 1));
    REQUIRE(bench.accepted(true, 65536, 2));
    REQUIRE(bench.task_set_full(true, 65536, 3));
    REQUIRE(bench.disk.queued() == 2);
    // The first command's slot is free once it is ready.
    sc_start(4, SC_MS);
    REQUIRE(bench.ready.count(1) == 1);
    REQUIRE(bench.accepted(true, 65536, 4));
    REQUIRE(bench.task_set_full(true, 65536, 5));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.count(3) == 0);
    REQUIRE(bench.ready.count(5) == 0);
    // Command 4 waited for command 2: ready at 3 x service.
    REQUIRE(bench.ready.at(4) == sc_time(3 * 3.31072, SC_MS));
    REQUIRE(bench.disk.stats().commands_accepted == 3);
    REQUIRE(bench.disk.stats().commands_rejected == 2);
    REQUIRE(bench.disk.stats().max_queue == 2);
}

TEST_CASE("Disk write completes access plus transfer after its data is in (write-through)", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    // The write takes a slot at once; the HBA fills the buffer with 32 frames' worth of data, then
    // says at 1 ms that all is in.
    REQUIRE(bench.accepted(false, 65536, 9));
    REQUIRE(bench.disk.queued() == 1);
    for (std::uint32_t i = 0; i < 32; ++i)
        REQUIRE(bench.data(tlm::TLM_WRITE_COMMAND, 9, i * 2048, 2048) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.disk.stats().buffer_bytes_in == 65536);
    REQUIRE(sc_time_stamp() == SC_ZERO_TIME);  // buffer accesses take no time
    sc_start(1, SC_MS);
    REQUIRE(!bench.disk.busy());  // nothing to write before the data is in
    REQUIRE(bench.data_in(9) == tlm::TLM_OK_RESPONSE);
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.at(9) == sc_time(1, SC_MS) + kService64k);
    REQUIRE(bench.disk.stats().writes_served == 1);
    REQUIRE(bench.disk.queued() == 0);
}

TEST_CASE("Disk read data leaves the buffer at once, and only once announced", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 4096, 1));
    // Not in the buffer yet.
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 1, 0, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    sc_start(5, SC_MS);
    const sc_time before = sc_time_stamp();
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 1, 0, 2048) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 1, 2048, 2048) == tlm::TLM_OK_RESPONSE);
    REQUIRE(sc_time_stamp() == before);
    REQUIRE(bench.disk.stats().buffer_bytes_out == 4096);
    // Another command's bytes are not this one's.
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 2, 0, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
}

TEST_CASE("Disk write data and WriteDataIn need an accepted write", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.data(tlm::TLM_WRITE_COMMAND, 4, 0, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    REQUIRE(bench.data_in(4) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    REQUIRE(bench.accepted(true, 2048, 4));
    REQUIRE(bench.data_in(4) == tlm::TLM_COMMAND_ERROR_RESPONSE);  // a read
    REQUIRE(bench.command(true, 2048, 4) == tlm::TLM_COMMAND_ERROR_RESPONSE);  // tag in use
}

TEST_CASE("Disk honours the annotated delay of WriteDataIn", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(false, 65536, 3));
    REQUIRE(bench.data_in(3, sc_time(700, SC_US)) == tlm::TLM_OK_RESPONSE);
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.at(3) == sc_time(700, SC_US) + kService64k);
}

TEST_CASE("Disk does not start a command before its annotated arrival", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 1, sc_time(500, SC_US)));
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.at(1) == sc_time(500, SC_US) + kService64k);
}

TEST_CASE("Disk accepts a new command from inside disk_ready", "[disk]")
{
    // One slot: the HBA can only issue the next command once the previous one is ready.
    Bench bench("bench", baseline(1));
    bench.on_ready = [&](std::uint64_t tag) {
        if (tag < 3) REQUIRE(bench.accepted(true, 65536, tag + 1));
    };
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 1));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(1) == kService64k);
    REQUIRE(bench.ready.at(2) == sc_time(2 * 3.31072, SC_MS));
    REQUIRE(bench.ready.at(3) == sc_time(3 * 3.31072, SC_MS));
    REQUIRE(bench.disk.stats().max_queue == 1);
}

TEST_CASE("Disk rejects malformed transactions", "[disk]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    tlm::tlm_generic_payload trans;
    sc_time delay = SC_ZERO_TIME;
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(disk::kDiskCommandAddress);
    trans.set_data_length(0);
    bench.out->b_transport(trans, delay);  // no DiskCommand extension
    REQUIRE(trans.get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);
    trans.set_address(0x1000);  // neither the command address nor the buffer
    bench.out->b_transport(trans, delay);
    REQUIRE(trans.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
    REQUIRE(bench.disk.queued() == 0);
}

TEST_CASE("Disk parameters are checked", "[disk]")
{
    auto p = baseline();
    p.queue_slots = 0;
    REQUIRE_THROWS_AS(disk::validate(p), std::invalid_argument);
    p = baseline();
    p.media_rate_bytes_per_s = 0;
    REQUIRE_THROWS_AS(disk::validate(p), std::invalid_argument);
    p = baseline();
    p.access_time_s = -1;
    REQUIRE_THROWS_AS(disk::validate(p), std::invalid_argument);
    REQUIRE_NOTHROW(disk::validate(baseline()));
}

// FCP recovery (docs/faults.md, "FCP recovery"): an aborted command gives its
// slot back wherever it is, and the disk never calls back for it.
TEST_CASE("Disk abort frees the slot of a write waiting for its data", "[disk][recovery]")
{
    Bench bench("bench", baseline(1));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(false, 65536, 4));
    REQUIRE(bench.task_set_full(true, 4096, 5));
    REQUIRE(bench.abort(4) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.disk.stats().commands_aborted == 1);
    // The write is gone: its data and WriteDataIn are refused, and the slot takes a new command.
    REQUIRE(bench.data(tlm::TLM_WRITE_COMMAND, 4, 0, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    REQUIRE(bench.data_in(4) == tlm::TLM_COMMAND_ERROR_RESPONSE);
    REQUIRE(bench.accepted(true, 65536, 6));
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.count(4) == 0);
    REQUIRE(bench.ready.at(6) == kService64k);
}

TEST_CASE("Disk abort stops the command in service and drops a queued one", "[disk][recovery]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 1));
    REQUIRE(bench.accepted(true, 65536, 2));
    REQUIRE(bench.accepted(true, 65536, 3));
    sc_start(1, SC_MS);
    REQUIRE(bench.abort(1) == tlm::TLM_OK_RESPONSE);  // in service: the actuator abandons it
    REQUIRE(bench.abort(3) == tlm::TLM_OK_RESPONSE);  // queued
    REQUIRE(bench.disk.queued() == 1);
    sc_start(20, SC_MS);
    // Read 2 starts when read 1 is abandoned, at 1 ms.
    REQUIRE(bench.ready.size() == 1);
    REQUIRE(bench.ready.at(2) == sc_time(1, SC_MS) + kService64k);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.disk.stats().commands_aborted == 2);
    REQUIRE(bench.disk.stats().commands_served == 1);
    REQUIRE(bench.disk.stats().busy_time == sc_time(1, SC_MS) + kService64k);
}

namespace {

// Runs `act` in the evaluation phase of the instant its event is notified for: the same instant as
// another process's timed notification, before or after that process.
struct AtInstant : sc_core::sc_module {
    SC_HAS_PROCESS(AtInstant);
    sc_core::sc_event when;
    std::function<void()> act;
    explicit AtInstant(sc_core::sc_module_name name) : sc_module(name)
    {
        SC_METHOD(run);
        sensitive << when;
        dont_initialize();
    }
    void run() { act(); }
};

// The abort of the read in service comes in the instant its service ends (docs/disk.md, "The TLM-2.0
// protocol"). `abort_first`: once the end's notification has been triggered (too late to cancel) but
// before the actuator's process ran; otherwise a delta after the actuator's process ended the read.
// Either way the end comes first: the read is done (its Ready, in the first case from within the
// abort's call), and the abort finds no slot held and drops its data. `another`: a second read is
// queued, and starts when the first ends.
void abort_as_service_ends(bool another, bool abort_first)
{
    Bench bench("bench", baseline());
    AtInstant at("at");
    bool aborted_first = false;
    bool ready_within = false;
    at.act = [&] {
        aborted_first = bench.ready.count(1) == 0;
        REQUIRE(bench.abort(1) == tlm::TLM_OK_RESPONSE);
        ready_within = aborted_first && bench.ready.count(1) == 1;
    };
    if (!abort_first)
        bench.on_ready = [&](std::uint64_t tag) {
            if (tag == 1) at.when.notify(SC_ZERO_TIME);
        };
    sc_start(SC_ZERO_TIME);
    if (abort_first) at.when.notify(kService64k);
    REQUIRE(bench.accepted(true, 65536, 1));
    if (another) REQUIRE(bench.accepted(true, 65536, 2));
    sc_start(20, SC_MS);
    // The case to check: the abort ran before (or after) the actuator's process in that instant.
    REQUIRE(aborted_first == abort_first);
    REQUIRE(ready_within == abort_first);
    REQUIRE(bench.ready.at(1) == kService64k);
    REQUIRE(bench.disk.stats().commands_aborted == 0);
    REQUIRE(bench.disk.queued() == 0);
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 1, 0, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    if (another) {
        // Read 2 takes its whole service from the end of read 1 on.
        REQUIRE(bench.ready.at(2) == kService64k + kService64k);
        REQUIRE(bench.disk.stats().commands_served == 2);
        REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 2, 0, 65536) == tlm::TLM_OK_RESPONSE);
        return;
    }
    REQUIRE(bench.ready.size() == 1);
    REQUIRE(bench.disk.stats().commands_served == 1);
    REQUIRE(bench.disk.stats().busy_time == kService64k);
    // The disk is idle and takes the next command.
    REQUIRE(bench.accepted(true, 65536, 3));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(3) == sc_time(20, SC_MS) + kService64k);
}

}  // namespace

TEST_CASE("Disk abort in the instant the read in service ends meets it done; nothing queued", "[disk][recovery]")
{
    abort_as_service_ends(false, true);
}

TEST_CASE("Disk abort in the instant the read in service ends meets it done; the next read starts", "[disk][recovery]")
{
    abort_as_service_ends(true, true);
}

TEST_CASE("Disk abort a delta after the read in service ended in that instant meets it done as well", "[disk][recovery]")
{
    abort_as_service_ends(true, false);
}

TEST_CASE("Disk abort after a read is done drops its data; an unknown tag is no error", "[disk][recovery]")
{
    Bench bench("bench", baseline());
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(true, 65536, 8));
    sc_start(10, SC_MS);
    REQUIRE(bench.ready.count(8) == 1);
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 8, 0, 2048) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.abort(8) == tlm::TLM_OK_RESPONSE);
    REQUIRE(bench.data(tlm::TLM_READ_COMMAND, 8, 2048, 2048) == tlm::TLM_GENERIC_ERROR_RESPONSE);
    REQUIRE(bench.abort(99) == tlm::TLM_OK_RESPONSE);
    // Neither held a slot any more.
    REQUIRE(bench.disk.stats().commands_aborted == 0);
    REQUIRE(bench.disk.queued() == 0);
}

// disk.max_concurrent (docs/disk.md, "Concurrent commands"): up to N commands in their
// access at once, the media transfers one at a time in the order the accesses ended. Expected times
// by hand from a = 2 ms access and t = bytes / 50e6 B/s.

namespace {

const sc_time kAccess(2, SC_MS);
const sc_time kMedia64k(1.31072, SC_MS);  // 65536 B / 50e6 B/s

disk::DiskParams concurrent(unsigned n, unsigned slots = 8)
{
    disk::DiskParams p = baseline(slots);
    p.max_concurrent = n;
    return p;
}

}  // namespace

TEST_CASE("Concurrent disk: four accesses overlap, the four transfers follow one another", "[disk][concurrent]")
{
    Bench bench("bench", concurrent(4));
    sc_start(SC_ZERO_TIME);
    for (std::uint64_t tag = 1; tag <= 4; ++tag) REQUIRE(bench.accepted(true, 65536, tag));
    sc_start(20, SC_MS);
    // Every access ends at a; the medium then moves one read after the other: a + k t.
    for (std::uint64_t tag = 1; tag <= 4; ++tag) REQUIRE(bench.ready.at(tag) == kAccess + static_cast<double>(tag) * kMedia64k);
    REQUIRE(bench.disk.stats().commands_served == 4);
    REQUIRE(bench.disk.stats().positionings == 4);
    // Busy from 0 until the last transfer ends (one command at a time would take 4 (a + t)).
    REQUIRE(bench.disk.stats().busy_time == kAccess + 4.0 * kMedia64k);
    REQUIRE(bench.disk.queued() == 0);
}

TEST_CASE("Concurrent disk: a command beyond N waits for a place, which frees when a transfer ends", "[disk][concurrent]")
{
    Bench bench("bench", concurrent(2));
    sc_start(SC_ZERO_TIME);
    for (std::uint64_t tag = 1; tag <= 3; ++tag) REQUIRE(bench.accepted(true, 65536, tag));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(1) == kAccess + kMedia64k);
    REQUIRE(bench.ready.at(2) == kAccess + 2.0 * kMedia64k);
    // Read 3 takes read 1's place at a + t, accesses until 2a + t; the medium is free by then.
    REQUIRE(bench.ready.at(3) == 2.0 * kAccess + 2.0 * kMedia64k);
}

TEST_CASE("Concurrent disk: the medium serves accesses in the order they ended, and a write once its data is in", "[disk][concurrent]")
{
    Bench bench("bench", concurrent(4));
    sc_start(SC_ZERO_TIME);
    REQUIRE(bench.accepted(false, 65536, 1));   // eligible once its data is in, at 1 ms
    REQUIRE(bench.accepted(true, 65536, 2));    // accesses 0 -> a
    REQUIRE(bench.data_in(1, sc_time(1, SC_MS)) == tlm::TLM_OK_RESPONSE);
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(2) == kAccess + kMedia64k);
    // The write accesses 1 ms -> 1 ms + a, while the read's transfer (a -> a + t) still runs.
    REQUIRE(bench.ready.at(1) == kAccess + 2.0 * kMedia64k);
}

TEST_CASE("Concurrent disk: N commands kept busy give N / (a + t) when the medium is not the bottleneck", "[disk][concurrent]")
{
    // 4 KiB: t = 81.92 us, and a > (N - 1) t, so no access waits for the medium after the first round:
    // every place cycles in a + t.
    constexpr unsigned kN = 4;
    constexpr std::uint32_t kBytes = 4096;
    const double cycle_s = 2e-3 + kBytes / 50e6;
    Bench bench("bench", concurrent(kN));
    std::uint64_t next_tag = 1;
    bench.on_ready = [&](std::uint64_t) { REQUIRE(bench.accepted(true, kBytes, next_tag++)); };
    sc_start(SC_ZERO_TIME);
    for (unsigned i = 0; i < kN; ++i) REQUIRE(bench.accepted(true, kBytes, next_tag++));
    const double run_s = 0.5;
    sc_start(run_s, sc_core::SC_SEC);
    const double expected = kN * run_s / cycle_s;  // completions
    REQUIRE(static_cast<double>(bench.ready.size()) >= expected - kN);
    REQUIRE(static_cast<double>(bench.ready.size()) <= expected);
    // One command at a time would give a quarter of that.
    REQUIRE(static_cast<double>(bench.ready.size()) > 3.9 * run_s / cycle_s);
}

TEST_CASE("Concurrent disk: an abort frees its place at once; its access leads nowhere", "[disk][concurrent][recovery]")
{
    Bench bench("bench", concurrent(2));
    sc_start(SC_ZERO_TIME);
    for (std::uint64_t tag = 1; tag <= 3; ++tag) REQUIRE(bench.accepted(true, 65536, tag));
    sc_start(1, SC_MS);
    REQUIRE(bench.abort(1) == tlm::TLM_OK_RESPONSE);
    // The tag may be reused at once: the old access ending at a must not touch the new command.
    REQUIRE(bench.accepted(true, 65536, 1));
    sc_start(20, SC_MS);
    REQUIRE(bench.ready.at(2) == kAccess + kMedia64k);
    // Read 3 took the freed place at 1 ms and is accessed at 1 ms + a, while read 2's transfer runs
    // until a + t: its own follows.
    REQUIRE(bench.ready.at(3) == kAccess + 2.0 * kMedia64k);
    // The new read 1 waits for a place until read 2's transfer ends at a + t.
    REQUIRE(bench.ready.at(1) == 2.0 * kAccess + 2.0 * kMedia64k);
    REQUIRE(bench.disk.stats().commands_aborted == 1);
    REQUIRE(bench.disk.stats().commands_served == 3);
    REQUIRE(bench.disk.queued() == 0);
}

TEST_CASE("Concurrent disk: more than one command at once needs the fixed model", "[disk][concurrent]")
{
    disk::DiskParams p = concurrent(2);
    p.model = disk::DiskModel::Zoned;
    REQUIRE_THROWS_WITH(disk::validate(p), Catch::Contains("max_concurrent"));
    p = concurrent(0);
    REQUIRE_THROWS_WITH(disk::validate(p), Catch::Contains("max_concurrent"));
}
