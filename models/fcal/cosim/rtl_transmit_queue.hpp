#pragma once
// The controller's transmit queue implemented by the Verilated RTL (cmdf.impl=rtl): the loop's
// TransmitQueue interface on one side, the block's pins (CommandFirstRtl) on the other. The frame
// behind each descriptor stays here, in a table indexed by tag. A push or pop runs one RTL clock
// cycle at the current SystemC time; queries only settle the block's combinational outputs, and
// their answers are kept until the next cycle or the next query destination.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fcal/cosim/command_first_rtl.hpp"
#include "fcal/loop/transmit_queue.hpp"

namespace fcal::cosim {

class RtlTransmitQueue : public loop::TransmitQueue {
public:
    RtlTransmitQueue(const hba::CommandFirst& policy, double clock_mhz);

    bool can_push(loop::FrameClass c) const override;
    bool empty() const override;
    const loop::OutgoingFrame* front() const override;
    const loop::OutgoingFrame* front_for(phy::AlPa dest) const override;
    bool preempt(phy::AlPa open_peer) const override;
    bool clocked() const override { return true; }

    // Empty while the RTL behaves; else the first error (an assertion inside it, or an answer that
    // names no queued frame), with the time, the RTL cycle and where to look in the RTL's VCD. The
    // simulation is stopped at once.
    const std::string& failure() const { return failure_; }

    CommandFirstRtl& rtl() { return rtl_; }
    const CommandFirstRtl& rtl() const { return rtl_; }
    // The RTL's own counters, whole run: cycles and evaluations (everything else is the same
    // whichever implementation of the queue ran).
    void report(nlohmann::json& j) const;

protected:
    void do_push(loop::OutgoingFrame f) override;
    loop::OutgoingFrame do_pop_for(phy::AlPa dest) override;

private:
    double now_ps() const;
    void fail_on_assertion() const;
    void fail(const std::string& what, std::uint64_t vcd_ps) const;
    loop::OutgoingFrame* frame_of(std::uint16_t tag, const char* output) const;

    hba::CommandFirst policy_;
    // The RTL's answers depend on its state and its query input, not on who asks: evaluating it is
    // not a change of this queue, hence mutable.
    mutable CommandFirstRtl rtl_;
    mutable std::vector<loop::OutgoingFrame> frames_;  // by tag
    std::vector<std::uint16_t> free_tags_;
    mutable std::string failure_;
};

}  // namespace fcal::cosim
