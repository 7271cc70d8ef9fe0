#include "fcal/cosim/rtl_transmit_queue.hpp"

#include <stdexcept>
#include <string>
#include <systemc>

namespace fcal::cosim {

static_assert(kRtlFrameDepth + kRtlCommandDepth <= (std::size_t{1} << kRtlTagBits),
              "every descriptor in the RTL needs its own tag: FCAL_RTL_DEPTH + FCAL_RTL_CMD_DEPTH must fit TAG_W bits");

RtlTransmitQueue::RtlTransmitQueue(const hba::CommandFirst& policy, double clock_mhz)
    : policy_(policy), rtl_(policy, clock_mhz), frames_(kRtlFrameDepth + kRtlCommandDepth)
{
    for (std::size_t tag = frames_.size(); tag-- > 0;) free_tags_.push_back(static_cast<std::uint16_t>(tag));
}

double RtlTransmitQueue::now_ps() const { return sc_core::sc_time_stamp().to_seconds() * 1e12; }

void RtlTransmitQueue::fail(const std::string& what, std::uint64_t vcd_ps) const
{
    if (!failure_.empty()) return;
    failure_ = "RTL transmit queue at " + std::to_string(now_ps() / 1e3) + " ns (RTL cycle " + std::to_string(rtl_.counters().cycles) +
               ", RTL VCD time " + std::to_string(vcd_ps) + " ps): " + what;
    sc_core::sc_stop();
}

// An assertion fires at a clock edge: that is where to look in the VCD.
void RtlTransmitQueue::fail_on_assertion() const
{
    if (!rtl_.assertion_failure().empty()) fail(rtl_.assertion_failure(), rtl_.last_edge_ps());
}

// The frame behind a tag the RTL answered with; an answer naming no queued frame is an RTL error.
loop::OutgoingFrame* RtlTransmitQueue::frame_of(std::uint16_t tag, const char* output) const
{
    if (tag < frames_.size() && frames_[tag].frame) return &frames_[tag];
    fail(std::string(output) + " names tag " + std::to_string(tag) + ", which holds no queued frame", rtl_.vcd_time_ps(now_ps()));
    return nullptr;
}

bool RtlTransmitQueue::can_push(loop::FrameClass c) const
{
    return !rtl_.full(hba::to_command_fifo(policy_, c));
}

bool RtlTransmitQueue::empty() const { return !rtl_.head(); }

const loop::OutgoingFrame* RtlTransmitQueue::front() const
{
    const auto d = rtl_.head();
    if (!d) return nullptr;
    loop::OutgoingFrame* f = frame_of(d->tag, "head_tag");
    if (!f) return nullptr;
    f->arbitrate_unfairly = d->unfair_arb;
    f->transfer_unfairly = d->unfair_xfer;
    return f;
}

const loop::OutgoingFrame* RtlTransmitQueue::front_for(phy::AlPa dest) const
{
    // The selection outputs carry no rights: the frame's flags are the ones the head last showed
    // (the port reads rights only from the head).
    const auto d = rtl_.select(dest, now_ps());
    return d ? frame_of(d->tag, "sel_tag") : nullptr;
}

bool RtlTransmitQueue::preempt(phy::AlPa open_peer) const { return rtl_.preempt_request(open_peer, now_ps()); }

void RtlTransmitQueue::do_push(loop::OutgoingFrame f)
{
    if (free_tags_.empty()) throw std::logic_error("RtlTransmitQueue: no free tag");
    Descriptor d;
    d.tag = free_tags_.back();
    free_tags_.pop_back();
    d.dest = f.frame->destination;
    d.frame_class = f.frame_class();
    d.words = static_cast<std::uint16_t>(f.frame->words());
    frames_[d.tag] = std::move(f);
    rtl_.cycle(&d, std::nullopt, now_ps());
    fail_on_assertion();
}

loop::OutgoingFrame RtlTransmitQueue::do_pop_for(phy::AlPa dest)
{
    const auto d = rtl_.select(dest, now_ps());
    // The port pops only what front_for() just showed it, so the RTL's answer was checked then.
    if (!d || !frame_of(d->tag, "sel_tag")) throw std::logic_error("RtlTransmitQueue::pop_for: no frame for destination");
    rtl_.cycle(nullptr, dest, now_ps());
    fail_on_assertion();
    loop::OutgoingFrame out = std::move(frames_[d->tag]);
    frames_[d->tag] = {};
    free_tags_.push_back(d->tag);
    return out;
}

void RtlTransmitQueue::report(nlohmann::json& j) const
{
    const RtlCounters& c = rtl_.counters();
    j["cycles"] = c.cycles;
    j["evaluations"] = c.evaluations;
}

}  // namespace fcal::cosim
