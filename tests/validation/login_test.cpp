// Logins on a loop built by hand (docs/hba.md, "Logins"): the time from the end of the first
// initialization to the first FCP_CMND, worked out from the frames' words, the hop delays, the
// arbitration and the HBAs' processing; one ADISC per target after a LIP with no I/O failed; a target
// absent from an initialization's record logged out (its I/Os fail with the reason, the others go on);
// a target that joins logs in. Nothing expected here is taken from the simulator's output.
#include <catch2/catch.hpp>

#include <cmath>
#include <iostream>
#include <string>
#include <systemc>

#include "fcal/fcp/extended_link_service.hpp"
#include "fcal/fcp/information_unit_sizes.hpp"
#include "hba_bench.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::sc_time;
using test::HbaBench;

namespace {

constexpr double kWordS = 40.0 / 2.125e9;                // 2GFC (the bench's loop)
constexpr double kHopS = 6 * kWordS + 2.0 * 5e-9;         // port delay 6 words + 2 m of cable at 5 ns/m
// SOF, 6 header words, CRC, EOF around the payload.
double frame_words(std::uint32_t payload_bytes) { return 9 + payload_bytes / 4.0; }

disk::DiskParams quick_disk()
{
    disk::DiskParams p = test::fixed_disk_params();
    p.access_time_s = 100e-6;
    return p;
}

std::uint64_t count(const hba::InitiatorHba& hba, const char* key)
{
    nlohmann::json j;
    hba.report(j);
    return j["logins"][key];
}

// A record of an initialization with these ports on the loop (the controller's among them).
loop::LoopInitRecord record_with(const std::vector<phy::AlPa>& al_pas)
{
    loop::LoopInitRecord r;
    r.cause = "test";
    for (phy::AlPa a : al_pas) r.al_pas.push_back({"port", a, loop::AddressSource::Hard});
    return r;
}

// The driver's part in recovery: an aborted I/O (a frame lost in a circuit the LIP dropped) is
// issued again once.
struct RetryOnce : hba::HbaCompletion {
    hba::InitiatorHba* hba = nullptr;
    std::vector<std::string> reasons;
    void io_complete(hba::IoRequest*) override {}
    void io_aborted(hba::IoRequest* io, const std::string& reason) override
    {
        reasons.push_back(reason);
        if (io->retries++ == 0) hba->submit(io);
    }
};

}  // namespace

TEST_CASE("Logins at start: the first FCP_CMND leaves after PLOGI, PRLI and their LS_ACCs, as the frame trips add up", "[hba][validation]")
{
    const hba::HbaParams ini = test::initiator_params(), tgt = test::target_params();
    HbaBench bench("bench", ini, tgt, {quick_disk()});
    bench.initiator->log_in_at_start();
    sc_time init_end, cmnd_start;
    loop::Loop& loop = bench.loop();
    loop.on_initialized([&] {
        init_end = sc_core::sc_time_stamp();
        bench.initiator->loop_initialized(loop.initializations().back());
    });
    bench.initiator->on_command_sent = [&](const hba::IoRequest&, const sc_time&) {
        // Told at the frame's end: its start is its words earlier.
        if (cmnd_start == sc_core::SC_ZERO_TIME)
            cmnd_start = sc_core::sc_time_stamp() - sc_time(frame_words(fcp::kCommandPayloadBytes) * kWordS, SC_SEC);
    };
    hba::IoRequest* io = bench.submit(0, true, 4096);
    loop.start_lip(0, "test");
    sc_core::sc_start(1, SC_SEC);
    REQUIRE(bench.completed.count(io->id) == 1);
    REQUIRE(bench.aborted.empty());
    CHECK(count(*bench.initiator, "plogi") == 1);
    CHECK(count(*bench.initiator, "prli") == 1);
    CHECK(count(*bench.initiator, "commands_held") == 1);

    // Each frame: the sender arbitrates (its ARB goes round the ring of two hops: R), opens the other
    // port and waits for its R_RDY (OPN there and R_RDY back: R again; login BB credit 0), sends the
    // frame's words, which reach the receiver one hop later.
    const double r = 2 * kHopS;
    const double to_sof = 2 * r;
    auto trip = [&](std::uint32_t payload) { return to_sof + frame_words(payload) * kWordS + kHopS; };
    // Initiator: builds each ELS (cmd_exec), processes each reply (frame_proc); target: frame_proc, then
    // builds the LS_ACC (rsp_gen). Then the held command: cmd_exec, the DMA fetch of its description
    // (scheduler overhead + 32 bytes), arbitration and OPN up to the FCP_CMND's SOF.
    const double els = ini.cmd_exec_s + trip(fcp::kPlogiPayloadBytes) + tgt.frame_proc_s + tgt.xfer_rdy_or_rsp_s +
                       trip(fcp::kPlogiPayloadBytes) + ini.frame_proc_s + ini.cmd_exec_s + trip(fcp::kPrliPayloadBytes) +
                       tgt.frame_proc_s + tgt.xfer_rdy_or_rsp_s + trip(fcp::kPrliPayloadBytes) + ini.frame_proc_s;
    const double command = ini.cmd_exec_s + ini.dma.sched_overhead_s + fcp::kCommandPayloadBytes / ini.dma.bandwidth_bytes_per_s + to_sof;
    const double expected = els + command;
    const double measured = (cmnd_start - init_end).to_seconds();
    // Not counted above: the fill words word spacing puts before each SOF and the OPN word, and the
    // word alignment of each start: within 8 words for each of the five frames.
    const double tolerance = 5 * 8 * kWordS;
    std::cout << "init end to first FCP_CMND: expected " << expected * 1e6 << " us, simulated " << measured * 1e6 << " us ("
              << (measured - expected) / kWordS << " w)\n";
    CHECK(std::abs(measured - expected) <= tolerance);
}

