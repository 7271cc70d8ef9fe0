#pragma once
#include <cstdint>

namespace fcal::loop {

// Loop Port State Machine, steady-state operation (docs/model.md, "The loop: LPSM").
enum class LpsmState : std::uint8_t {
    Monitoring,
    Arbitrating,
    ArbitrationWon,
    Open,
    Opened,
    XmittedClose,
    ReceivedClose,
    Transfer,
};

const char* name(LpsmState s);

}  // namespace fcal::loop
