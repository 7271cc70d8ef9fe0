#include "fcal/hba/exchange_recovery.hpp"

namespace fcal::hba {

namespace {

// What an exchange was still waiting for when its time ran out.
std::string missing(const fcp::Exchange& e)
{
    if (!e.command_sent()) return "FCP_CMND not yet sent";
    if (e.spec().direction == fcp::DataDirection::Read)
        return e.bytes_remaining() > 0 ? "no FCP_DATA for the rest of the read" : "no FCP_RSP after the read data";
    if (e.bytes_remaining() > 0) return e.xfer_rdy_outstanding() ? "write data not yet sent" : "no FCP_XFER_RDY";
    return "no FCP_RSP after the write data";
}

}  // namespace

void ExchangeRecovery::timed_out(std::uint16_t ox_id, State& s, const fcp::Exchange& exchange)
{
    // FCP_RSP is in and only its delivery to host memory is left: nothing is missing.
    if (exchange.complete()) return;
    if (!s.aborting) {
        s.aborting = true;
        s.reason = "exchange timeout: " + missing(exchange);
        ++aborts_;
        hba_.send_abts(ox_id);
        return;
    }
    // No BA_ACC: the target may never have seen the ABTS and may still send frames for it.
    ++abts_timeouts_;
    ids_.quarantine(ox_id);
    hba_.give_up(ox_id, s.reason + "; no BA_ACC to the ABTS");
}

void ExchangeRecovery::ba_acc(std::uint16_t ox_id, const State* s)
{
    if (!s || !s->aborting) {
        ++late_frames_;  // the BA_ACC to an ABTS given up on
        return;
    }
    ++ba_acc_;
    hba_.give_up(ox_id, s->reason);
}

}  // namespace fcal::hba
