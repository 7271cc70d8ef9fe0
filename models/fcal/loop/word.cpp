#include "fcal/loop/word.hpp"

#include <cstdio>

namespace fcal::loop {

std::uint64_t Word::words() const
{
    switch (kind) {
    case WordKind::Frame: return frame->words();
    case WordKind::RRdy:
    case WordKind::Opn:
    case WordKind::Cls: return 1;
    default: return 0;
    }
}

std::string name(const Word& w)
{
    char buf[32];
    switch (w.kind) {
    case WordKind::Idle: return "IDLE";
    case WordKind::Arb:
        if (w.y == phy::kArbFF) return "ARBff";
        std::snprintf(buf, sizeof buf, "ARB(%02X)", w.y);
        return buf;
    case WordKind::RRdy: return "R_RDY";
    case WordKind::Opn:
        std::snprintf(buf, sizeof buf, "OPN(%02X,%02X)", w.y, w.x);
        return buf;
    case WordKind::Cls: return "CLS";
    case WordKind::Frame: return w.frame->sof == Sof::I3 ? "SOFi3" : "SOFn3";
    }
    return "?";
}

}  // namespace fcal::loop