TEST_CASE("After a LIP every target is re-validated with one ADISC and no I/O fails", "[hba][validation]")
{
    hba::HbaParams ini = test::initiator_params();
    ini.exchange_timeout_s = 2e-3;  // a frame lost in a dropped circuit costs 2 ms
    ini.abts_timeout_s = 2e-3;
    HbaBench bench("bench", ini, test::target_params(), {quick_disk(), quick_disk(), quick_disk()});
    loop::Loop& loop = bench.loop();
    loop.on_initialized([&] { bench.initiator->loop_initialized(loop.initializations().back()); });
    RetryOnce driver;
    driver.hba = bench.initiator.get();
    bench.next = &driver;
    std::vector<hba::IoRequest*> ios;
    for (unsigned i = 0; i < 4; ++i)
        for (unsigned d = 0; d < 3; ++d) ios.push_back(bench.submit(d, i % 2 == 0, 16384, 100 * i));
    sc_core::sc_start(150e-6, SC_SEC);
    REQUIRE(bench.completed.size() < ios.size());  // the LIP comes under load
    loop.start_lip(0, "test");
    sc_core::sc_start(1, SC_SEC);
    CHECK(bench.completed.size() == ios.size());
    // Only FCP recovery's aborts (frames lost while the loop initialized), none for a login.
    for (const std::string& reason : driver.reasons) CHECK(reason.find("target 0x") == std::string::npos);
    for (const hba::IoRequest* io : ios) CHECK(io->retries <= 1);
    CHECK(loop.initializations().size() == 1);
    CHECK(count(*bench.initiator, "adisc") == 3);
    CHECK(count(*bench.initiator, "plogi") == 0);
    CHECK(count(*bench.initiator, "logouts") == 0);
    for (unsigned d = 0; d < 3; ++d) CHECK(bench.targets[d]->els_answered() == 1);
}

TEST_CASE("A target absent after an initialization is logged out: its I/Os fail with the reason, the others go on", "[hba][validation]")
{
    HbaBench bench("bench", test::initiator_params(), test::target_params(), {quick_disk(), quick_disk()});
    const phy::AlPa gone = bench.disk_al_pas[1];
    std::vector<hba::IoRequest*> ios;
    for (unsigned d = 0; d < 2; ++d)
        for (unsigned i = 0; i < 2; ++i) ios.push_back(bench.submit(d, true, 65536, 1000 * i));
    sc_core::sc_start(100e-6, SC_SEC);  // the commands are out
    REQUIRE(bench.completed.empty());
    // The initialization's record lacks disk 1 (fed by hand; the loop itself did not change).
    bench.initiator->loop_initialized(record_with({HbaBench::kControllerAlPa, bench.disk_al_pas[0]}));
    const std::string reason = "target 0xE4 left the loop";
    REQUIRE(gone == 0xE4);
    CHECK(bench.aborted.size() == 2);
    for (unsigned i = 2; i < 4; ++i) CHECK(bench.aborted[ios[i]->id] == reason);
    // A new command to it fails at once (after the processor looked at it), with the same reason.
    hba::IoRequest* late = bench.submit(1, true, 4096);
    sc_core::sc_start(1, SC_SEC);
    CHECK(bench.aborted[late->id] == reason);
    CHECK(bench.completed.count(ios[0]->id) == 1);
    CHECK(bench.completed.count(ios[1]->id) == 1);
    CHECK(count(*bench.initiator, "adisc") == 1);
    CHECK(count(*bench.initiator, "logouts") == 1);
    CHECK(count(*bench.initiator, "exchanges_failed") == 2);
    CHECK(count(*bench.initiator, "commands_failed") == 1);
    CHECK(bench.initiator->outstanding() == 0);
}

TEST_CASE("A target that joins the loop logs in with PLOGI and PRLI before its commands go", "[hba][validation]")
{
    HbaBench bench("bench", test::initiator_params(), test::target_params(), {quick_disk(), quick_disk()});
    const phy::AlPa ctl = HbaBench::kControllerAlPa, d0 = bench.disk_al_pas[0], d1 = bench.disk_al_pas[1];
    // First initialization without disk 1: not on the loop, its commands fail.
    bench.initiator->loop_initialized(record_with({ctl, d0}));
    hba::IoRequest* before = bench.submit(1, true, 4096);
    sc_core::sc_start(1, SC_MS);
    CHECK(bench.aborted[before->id] == "target 0xE4 is not on the loop");
    CHECK(count(*bench.initiator, "logouts") == 0);
    // It joins: PLOGI and PRLI, and a command that waited for them completes.
    bench.initiator->loop_initialized(record_with({ctl, d0, d1}));
    hba::IoRequest* after = bench.submit(1, true, 4096);
    sc_core::sc_start(1, SC_SEC);
    CHECK(bench.completed.count(after->id) == 1);
    CHECK(count(*bench.initiator, "plogi") == 1);
    CHECK(count(*bench.initiator, "prli") == 1);
    CHECK(count(*bench.initiator, "adisc") == 2);  // disk 0, at both initializations
    CHECK(count(*bench.initiator, "commands_held") == 1);
    CHECK(bench.targets[1]->els_answered() == 2);
}
