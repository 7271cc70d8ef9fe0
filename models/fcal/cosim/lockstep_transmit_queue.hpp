#pragma once
// The lock-step checker (rtl.lockstep=true): the RTL transmit queue drives the system while the
// SystemC reference (hba::CommandFirstQueue) receives the same pushes and pops, and every decision
// the port asks for — can it push, the head and its unfair rights, the frame for a destination, a
// preemption — is put to both. The first disagreement is recorded with the simulated time, the RTL
// cycle and the time on the RTL VCD's axis at which the RTL's answer is drawn, the question asked and
// both answers, and the simulation is stopped; an RTL engineer starts there.
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/hba/command_first_queue.hpp"

namespace fcal::cosim {

class LockstepTransmitQueue : public loop::TransmitQueue {
public:
    LockstepTransmitQueue(std::unique_ptr<hba::CommandFirstQueue> reference, std::unique_ptr<RtlTransmitQueue> rtl);

    bool can_push(loop::FrameClass c) const override;
    bool empty() const override;
    const loop::OutgoingFrame* front() const override;
    const loop::OutgoingFrame* front_for(phy::AlPa dest) const override;
    bool preempt(phy::AlPa open_peer) const override;
    bool clocked() const override { return true; }

    // Empty while the two agree; else the first divergence, described.
    const std::string& divergence() const { return divergence_; }
    std::uint64_t decisions_compared() const { return compared_; }
    RtlTransmitQueue& rtl() { return *rtl_; }
    // The RTL queue's counters (RtlTransmitQueue::report) and decisions_compared, whole run.
    void report(nlohmann::json& j) const;

protected:
    void do_push(loop::OutgoingFrame f) override;
    loop::OutgoingFrame do_pop_for(phy::AlPa dest) override;

private:
    std::string describe(const loop::OutgoingFrame* f, bool with_rights) const;
    // Counts a decision; on the first disagreement builds the report (descriptions only then: the
    // checker runs on every decision of a long simulation).
    using Text = std::function<std::string()>;
    void compare(bool same, const Text& question, const Text& reference, const Text& rtl) const;
    void frame_decision(const Text& question, const loop::OutgoingFrame* ref, const loop::OutgoingFrame* rtl,
                        bool with_rights) const;
    void flag_decision(const Text& question, bool ref, bool rtl) const;

    std::unique_ptr<hba::CommandFirstQueue> reference_;
    std::unique_ptr<RtlTransmitQueue> rtl_;
    std::map<const loop::LoopFrame*, std::uint64_t> push_number_;  // names frames in a report
    std::uint64_t pushes_ = 0;
    mutable std::uint64_t compared_ = 0;
    mutable std::string divergence_;
};

}  // namespace fcal::cosim
