#pragma once
#include <cstdint>

namespace fcal::loop {

// Loop Port State Machine: steady-state operation (docs/loop.md, "LPSM") and loop initialization
// (docs/loop_init.md, "The LPSM in initialization").
enum class LpsmState : std::uint8_t {
    Monitoring,
    Arbitrating,
    ArbitrationWon,
    Open,
    Opened,
    XmittedClose,
    ReceivedClose,
    Transfer,
    Initializing,  // sends LIPs until it recognises LIP coming back
    OpenInit,      // the loop initialization procedure runs
};

const char* name(LpsmState s);

}  // namespace fcal::loop
