#include "fcal/cosim/lockstep_transmit_queue.hpp"

#include <functional>
#include <sstream>
#include <systemc>

namespace fcal::cosim {

LockstepTransmitQueue::LockstepTransmitQueue(std::unique_ptr<hba::CommandFirstQueue> reference, std::unique_ptr<RtlTransmitQueue> rtl)
    : reference_(std::move(reference)), rtl_(std::move(rtl))
{
}

std::string LockstepTransmitQueue::describe(const loop::OutgoingFrame* f, bool with_rights) const
{
    if (!f) return "none";
    std::ostringstream s;
    auto it = push_number_.find(f->frame.get());
    s << "frame #" << (it == push_number_.end() ? 0 : it->second) << " (" << loop::to_string(f->frame_class()) << " for "
      << phy::al_pa_hex(f->frame->destination) << ", " << f->frame->words() << " words";
    if (with_rights) s << ", unfair arbitration " << f->arbitrate_unfairly << ", unfair transfer " << f->transfer_unfairly;
    s << ")";
    return s.str();
}

void LockstepTransmitQueue::compare(bool same, const Text& question, const Text& reference, const Text& rtl) const
{
    ++compared_;
    if (same || !divergence_.empty()) return;
    const double now_ps = sc_core::sc_time_stamp().to_seconds() * 1e12;
    std::ostringstream s;
    s << "lock-step divergence at " << now_ps / 1e3 << " ns (RTL cycle " << rtl_->rtl().counters().cycles << ", RTL VCD time "
      << rtl_->rtl().vcd_time_ps(now_ps) << " ps), after " << pushes_ << " pushes: " << question() << "\n  reference: " << reference()
      << "\n  rtl:       " << rtl();
    divergence_ = s.str();
    sc_core::sc_stop();
}

void LockstepTransmitQueue::frame_decision(const Text& question, const loop::OutgoingFrame* ref,
                                           const loop::OutgoingFrame* rtl, bool with_rights) const
{
    bool same = (ref ? ref->frame.get() : nullptr) == (rtl ? rtl->frame.get() : nullptr);
    if (same && with_rights && ref)
        same = ref->arbitrate_unfairly == rtl->arbitrate_unfairly && ref->transfer_unfairly == rtl->transfer_unfairly;
    compare(same, question, [&] { return describe(ref, with_rights); }, [&] { return describe(rtl, with_rights); });
}

void LockstepTransmitQueue::flag_decision(const Text& question, bool ref, bool rtl) const
{
    compare(ref == rtl, question, [ref] { return std::string(ref ? "yes" : "no"); }, [rtl] { return std::string(rtl ? "yes" : "no"); });
}

bool LockstepTransmitQueue::can_push(loop::FrameClass c) const
{
    const bool rtl = rtl_->can_push(c);
    if (divergence_.empty()) flag_decision([c] { return std::string("can_push(") + loop::to_string(c) + ")"; }, reference_->can_push(c), rtl);
    return rtl;
}

bool LockstepTransmitQueue::empty() const
{
    const bool rtl = rtl_->empty();
    if (divergence_.empty()) flag_decision([] { return std::string("empty()"); }, reference_->empty(), rtl);
    return rtl;
}

const loop::OutgoingFrame* LockstepTransmitQueue::front() const
{
    const loop::OutgoingFrame* rtl = rtl_->front();
    if (divergence_.empty()) frame_decision([] { return std::string("head"); }, reference_->front(), rtl, true);
    return rtl;
}

const loop::OutgoingFrame* LockstepTransmitQueue::front_for(phy::AlPa dest) const
{
    const loop::OutgoingFrame* rtl = rtl_->front_for(dest);
    if (divergence_.empty()) frame_decision([dest] { return "frame selected for " + phy::al_pa_hex(dest); }, reference_->front_for(dest), rtl, false);
    return rtl;
}

bool LockstepTransmitQueue::preempt(phy::AlPa open_peer) const
{
    const bool rtl = rtl_->preempt(open_peer);
    if (divergence_.empty()) flag_decision([open_peer] { return "preempt while open to " + phy::al_pa_hex(open_peer); }, reference_->preempt(open_peer), rtl);
    return rtl;
}

void LockstepTransmitQueue::do_push(loop::OutgoingFrame f)
{
    push_number_[f.frame.get()] = ++pushes_;
    // After a divergence the two may disagree on room; the run is stopping, so keep it well defined.
    if (reference_->can_push(f.frame_class())) reference_->push(f);
    rtl_->push(std::move(f));
}

loop::OutgoingFrame LockstepTransmitQueue::do_pop_for(phy::AlPa dest)
{
    const loop::OutgoingFrame* ref = reference_->front_for(dest);
    loop::OutgoingFrame out = rtl_->pop_for(dest);
    if (divergence_.empty())
        compare((ref ? ref->frame.get() : nullptr) == out.frame.get(), [&] { return "pop for " + phy::al_pa_hex(dest); },
                [&] { return describe(ref, false); }, [&] { return describe(&out, false); });
    if (ref) reference_->pop_for(dest);
    if (divergence_.empty()) {
        // What the RTL actually removed shows in its counts.
        const CommandFirstRtl& r = rtl_->rtl();
        const auto counts = [](std::size_t frames, std::size_t commands) {
            return std::to_string(frames) + " frames and " + std::to_string(commands) + " commands queued";
        };
        compare(r.frames_queued() == reference_->frames_queued() && r.commands_queued() == reference_->commands_queued(),
                [&] { return "what is left after the pop for " + phy::al_pa_hex(dest); },
                [&] { return counts(reference_->frames_queued(), reference_->commands_queued()); },
                [&] { return counts(r.frames_queued(), r.commands_queued()); });
    }
    push_number_.erase(out.frame.get());
    return out;
}

void LockstepTransmitQueue::report(nlohmann::json& j) const
{
    rtl_->report(j);
    j["decisions_compared"] = compared_;
}

}  // namespace fcal::cosim
