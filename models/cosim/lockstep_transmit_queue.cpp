#include "cosim/lockstep_transmit_queue.hpp"

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

void LockstepTransmitQueue::compare(const std::string& question, const std::string& reference, const std::string& rtl) const
{
    ++compared_;
    if (reference == rtl || !divergence_.empty()) return;
    std::ostringstream s;
    s << "lock-step divergence at " << sc_core::sc_time_stamp().to_seconds() * 1e9 << " ns (RTL cycle "
      << rtl_->rtl().counters().cycles << "), after " << pushes_ << " pushes: " << question << "\n  reference: " << reference
      << "\n  rtl:       " << rtl;
    divergence_ = s.str();
    sc_core::sc_stop();
}

bool LockstepTransmitQueue::can_push(loop::FrameClass c) const
{
    const bool ref = reference_->can_push(c), rtl = rtl_->can_push(c);
    compare(std::string("can_push(") + loop::to_string(c) + ")", ref ? "yes" : "no", rtl ? "yes" : "no");
    return rtl;
}

bool LockstepTransmitQueue::empty() const
{
    const bool ref = reference_->empty(), rtl = rtl_->empty();
    compare("empty()", ref ? "yes" : "no", rtl ? "yes" : "no");
    return rtl;
}

const loop::OutgoingFrame* LockstepTransmitQueue::front() const
{
    const loop::OutgoingFrame* ref = reference_->front();
    const loop::OutgoingFrame* rtl = rtl_->front();
    compare("head", describe(ref, true), describe(rtl, true));
    return rtl;
}

const loop::OutgoingFrame* LockstepTransmitQueue::front_for(phy::AlPa dest) const
{
    const loop::OutgoingFrame* ref = reference_->front_for(dest);
    const loop::OutgoingFrame* rtl = rtl_->front_for(dest);
    compare("frame selected for " + phy::al_pa_hex(dest), describe(ref, false), describe(rtl, false));
    return rtl;
}

bool LockstepTransmitQueue::preempt(phy::AlPa open_peer) const
{
    const bool ref = reference_->preempt(open_peer), rtl = rtl_->preempt(open_peer);
    compare("preempt while open to " + phy::al_pa_hex(open_peer), ref ? "yes" : "no", rtl ? "yes" : "no");
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
    const std::string ref = describe(reference_->front_for(dest), false);
    loop::OutgoingFrame out = rtl_->pop_for(dest);
    compare("pop for " + phy::al_pa_hex(dest), ref, describe(&out, false));
    if (reference_->front_for(dest)) reference_->pop_for(dest);
    push_number_.erase(out.frame.get());
    return out;
}

}  // namespace fcal::cosim
