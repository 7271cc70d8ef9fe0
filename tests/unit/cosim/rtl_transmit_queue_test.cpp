// The Verilated RTL behind the transmit queue interface (issue 8): it answers like the SystemC
// reference, runs clock cycles only for pushes and pops, reports full FIFOs per class, and the
// lock-step checker names the first decision on which two queues disagree.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "fcal/cosim/lockstep_transmit_queue.hpp"
#include "fcal/cosim/rtl_transmit_queue.hpp"
#include "fcal/hba/command_first_queue.hpp"

using namespace fcal;
using hba::CommandFifo;
using hba::CommandFirst;

namespace {

loop::OutgoingFrame frame(phy::AlPa dest, loop::FrameClass c, std::uint32_t payload = 2048)
{
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->source = 0x01;
    f->destination = dest;
    f->payload_bytes = payload;
    f->frame_class = c;
    return loop::OutgoingFrame{f};
}
loop::OutgoingFrame cmnd(phy::AlPa dest) { return frame(dest, loop::FrameClass::Command, 32); }
loop::OutgoingFrame data(phy::AlPa dest) { return frame(dest, loop::FrameClass::Data); }

// Serve the queue as a port would: open the head's destination, send what is selected for it until
// nothing is left for it or a preemption is asked for. Returns the frames in the order sent.
std::vector<const loop::LoopFrame*> serve(loop::TransmitQueue& q)
{
    std::vector<const loop::LoopFrame*> out;
    while (!q.empty()) {
        const phy::AlPa peer = q.front()->frame->destination;
        do {
            out.push_back(q.pop_for(peer).frame.get());
        } while (q.front_for(peer) && !q.preempt(peer));
    }
    return out;
}

}  // namespace

TEST_CASE("the RTL queue serves frames in the reference model's order under every policy", "[cosim]")
{
    const std::vector<phy::AlPa> dests = {0xE8, 0xE4, 0xE2, 0xE8, 0xE4, 0xE8};
    for (CommandFifo fifo : {CommandFifo::Off, CommandFifo::Reorder, CommandFifo::CommandQueue}) {
        for (bool preempt : {false, true}) {
            const CommandFirst policy{fifo, true, preempt};
            hba::CommandFirstQueue ref(policy, {cosim::kRtlFrameDepth, cosim::kRtlCommandDepth});
            cosim::RtlTransmitQueue rtl(policy, 212.5);
            // Data for several disks, then commands in between: both get the very same frames.
            std::vector<loop::OutgoingFrame> frames;
            for (std::size_t i = 0; i < 24; ++i) frames.push_back(i % 4 == 3 ? cmnd(dests[i % dests.size()]) : data(dests[i % dests.size()]));
            for (const auto& f : frames) {
                ref.push(f);
                rtl.push(f);
            }
            INFO("policy " << hba::to_string(fifo) << ", preempt " << preempt);
            REQUIRE(rtl.front()->frame == ref.front()->frame);
            CHECK(rtl.front()->arbitrate_unfairly == ref.front()->arbitrate_unfairly);
            CHECK(rtl.front()->transfer_unfairly == ref.front()->transfer_unfairly);
            CHECK(serve(rtl) == serve(ref));
        }
    }
}

TEST_CASE("the RTL runs one clock cycle per push or pop and none for a query", "[cosim]")
{
    cosim::RtlTransmitQueue q(CommandFirst{CommandFifo::CommandQueue, true, true}, 212.5);
    const auto& c = q.rtl().counters();
    const std::uint64_t after_reset = c.cycles;
    q.push(data(0xE8));
    q.push(cmnd(0xE4));
    CHECK(c.cycles == after_reset + 2);
    for (int i = 0; i < 10; ++i) {
        q.front();
        q.front_for(0xE8);
        q.preempt(0xE8);
        q.empty();
    }
    CHECK(c.cycles == after_reset + 2);
    CHECK(q.front()->frame->destination == 0xE4);  // the command queue is checked first
    CHECK(q.preempt(0xE8));                        // a command for another disk waits
    CHECK_FALSE(q.preempt(0xE4));
    q.pop_for(0xE4);
    CHECK(c.cycles == after_reset + 3);
    CHECK(q.rtl().assertion_failure().empty());
}

TEST_CASE("a full RTL FIFO refuses its class only: commands still enter their own FIFO", "[cosim]")
{
    cosim::RtlTransmitQueue q(CommandFirst{CommandFifo::CommandQueue, false, false}, 212.5);
    for (std::size_t i = 0; i < cosim::kRtlFrameDepth; ++i) {
        REQUIRE(q.can_push(loop::FrameClass::Data));
        q.push(data(0xE8));
    }
    CHECK_FALSE(q.can_push(loop::FrameClass::Data));
    CHECK_FALSE(q.can_push(loop::FrameClass::Other));
    CHECK(q.can_push(loop::FrameClass::Command));
    for (std::size_t i = 0; i < cosim::kRtlCommandDepth; ++i) q.push(cmnd(0xE4));
    CHECK_FALSE(q.can_push(loop::FrameClass::Command));
    q.pop_for(0xE8);
    CHECK(q.can_push(loop::FrameClass::Data));
    CHECK_FALSE(q.can_push(loop::FrameClass::Command));

    // One FIFO for everything without the command queue.
    cosim::RtlTransmitQueue one(CommandFirst{CommandFifo::Reorder, false, false}, 212.5);
    for (std::size_t i = 0; i < cosim::kRtlFrameDepth; ++i) one.push(data(0xE8));
    CHECK_FALSE(one.can_push(loop::FrameClass::Command));
}

TEST_CASE("the lock-step checker stops at the first disagreement and reports it", "[cosim]")
{
    // A reference that does not put commands first, against an RTL that does: they agree until a
    // command is queued behind data, and the head is the first decision that differs.
    auto ref = std::make_unique<hba::CommandFirstQueue>(CommandFirst{CommandFifo::Off, false, false},
                                                        hba::FifoDepths{cosim::kRtlFrameDepth, cosim::kRtlCommandDepth});
    auto rtl = std::make_unique<cosim::RtlTransmitQueue>(CommandFirst{CommandFifo::CommandQueue, false, false}, 212.5);
    cosim::LockstepTransmitQueue q(std::move(ref), std::move(rtl));
    q.push(data(0xE8));
    q.push(data(0xE4));
    CHECK(q.front()->frame->destination == 0xE8);
    CHECK(q.front_for(0xE4));
    CHECK(q.divergence().empty());
    CHECK(q.decisions_compared() > 0);
    q.push(cmnd(0xE2));
    q.front();  // the port asks whom to open next
    const std::string& report = q.divergence();
    REQUIRE_FALSE(report.empty());
    INFO(report);
    CHECK(report.find("lock-step divergence at") != std::string::npos);
    // Where to look in the RTL's VCD: the three pushes, all at time 0, took the edges 0, 1 and 2; the
    // state after the last is drawn from that edge, and last at its falling edge, 2.5 periods.
    const long long falling_ps = std::llround(2.5 * 1e6 / 212.5);
    CHECK(report.find("RTL cycle 3, RTL VCD time " + std::to_string(falling_ps) + " ps") != std::string::npos);
    CHECK(report.find("head") != std::string::npos);
    CHECK(report.find("reference: frame #1 (data for 0xE8") != std::string::npos);
    CHECK(report.find("rtl:       frame #3 (command for 0xE2") != std::string::npos);
}
