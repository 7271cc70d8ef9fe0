#include "fcal/loop/word.hpp"

#include <cstdio>
#include <stdexcept>

#include "fcal/loop/loop_init_frame.hpp"

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
    case WordKind::Frame:
        switch (w.frame->sof) {
        case Sof::I3: return "SOFi3";
        case Sof::N3: return "SOFn3";
        case Sof::Il:
            // A loop initialization frame, named by its LI_ID for traces.
            return std::string("SOFil(") + name(static_cast<const LoopInitFrame&>(*w.frame->content).id) + ")";
        }
        return "?";
    case WordKind::Lip:
    case WordKind::Lpb:
    case WordKind::Lpe: return w.ordered_set().name();
    }
    return "?";
}

Word Word::sequence(const phy::OrderedSet& set)
{
    using K = phy::OrderedSetKind;
    constexpr phy::AlPa f7 = 0xF7, f8 = 0xF8, ff = 0xFF;
    switch (set.kind()) {
    case K::LipF7F7: return {WordKind::Lip, f7, f7, 0, nullptr};
    case K::LipF7: return {WordKind::Lip, f7, set.x(), 0, nullptr};
    case K::LipF8F7: return {WordKind::Lip, f8, f7, 0, nullptr};
    case K::LipF8: return {WordKind::Lip, f8, set.x(), 0, nullptr};
    case K::LipReset: return {WordKind::Lip, set.y(), set.x(), 0, nullptr};
    case K::LipResetAll: return {WordKind::Lip, ff, set.x(), 0, nullptr};
    case K::LpbYx: return {WordKind::Lpb, set.y(), set.x(), 0, nullptr};
    case K::LpbFx: return {WordKind::Lpb, ff, set.x(), 0, nullptr};
    case K::LpeYx: return {WordKind::Lpe, set.y(), set.x(), 0, nullptr};
    case K::LpeFx: return {WordKind::Lpe, ff, set.x(), 0, nullptr};
    default: break;
    }
    throw std::invalid_argument("loop word: " + set.name() + " is no primitive sequence");
}

phy::OrderedSet Word::ordered_set() const
{
    constexpr phy::AlPa f7 = 0xF7, f8 = 0xF8, ff = 0xFF;
    const auto al_ps = [this]() -> std::optional<phy::AlPa> {
        if (x == f7) return std::nullopt;
        return x;
    };
    switch (kind) {
    case WordKind::Lip:
        if (y == f7) return phy::OrderedSet::lip_initializing(al_ps());
        if (y == f8) return phy::OrderedSet::lip_failure(al_ps());
        if (y == ff) return phy::OrderedSet::lip_reset_all(x);
        return phy::OrderedSet::lip_reset(y, x);
    case WordKind::Lpb: return y == ff ? phy::OrderedSet::lpb_all(x) : phy::OrderedSet::lpb(y, x);
    case WordKind::Lpe: return y == ff ? phy::OrderedSet::lpe_all(x) : phy::OrderedSet::lpe(y, x);
    default: break;
    }
    throw std::invalid_argument("loop word: " + name(*this) + " is no primitive sequence");
}

}  // namespace fcal::loop
