#pragma once
// The Verilated command-first block (rtl/cmdf_top.v) behind a small C++ face: what its pins mean,
// nothing more. The RTL holds descriptors (tag, destination, class, length, unfair rights); the
// caller keeps the frame behind each tag.
//
// Time. The block has its own clock (docs/model.md, "The RTL transmit queue"). It is never ticked
// through idle time: a push or a pop is one clock cycle, at the first rising edge at or after the
// caller's time (and after the previous cycle); queries are combinational (the outputs settle with
// no clock). So the block's decisions take no simulated time, exactly like the reference model's.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "fcal/hba/command_first_queue.hpp"
#include "fcal/loop/loop_frame.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::cosim {

// Depths the RTL was Verilated with (CMake options FCAL_RTL_DEPTH, FCAL_RTL_CMD_DEPTH).
constexpr std::size_t kRtlFrameDepth = FCAL_RTL_DEPTH;
constexpr std::size_t kRtlCommandDepth = FCAL_RTL_CMD_DEPTH;
constexpr unsigned kRtlTagBits = 8;

struct Descriptor {
    std::uint16_t tag = 0;
    phy::AlPa dest = 0;
    loop::FrameClass frame_class = loop::FrameClass::Data;
    std::uint16_t words = 0;
    bool unfair_arb = false;   // outputs only: the rights the block stored at push
    bool unfair_xfer = false;
};

// What an RTL VCD shows: every signal, the FIFOs' storage included (what an RTL engineer debugging
// the block needs), or only cmdf_top's pins (what a system-level look at the block needs: a small
// fraction of the size, see the README's RTL section).
enum class VcdScope { AllSignals, PinsOnly };

struct RtlCounters {
    std::uint64_t cycles = 0;       // clock cycles run (pushes and pops; one cycle may do both)
    std::uint64_t evaluations = 0;  // combinational settles for queries
};

class CommandFirstRtl {
public:
    CommandFirstRtl(const hba::CommandFirst& policy, double clock_mhz);
    ~CommandFirstRtl();
    CommandFirstRtl(const CommandFirstRtl&) = delete;
    CommandFirstRtl& operator=(const CommandFirstRtl&) = delete;

    // Outputs (combinational; the query destination drives select and preempt).
    std::optional<Descriptor> head() const;
    // `now_ps` (the caller's time) places the query in the VCD; a negative time leaves it out.
    std::optional<Descriptor> select(phy::AlPa dest, double now_ps = -1);
    bool preempt_request(phy::AlPa open_peer, double now_ps = -1);
    bool full(bool command_fifo) const;
    unsigned frames_queued() const;
    unsigned commands_queued() const;

    // One clock cycle at the first edge at or after `now_ps`: push `push` if given, and pop the
    // entry select(*pop_dest) shows if given (both in the same cycle is allowed).
    void cycle(const Descriptor* push, std::optional<phy::AlPa> pop_dest, double now_ps);

    // Dump the block to a VCD, in picoseconds on the caller's time axis.
    void open_vcd(const std::string& path, VcdScope scope = VcdScope::AllSignals);
    void close_vcd();
    // The first write to the VCD that failed ("" if none): the run goes on without the rest of it.
    std::string vcd_error() const;

    // Where the block's present state is drawn on the VCD's time axis (picoseconds), for a caller
    // at `now_ps`: the latest time at which the block changed, or now_ps if later (the state holds
    // until the next change). The same with or without a VCD open, so that a report can name the
    // time to look at in a traced rerun. last_edge_ps() is the latest rising clock edge.
    std::uint64_t vcd_time_ps(double now_ps) const;
    std::uint64_t last_edge_ps() const { return last_edge_ps_; }

    // An assertion inside the RTL fired (Verilated with --assert): what it said, else empty.
    const std::string& assertion_failure() const { return assertion_failure_; }
    const RtlCounters& counters() const { return counters_; }
    double clock_period_ps() const { return period_ps_; }

private:
    struct Model;
    void settle(std::uint64_t at_ps);
    void mark(std::uint64_t at_ps);
    void check_assertions();

    std::unique_ptr<Model> m_;
    double period_ps_;
    std::uint64_t next_edge_ = 0;     // index of the first edge not yet used
    std::uint64_t last_mark_ps_ = 0;  // the latest time drawn (or that would be, untraced)
    std::uint64_t last_edge_ps_ = 0;
    RtlCounters counters_;
    std::string assertion_failure_;
};

}  // namespace fcal::cosim
