#pragma once
// The initiator's FCP exchange recovery (docs/faults.md, "FCP recovery"): what
// happens when an exchange's timer runs out, when a BA_ACC comes, and to frames that come for an
// exchange being aborted, given up on, or missing an earlier frame. It decides and counts; the HBA
// acts (Actions) and keeps each exchange's State and timer. SystemC-free.
//
// - Exchange timeout: the exchange is aborted (its pending work dropped, an ABTS sent, the ABTS
//   timer started), unless its FCP_RSP is in and only the delivery to host memory is left.
// - BA_ACC: the abort is over: the exchange is given up (the driver hears io_aborted()).
// - ABTS timeout (no BA_ACC): given up as well; the target may never have seen the ABTS and may still
//   send frames, so the OX_ID is quarantined.
// - Frames for an exchange being aborted, or for a quarantined OX_ID, are late: dropped and counted.
// - A data frame out of sequence, or a GOOD FCP_RSP before all read data, shows a lost frame (FCP has
//   no retransmission): the exchange is broken, and it and every later frame of it are dropped
//   (counted); its timer aborts it.
#include <cstdint>
#include <string>

#include "fcal/fcp/exchange.hpp"
#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/exchange_id_pool.hpp"

namespace fcal::hba {

class ExchangeRecovery {
public:
    // One open exchange's part, kept with it by the HBA.
    struct State {
        bool aborting = false;  // ABTS sent, waiting for BA_ACC
        bool broken = false;    // a frame of it went missing
        std::string reason;     // why it was aborted
    };

    // What the HBA does for the recovery.
    class Actions {
    public:
        virtual ~Actions() = default;
        // Drop everything still to do for the exchange (DMA jobs, frames held for FIFO room), start its
        // ABTS timer and queue the ABTS.
        virtual void send_abts(std::uint16_t ox_id) = 0;
        // Close the exchange (its timer stopped, its OX_ID released) and tell the driver the I/O was
        // aborted. `reason` by value: it may live in the exchange being closed.
        virtual void give_up(std::uint16_t ox_id, std::string reason) = 0;
    };

    // OX_IDs given up on without a BA_ACC are quarantined in `ids`.
    ExchangeRecovery(ExchangeIdPool& ids, Actions& hba) : ids_(ids), hba_(hba) {}

    // The timer of the open exchange `ox_id` ran out (the exchange timeout, or the ABTS timeout once
    // aborting).
    void timed_out(std::uint16_t ox_id, State& s, const fcp::Exchange& exchange);
    // A BA_ACC for `ox_id` arrived; `s` is its open exchange's state, or null if none is open.
    void ba_acc(std::uint16_t ox_id, const State* s);
    // Whether a frame for `ox_id` (open with state `s`, or none open: null) comes too late: its
    // exchange is being aborted or was given up on. Such a frame is counted and must be dropped.
    // (Inline, as the next: they see every frame.)
    bool late(std::uint16_t ox_id, const State* s)
    {
        if (s ? !s->aborting : !ids_.quarantined(ox_id)) return false;
        ++late_frames_;
        return true;
    }
    // Whether `f` follows what the open exchange has received so far; if not, the exchange is broken
    // from now on, and this frame, like every later one of it, is counted and must be dropped.
    bool in_sequence(State& s, const fcp::FcFrame& f, const fcp::Exchange& exchange)
    {
        const bool gap = (f.iu == fcp::InformationUnit::Data && f.relative_offset != exchange.bytes_moved()) ||
                         (f.iu == fcp::InformationUnit::Response && f.response.status == fcp::ScsiStatus::Good &&
                          exchange.spec().direction == fcp::DataDirection::Read && exchange.bytes_remaining() > 0);
        if (!s.broken && !gap) return true;
        s.broken = true;
        ++sequence_errors_;
        return false;
    }

    std::uint64_t aborts() const { return aborts_; }                 // ABTS sent
    std::uint64_t ba_acc_received() const { return ba_acc_; }
    std::uint64_t abts_timeouts() const { return abts_timeouts_; }   // given up without a BA_ACC
    std::uint64_t late_frames() const { return late_frames_; }
    std::uint64_t sequence_errors() const { return sequence_errors_; }

private:
    ExchangeIdPool& ids_;
    Actions& hba_;
    std::uint64_t aborts_ = 0, ba_acc_ = 0, abts_timeouts_ = 0, late_frames_ = 0, sequence_errors_ = 0;
};

}  // namespace fcal::hba
