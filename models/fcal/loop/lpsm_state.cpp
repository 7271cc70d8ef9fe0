#include "fcal/loop/lpsm_state.hpp"

namespace fcal::loop {

const char* name(LpsmState s)
{
    switch (s) {
    case LpsmState::Monitoring: return "MONITORING";
    case LpsmState::Arbitrating: return "ARBITRATING";
    case LpsmState::ArbitrationWon: return "ARBITRATION_WON";
    case LpsmState::Open: return "OPEN";
    case LpsmState::Opened: return "OPENED";
    case LpsmState::XmittedClose: return "XMITTED_CLOSE";
    case LpsmState::ReceivedClose: return "RECEIVED_CLOSE";
    case LpsmState::Transfer: return "TRANSFER";
    case LpsmState::Initializing: return "INITIALIZING";
    case LpsmState::OpenInit: return "OPEN-INIT";
    }
    return "?";
}

}  // namespace fcal::loop
