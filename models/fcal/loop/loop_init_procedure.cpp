#include "fcal/loop/loop_init_procedure.hpp"

#include <stdexcept>
#include <tuple>

namespace fcal::loop {
namespace {

// Master selection compares D_ID/S_ID first (an FL_Port's 000000 wins), then the port name; the
// lowest wins.
std::tuple<std::uint32_t, std::uint64_t> lism_key(const LoopInitFrame& f) { return {f.address, f.port_name}; }

LiId next_bitmap(LiId id) { return static_cast<LiId>(static_cast<std::uint16_t>(id) + 1); }

}  // namespace

const char* name(AddressSource s)
{
    switch (s) {
    case AddressSource::None: return "none";
    case AddressSource::Fabric: return "fabric";
    case AddressSource::Previous: return "previous";
    case AddressSource::Hard: return "hard";
    case AddressSource::Soft: return "soft";
    }
    throw std::logic_error("unknown address source");
}

LoopInitProcedure::LoopInitProcedure(LoopInitPortConfig config) : cfg_(std::move(config))
{
    if (cfg_.hard_al_pa) phy::require_valid_al_pa(*cfg_.hard_al_pa, "hard AL_PA");
    if (cfg_.fabric_al_pa) phy::require_valid_al_pa(*cfg_.fabric_al_pa, "fabric AL_PA");
    if (cfg_.init_address != kNlPortInitAddress && cfg_.init_address != kFlPortInitAddress)
        throw std::invalid_argument("loop initialization address must be 0x0000EF (NL_Port) or 0x000000 (FL_Port)");
}

void LoopInitProcedure::set_previous_al_pa(std::optional<phy::AlPa> al_pa)
{
    if (al_pa) phy::require_valid_al_pa(*al_pa, "previously acquired AL_PA");
    previous_ = al_pa;
}

LoopInitProcedure::Output LoopInitProcedure::enter_open_init(bool originator)
{
    step_ = Step::SelectingMaster;
    master_ = false;
    awaited_ = LiId::Lifa;
    cls_acceptable_ = false;
    claimed_.reset();
    source_ = AddressSource::None;
    position_map_.clear();
    l_bit_seen_ = false;
    return originator ? Output::of(own_lism()) : Output::nothing();
}

std::optional<LoopInitProcedure::Output> LoopInitProcedure::one_of(const Output& pending, const Output& next) const
{
    const auto lism = [](const Output& o) { return o.is(Output::Kind::Frame) && o.frame.id == LiId::Lism; };
    if (!lism(pending)) return std::nullopt;
    if (next.is(Output::Kind::ArbF0)) return pending.frame == own_lism() ? std::optional(next) : std::nullopt;
    if (!lism(next)) return std::nullopt;
    return lism_key(next.frame) < lism_key(pending.frame) ? next : pending;
}

std::string describe(const LoopInitProcedure::Output& out)
{
    using K = LoopInitProcedure::Output::Kind;
    switch (out.kind) {
    case K::Nothing: return "nothing";
    case K::Frame: return out.frame.describe();
    case K::ArbF0: return "ARB(F0)";
    case K::Cls: return "CLS";
    }
    throw std::logic_error("unknown loop initialization output");
}

LoopInitProcedure::Output LoopInitProcedure::discard(const LoopInitFrame& frame, const std::string& why)
{
    ++discarded_;
    last_discard_ = frame.describe() + ": " + why;
    return Output::nothing();
}

LoopInitProcedure::Output LoopInitProcedure::frame_received(const LoopInitFrame& frame)
{
    switch (step_) {
    case Step::Idle:
    case Step::Done:
    case Step::TimedOut: return discard(frame, "not in OPEN-INIT");
    case Step::SelectingMaster: {
        if (frame.id != LiId::Lism) return discard(frame, "no ARB(F0) seen yet: only LISM is expected");
        const auto theirs = lism_key(frame);
        const auto ours = lism_key(own_lism());
        if (theirs == ours) {
            master_ = true;
            step_ = Step::MasterAwaitsArbF0;
            return Output::arb_f0();
        }
        return theirs < ours ? Output::of(frame) : Output::of(own_lism());
    }
    case Step::MasterAwaitsArbF0: return discard(frame, "the master absorbs frames while its ARB(F0) circulates");
    case Step::AwaitsFrame:
        if (frame.id != awaited_) return discard(frame, std::string("out of sequence: ") + name(awaited_) + " expected");
        return master_ ? master_next(frame) : forward(frame);
    case Step::AwaitsCls: return discard(frame, "the last loop initialization frame has passed: CLS expected");
    }
    throw std::logic_error("unknown loop initialization step");
}

std::uint16_t LoopInitProcedure::claim(LiId id, AlPaBitmap& bitmap, std::uint16_t flags)
{
    l_bit_seen_ = l_bit_seen_ || bitmap.l_bit();
    if (!claimed_) {
        // At most one claim per port: a bit set in an earlier bitmap ends its claims.
        auto try_claim = [&](const std::optional<phy::AlPa>& a, AddressSource s) {
            if (a && bitmap.claim(*a)) {
                claimed_ = a;
                source_ = s;
            }
        };
        switch (id) {
        case LiId::Lifa: try_claim(cfg_.fabric_al_pa, AddressSource::Fabric); break;
        case LiId::Lipa: try_claim(previous_, AddressSource::Previous); break;
        case LiId::Liha: try_claim(cfg_.hard_al_pa, AddressSource::Hard); break;
        case LiId::Lisa:
            if (const auto soft = bitmap.claim_first_free()) {
                claimed_ = soft;
                source_ = AddressSource::Soft;
            }
            break;
        default: throw std::logic_error("claim in a frame without a bitmap");
        }
    }
    if (id == LiId::Lisa && !cfg_.position_map) flags = static_cast<std::uint16_t>(flags & ~kLiFlPositionMap);
    return flags;
}

LoopInitProcedure::Output LoopInitProcedure::forward(const LoopInitFrame& frame)
{
    LoopInitFrame out = frame;
    if (has_bitmap(frame.id)) {
        out.flags = claim(frame.id, out.bitmap, out.flags);
        if (frame.id != LiId::Lisa) {
            awaited_ = next_bitmap(frame.id);
        } else if (cfg_.position_map) {
            // LIRP follows if every port supports position maps; if not, the master closes.
            awaited_ = LiId::Lirp;
            cls_acceptable_ = true;
        } else {
            step_ = Step::AwaitsCls;
        }
    } else if (frame.id == LiId::Lirp) {
        if (claimed_) {
            if (out.positions.size() >= kMaxPositions) return discard(frame, "position map full");
            out.positions.push_back(*claimed_);
        }
        awaited_ = LiId::Lilp;
        cls_acceptable_ = false;
    } else {  // LILP
        position_map_ = frame.positions;
        step_ = Step::AwaitsCls;
    }
    return Output::of(std::move(out));
}

LoopInitProcedure::Output LoopInitProcedure::arb_f0_received()
{
    if (step_ == Step::SelectingMaster) {
        // Another port is master: from now on only its frames count.
        step_ = Step::AwaitsFrame;
        awaited_ = LiId::Lifa;
        return Output::nothing();
    }
    if (step_ == Step::MasterAwaitsArbF0) {
        // The loop is clear: start the bitmaps, the master claiming first.
        AlPaBitmap bitmap;
        claim(LiId::Lifa, bitmap, 0);
        step_ = Step::AwaitsFrame;
        awaited_ = LiId::Lifa;
        return Output::of(LoopInitFrame::with_bitmap(LiId::Lifa, bitmap));
    }
    return Output::nothing();
}

LoopInitProcedure::Output LoopInitProcedure::master_next(const LoopInitFrame& returned)
{
    if (has_bitmap(returned.id)) l_bit_seen_ = l_bit_seen_ || returned.bitmap.l_bit();
    switch (returned.id) {
    case LiId::Lifa:
    case LiId::Lipa:
    case LiId::Liha: {
        // Each bitmap starts from the one that came back, so earlier claims hold.
        const LiId next = next_bitmap(returned.id);
        AlPaBitmap bitmap = returned.bitmap;
        const std::uint16_t flags = claim(next, bitmap, next == LiId::Lisa ? kLiFlPositionMap : 0);
        awaited_ = next;
        return Output::of(LoopInitFrame::with_bitmap(next, bitmap, flags));
    }
    case LiId::Lisa:
        if ((returned.flags & kLiFlPositionMap) != 0) {
            awaited_ = LiId::Lirp;
            std::vector<phy::AlPa> positions;
            if (claimed_) positions.push_back(*claimed_);
            return Output::of(LoopInitFrame::with_positions(LiId::Lirp, std::move(positions)));
        }
        step_ = Step::AwaitsCls;
        return Output::cls();
    case LiId::Lirp:
        awaited_ = LiId::Lilp;
        return Output::of(LoopInitFrame::with_positions(LiId::Lilp, returned.positions));
    case LiId::Lilp:
        position_map_ = returned.positions;
        step_ = Step::AwaitsCls;
        return Output::cls();
    case LiId::Lism: break;
    }
    throw std::logic_error("master: unexpected frame");
}

LoopInitProcedure::Output LoopInitProcedure::cls_received()
{
    if (step_ == Step::AwaitsCls || (step_ == Step::AwaitsFrame && !master_ && cls_acceptable_)) {
        finish();
        // The master's own CLS is back; any other port passes it on.
        return master_ ? Output::nothing() : Output::cls();
    }
    return Output::nothing();
}

void LoopInitProcedure::finish()
{
    step_ = Step::Done;
    previous_ = claimed_;
}

void LoopInitProcedure::timed_out()
{
    step_ = Step::TimedOut;
    master_ = false;
    claimed_.reset();
    source_ = AddressSource::None;
}

std::optional<LiId> LoopInitProcedure::awaited() const
{
    if (step_ == Step::AwaitsFrame) return awaited_;
    return std::nullopt;
}

bool LoopInitProcedure::reset_requested(const phy::OrderedSet& lip) const
{
    if (lip.kind() == phy::OrderedSetKind::LipReset) return previous_ && lip.y() == *previous_;
    if (lip.kind() == phy::OrderedSetKind::LipResetAll) return !previous_ || lip.x() != *previous_;
    return false;
}

}  // namespace fcal::loop
