// The initiator's exchange recovery (hba/exchange_recovery.hpp), without SystemC: the HBA's part is a
// recorder of what it is asked to do, the exchanges are real fcp::Exchange ends driven frame by frame
// (docs/faults.md, "FCP recovery").
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "fcal/fcp/exchange.hpp"
#include "fcal/hba/exchange_id_pool.hpp"
#include "fcal/hba/exchange_recovery.hpp"

using namespace fcal;
using hba::ExchangeRecovery;

namespace {

struct Recorder : ExchangeRecovery::Actions {
    std::vector<std::string> calls;
    void send_abts(std::uint16_t ox_id) override { calls.push_back("abts " + std::to_string(ox_id)); }
    void give_up(std::uint16_t ox_id, std::string reason) override
    {
        calls.push_back("give up " + std::to_string(ox_id) + ": " + reason);
    }
};

// A 4 KiB read in 2 KiB frames, both ends: the initiator's and the target's, which builds the frames.
struct Read {
    fcp::Exchange initiator;
    std::optional<fcp::Exchange> target;
    explicit Read(std::uint16_t ox_id) : initiator(spec(ox_id)) {}
    static fcp::ExchangeSpec spec(std::uint16_t ox_id)
    {
        fcp::ExchangeSpec s;
        s.initiator = 0x01;
        s.target = 0x02;
        s.direction = fcp::DataDirection::Read;
        s.size_bytes = 4096;
        s.max_payload_bytes = 2048;
        s.ox_id = ox_id;
        return s;
    }
    void send_command() { target.emplace(fcp::Exchange::accept(fcp::fc_frame_of(*initiator.make_command()), 9, 2048)); }
};

}  // namespace

TEST_CASE("Recovery: a timeout aborts, a second one gives up and quarantines the OX_ID", "[hba][recovery]")
{
    hba::ExchangeIdPool ids(16);
    Recorder hba;
    ExchangeRecovery recovery(ids, hba);
    const std::uint16_t ox_id = ids.acquire();
    Read read(ox_id);
    ExchangeRecovery::State s;

    recovery.timed_out(ox_id, s, read.initiator);  // the FCP_CMND never went out
    CHECK(s.aborting);
    CHECK(s.reason == "exchange timeout: FCP_CMND not yet sent");
    CHECK(hba.calls == std::vector<std::string>{"abts 1"});
    CHECK(recovery.aborts() == 1);

    recovery.timed_out(ox_id, s, read.initiator);  // no BA_ACC within the ABTS timeout
    CHECK(hba.calls.back() == "give up 1: exchange timeout: FCP_CMND not yet sent; no BA_ACC to the ABTS");
    CHECK(recovery.abts_timeouts() == 1);
    CHECK(ids.quarantined(ox_id));
    // A frame for it later (the HBA has closed it: no state) is late; so is the BA_ACC.
    CHECK(recovery.late(ox_id, nullptr));
    recovery.ba_acc(ox_id, nullptr);
    CHECK(recovery.late_frames() == 2);
    CHECK(recovery.ba_acc_received() == 0);
}

TEST_CASE("Recovery: the reason names what the exchange was waiting for", "[hba][recovery]")
{
    hba::ExchangeIdPool ids;
    Recorder hba;
    ExchangeRecovery recovery(ids, hba);
    Read read(1);
    read.send_command();
    ExchangeRecovery::State no_data, no_rsp;
    recovery.timed_out(1, no_data, read.initiator);
    CHECK(no_data.reason == "exchange timeout: no FCP_DATA for the rest of the read");
    read.initiator.receive(fcp::fc_frame_of(*read.target->next_read_data_frame()));
    read.initiator.receive(fcp::fc_frame_of(*read.target->next_read_data_frame()));
    recovery.timed_out(1, no_rsp, read.initiator);
    CHECK(no_rsp.reason == "exchange timeout: no FCP_RSP after the read data");
    // FCP_RSP in, only its delivery to host memory left: the timeout does nothing.
    read.initiator.receive(fcp::fc_frame_of(*read.target->make_response()));
    ExchangeRecovery::State done;
    recovery.timed_out(1, done, read.initiator);
    CHECK_FALSE(done.aborting);
    CHECK(recovery.aborts() == 2);
    CHECK(hba.calls.size() == 2);
}

TEST_CASE("Recovery: a BA_ACC ends an abort; frames of an exchange being aborted are late", "[hba][recovery]")
{
    hba::ExchangeIdPool ids;
    Recorder hba;
    ExchangeRecovery recovery(ids, hba);
    Read read(4);
    read.send_command();
    ExchangeRecovery::State s;
    CHECK_FALSE(recovery.late(4, &s));
    recovery.ba_acc(4, &s);  // not aborting: a stray BA_ACC
    CHECK(recovery.late_frames() == 1);
    recovery.timed_out(4, s, read.initiator);
    CHECK(recovery.late(4, &s));
    recovery.ba_acc(4, &s);
    CHECK(hba.calls == std::vector<std::string>{"abts 4", "give up 4: exchange timeout: no FCP_DATA for the rest of the read"});
    CHECK(recovery.ba_acc_received() == 1);
    CHECK(recovery.late_frames() == 2);
    CHECK_FALSE(ids.quarantined(4));
    // An OX_ID neither open nor quarantined: not late (the HBA reports the unknown exchange itself).
    CHECK_FALSE(recovery.late(5, nullptr));
}

TEST_CASE("Recovery: a lost frame breaks the exchange; it and every later frame are dropped", "[hba][recovery]")
{
    hba::ExchangeIdPool ids;
    Recorder hba;
    ExchangeRecovery recovery(ids, hba);

    SECTION("a data frame out of sequence")
    {
        Read read(1);
        read.send_command();
        ExchangeRecovery::State s;
        const auto first = read.target->next_read_data_frame();  // lost on the way
        const auto second = read.target->next_read_data_frame();
        CHECK_FALSE(recovery.in_sequence(s, fcp::fc_frame_of(*second), read.initiator));
        CHECK(s.broken);
        // Even a frame that would fit (the lost one, late) is dropped now.
        CHECK_FALSE(recovery.in_sequence(s, fcp::fc_frame_of(*first), read.initiator));
        CHECK(recovery.sequence_errors() == 2);
    }
    SECTION("a GOOD FCP_RSP before all read data")
    {
        Read read(1);
        read.send_command();
        ExchangeRecovery::State s;
        const auto first = read.target->next_read_data_frame();
        CHECK(recovery.in_sequence(s, fcp::fc_frame_of(*first), read.initiator));
        read.initiator.receive(fcp::fc_frame_of(*first));
        read.target->next_read_data_frame();  // lost
        CHECK_FALSE(recovery.in_sequence(s, fcp::fc_frame_of(*read.target->make_response()), read.initiator));
        CHECK(recovery.sequence_errors() == 1);
    }
    CHECK(hba.calls.empty());
}
