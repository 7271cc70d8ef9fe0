// fcal-rtl-bench: constrained-random co-simulation of the Command-First frame-descriptor FIFO.
// The Verilated RTL (rtl/cmdf_top.v, through cosim::CommandFirstRtl) and its reference model
// (hba::CommandFirstQueue, same depths and policy) get the same transactions; a scoreboard compares
// every output of the RTL with the reference's answer before each clock edge and stops at the first
// difference.
//
// The run is cut into segments of --segment-cycles cycles. Each segment starts from reset with the
// next configuration of a rotation: every selected FIFO policy x the 4 combinations of the
// arbitration and preemption rights. The random stream depends on the seed only, never on --cycles:
// a shorter run is a prefix of a longer one, so a failure at cycle N reproduces with --cycles N+1.
//
// Traffic, each cycle: maybe push a descriptor (command, data or other, for one of a few AL_PAs, so
// that per-destination selection and collisions happen), maybe pop the oldest frame for a
// destination that has one (often the head's), both in the same cycle or neither; and query a
// destination as the peer the port is OPEN to (select, preempt request). Phases bias the traffic
// towards filling or draining so that full and empty both happen often. Two producers feed the FIFO,
// as in the HBA: one of commands, one of the other frames. A descriptor the reference cannot take
// (its FIFO is full) is held by its producer and retried in later cycles; it blocks that producer
// only. One push per cycle at most (the RTL has one push port).
//
// Tags identify frames: the bench allocates them from a free list of depth + command depth and keeps
// the frame behind each one; the reference's frames carry their tag, so the two answers are compared
// tag for tag, and field by field (destination, class, length, unfair rights).
//
// Time. The RTL runs at 100 MHz on its own axis, the one its VCD (--vcd) is drawn on: each segment
// starts from reset at 0, and the clock edge of its cycle k is at (k + 1) x 10 ns; the questions of
// that cycle (the open peer's select and preempt request, then the select for the pop) are asked
// 2.5 ns and 1.25 ns before that edge. A mismatch report names the cycle and the VCD time at which
// the outputs it compared are drawn (for an RTL assertion, the edge), so one can jump there in GTKWave.
//
// Exit codes: 0 pass; 1 a mismatch, an RTL assertion, or (for a run that covered every policy) a
// functional coverage counter still at zero; 2 bad command line.
#include <systemc>  // declares sc_main

#include <CLI/CLI.hpp>

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "fcal/cosim/command_first_rtl.hpp"
#include "fcal/hba/command_first_queue.hpp"
#include "fcal/loop/loop_frame.hpp"

using namespace fcal;

namespace {

// No SystemC banner, as in fcal-sim: SystemC 2.3.4 prints it from its own main(), before sc_main, unless
// SC_COPYRIGHT_MESSAGE is DISABLE, so a static initializer (run before any main) sets it. A value the
// user set is kept: SC_COPYRIGHT_MESSAGE=ENABLE brings the banner back.
const bool g_no_banner = ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0) == 0;

constexpr std::size_t kTags = cosim::kRtlFrameDepth + cosim::kRtlCommandDepth;
static_assert(kTags <= (std::size_t{1} << cosim::kRtlTagBits), "the tags must fit the RTL's tag field");
constexpr double kClockMhz = 100.0;
constexpr double kPeerQuestion = 0.25;  // periods before the edge: the open peer's questions
constexpr double kPopQuestion = 0.125;  // and the select for the pop

constexpr phy::AlPa kController = 0xE8;                                  // the HBA: source of every frame
constexpr std::array<phy::AlPa, 5> kDests{0x01, 0x02, 0x04, 0x08, 0x0F};  // frame destinations
constexpr phy::AlPa kIdlePeer = 0xEF;                                    // a peer no frame is for

// Reproducible on every platform: no standard distributions (their algorithms are unspecified).
class Rng {
public:
    explicit Rng(std::uint64_t seed) : g_(seed) {}
    std::uint64_t below(std::uint64_t n) { return g_() % n; }
    bool chance(double p) { return static_cast<double>(g_() >> 11) * 0x1.0p-53 < p; }

private:
    std::mt19937_64 g_;
};

// What the reference's frames carry, so that its answers name a tag.
struct Tagged : loop::FrameContent {
    Tagged(std::uint16_t t, std::uint64_t s) : tag(t), seq(s) {}
    std::uint16_t tag;
    std::uint64_t seq;  // push order over the whole run, from 1
};
const Tagged& tagged(const loop::LoopFrame& f) { return static_cast<const Tagged&>(*f.content); }

// ---- Coverage -------------------------------------------------------------------------------------
enum Cov {
    kFrameFull,
    kCommandFull,
    kEmpty,
    kPushPop,
    kOvertake,
    kLastSlotToHead,
    kPolicyOff,
    kPolicyReorder,
    kPolicyCommandQueue,
    kUnfairArb,
    kUnfairXfer,
    kPreempt,
    kBackPressure,
    kPopBehindHead,
    kSelectNone,
    kCovCount
};
constexpr std::array<const char*, kCovCount> kCovNames{
    "frame FIFO full",                  // cycles
    "command FIFO full",                // cycles
    "empty",                            // cycles
    "push and pop in the same cycle",   // cycles
    "command overtaking queued data",   // a command became head, or was popped, ahead of older data
    "wrap-around: last slot to head",   // pops, from slot 0, of an entry that had been in the last slot
    "policy off exercised",             // cycles
    "policy reorder exercised",         // cycles
    "policy command_queue exercised",   // cycles
    "unfair arbitration requested",     // cycles with a head marked arbitrate-unfairly
    "unfair transfer requested",        // cycles with a head marked transfer-unfairly
    "preemption requested",             // cycles with preempt_request for the open peer
    "back-pressure held",               // cycles a push was held because its FIFO was full
    "pop behind the head",              // pops of an entry other than the head (collapse)
    "select with no frame for the peer",  // cycles
};
using Coverage = std::array<std::uint64_t, kCovCount>;

// ---- What both sides answer before an edge ---------------------------------------------------
struct Answer {  // the head port or the select port
    bool valid = false;
    std::uint16_t tag = 0;
    phy::AlPa dest = 0;
    loop::FrameClass cls = loop::FrameClass::Data;
    unsigned len = 0;
    bool arb = false;  // head only: unfair rights
    bool xfer = false;
};

struct Outputs {
    Answer head;
    Answer sel;  // for the open peer
    bool preempt = false;
    bool frame_full = false;
    bool command_full = false;
    unsigned frames = 0;
    unsigned commands = 0;
};

Answer from_rtl(const std::optional<cosim::Descriptor>& d, bool head)
{
    Answer a;
    if (!d) return a;
    a.valid = true;
    a.tag = d->tag;
    a.dest = d->dest;
    a.cls = d->frame_class;
    a.len = d->words;
    if (head) {
        a.arb = d->unfair_arb;
        a.xfer = d->unfair_xfer;
    }
    return a;
}

Answer from_ref(const loop::OutgoingFrame* f, bool head)
{
    Answer a;
    if (!f) return a;
    a.valid = true;
    a.tag = tagged(*f->frame).tag;
    a.dest = f->frame->destination;
    a.cls = f->frame_class();
    a.len = static_cast<unsigned>(f->frame->words());
    if (head) {
        a.arb = f->arbitrate_unfairly;
        a.xfer = f->transfer_unfairly;
    }
    return a;
}

std::string hex(phy::AlPa a)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", a);
    return buf;
}

std::string describe(const Answer& a, bool head)
{
    if (!a.valid) return "none";
    std::string s = "tag " + std::to_string(a.tag) + " dest " + hex(a.dest) + " " + loop::to_string(a.cls) + " " +
                    std::to_string(a.len) + " words";
    if (head) s += std::string(" arb ") + (a.arb ? "1" : "0") + " xfer " + (a.xfer ? "1" : "0");
    return s;
}

void compare(const char* port, const Answer& rtl, const Answer& ref, bool head, std::vector<std::string>& diffs)
{
    auto diff = [&](const char* field, const std::string& r, const std::string& m) {
        diffs.push_back(std::string(port) + "." + field + ": rtl " + r + ", reference " + m);
    };
    if (rtl.valid != ref.valid) {
        diff("valid", rtl.valid ? "1" : "0", ref.valid ? "1" : "0");
        return;
    }
    if (!rtl.valid) return;
    if (rtl.tag != ref.tag) diff("tag", std::to_string(rtl.tag), std::to_string(ref.tag));
    if (rtl.dest != ref.dest) diff("dest", hex(rtl.dest), hex(ref.dest));
    if (rtl.cls != ref.cls) diff("class", loop::to_string(rtl.cls), loop::to_string(ref.cls));
    if (rtl.len != ref.len) diff("len", std::to_string(rtl.len), std::to_string(ref.len));
    if (head && rtl.arb != ref.arb) diff("unfair_arb", rtl.arb ? "1" : "0", ref.arb ? "1" : "0");
    if (head && rtl.xfer != ref.xfer) diff("unfair_xfer", rtl.xfer ? "1" : "0", ref.xfer ? "1" : "0");
}

// ---- Traffic ------------------------------------------------------------------------------------
struct Phase {
    const char* name = "";
    double push = 0;
    double pop = 0;
    double command_share = 0;
    double other_share = 0;
    std::vector<phy::AlPa> dests;  // destinations pushed to in this phase
    std::uint64_t left = 0;        // cycles
};

struct Pending {  // a descriptor the producer has, not yet in the FIFO
    phy::AlPa dest = 0;
    loop::FrameClass cls = loop::FrameClass::Data;
    std::uint32_t payload_bytes = 0;
};

struct CycleInputs {
    std::uint64_t cycle = 0;
    phy::AlPa peer = 0;
    std::optional<cosim::Descriptor> push;
    bool held = false;     // a producer held its descriptor (FIFO full)
    bool decided = false;  // push and pop chosen (a mismatch before that shows only the peer)
    std::optional<phy::AlPa> pop;
};

struct RunInfo {
    std::string program;  // as invoked, for the reproduction line
    std::uint64_t seed = 0;
    std::string policy_option;
    std::uint64_t segment_cycles = 0;
};

// The collapsing queues have no read and write pointers to wrap: their counterpart of a circular
// FIFO's wrap-around is an entry's way through every slot, from the last (it was the one furthest
// back in a full FIFO) to slot 0. The bench knows the slots without asking the RTL: within one FIFO
// the order is the push order, except that in reorder mode the commands come first. A larger key is
// further back.
struct SlotKey {
    bool behind_commands;
    std::uint64_t seq;
    bool operator<(const SlotKey& o) const { return behind_commands != o.behind_commands ? !behind_commands : seq < o.seq; }
};

// One segment: a fresh RTL and reference with one configuration, from reset.
class Segment {
public:
    Segment(const hba::CommandFirst& policy, unsigned index, Rng& rng, Coverage& cov, std::uint64_t& seq, const RunInfo& run)
        : policy_(policy),
          index_(index),
          rng_(rng),
          cov_(cov),
          seq_(seq),
          run_(run),
          rtl_(policy, kClockMhz),
          ref_(policy, hba::FifoDepths{cosim::kRtlFrameDepth, cosim::kRtlCommandDepth}),
          frames_(kTags)
    {
        for (std::size_t t = 0; t < kTags; ++t) free_.push_back(static_cast<std::uint16_t>(t));
    }

    void open_vcd(const std::string& path, cosim::VcdScope scope) { rtl_.open_vcd(path, scope); }

    // One clock cycle; false (after the report) at a mismatch or an RTL assertion.
    bool step(std::uint64_t cycle, std::uint64_t local)
    {
        if (phase_.left == 0) new_phase();
        --phase_.left;

        CycleInputs in;
        in.cycle = cycle;
        const std::uint64_t p = rng_.below(kDests.size() + 1);
        in.peer = p == kDests.size() ? kIdlePeer : kDests[p];
        const double edge_ps = static_cast<double>(local + 1) * rtl_.clock_period_ps();
        const double peer_ps = edge_ps - kPeerQuestion * rtl_.clock_period_ps();
        const double pop_ps = edge_ps - kPopQuestion * rtl_.clock_period_ps();

        // Scoreboard: every output before the edge.
        const Outputs r = rtl_outputs(in.peer, peer_ps);
        const Outputs m = ref_outputs(in.peer);
        std::vector<std::string> diffs;
        compare("head", r.head, m.head, true, diffs);
        compare("select", r.sel, m.sel, false, diffs);
        if (r.preempt != m.preempt) diffs.push_back(std::string("preempt_request: rtl ") + (r.preempt ? "1" : "0") + ", reference " + (m.preempt ? "1" : "0"));
        if (r.frame_full != m.frame_full) diffs.push_back(std::string("frame_full: rtl ") + (r.frame_full ? "1" : "0") + ", reference " + (m.frame_full ? "1" : "0"));
        if (r.command_full != m.command_full) diffs.push_back(std::string("cmd_full: rtl ") + (r.command_full ? "1" : "0") + ", reference " + (m.command_full ? "1" : "0"));
        if (r.frames != m.frames) diffs.push_back("frame_count: rtl " + std::to_string(r.frames) + ", reference " + std::to_string(m.frames));
        if (r.commands != m.commands) diffs.push_back("cmd_count: rtl " + std::to_string(r.commands) + ", reference " + std::to_string(m.commands));
        if (!diffs.empty()) return report(cycle, local, rtl_.vcd_time_ps(peer_ps), in, r, m, diffs, nullptr);

        observe(m);

        // This cycle's transactions, all decided from the state before the edge.
        // Two producers, as in the HBA: commands, and the rest (data, other). Each holds at most one
        // descriptor its FIFO had no room for; one push per cycle (one push port).
        if (rng_.chance(phase_.push)) {
            Pending n = new_pending();
            auto& slot = pending_[n.cls == loop::FrameClass::Command ? 0 : 1];
            if (!slot) slot = n;  // else that producer is still blocked: nothing new from it
        }
        std::vector<std::size_t> ready;
        for (std::size_t i = 0; i < pending_.size(); ++i) {
            if (!pending_[i]) continue;
            if (ref_.can_push(pending_[i]->cls))
                ready.push_back(i);
            else
                in.held = true;
        }
        if (in.held) ++cov_[kBackPressure];
        std::optional<std::size_t> pushed_from;
        if (!ready.empty()) {
            pushed_from = ready[ready.size() == 1 ? 0 : rng_.below(ready.size())];
            in.push = allocate(*pending_[*pushed_from]);
        }
        if (!ref_.empty() && rng_.chance(phase_.pop)) {
            if (rng_.chance(0.3)) {
                in.pop = ref_.front()->frame->destination;
            } else {
                std::vector<phy::AlPa> have;
                for (phy::AlPa d : kDests)
                    if (ref_.front_for(d)) have.push_back(d);
                in.pop = have[rng_.below(have.size())];
            }
        }

        in.decided = true;

        // The pop removes what select shows for its destination: compare that too.
        if (in.pop) {
            const Answer rs = from_rtl(rtl_.select(*in.pop, pop_ps), false);
            const Answer ms = from_ref(ref_.front_for(*in.pop), false);
            compare("select(pop)", rs, ms, false, diffs);
            if (!diffs.empty()) return report(cycle, local, rtl_.vcd_time_ps(pop_ps), in, r, m, diffs, &rs);
            if (ms.tag != m.head.tag) ++cov_[kPopBehindHead];
            if (ms.cls == loop::FrameClass::Command && older_data(frames_[ms.tag].seq, ms.dest)) ++cov_[kOvertake];
            if (frames_[ms.tag].from_last_slot && at_slot_0(ms.tag)) ++cov_[kLastSlotToHead];
        }
        if (in.push && in.pop) ++cov_[kPushPop];

        // The edge: the RTL, then the reference in the same order (remove, then insert).
        rtl_.cycle(in.push ? &*in.push : nullptr, in.pop, edge_ps);
        if (!rtl_.assertion_failure().empty()) {
            diffs.push_back("RTL assertion: " + rtl_.assertion_failure());
            return report(cycle, local, rtl_.last_edge_ps(), in, r, m, diffs, nullptr);
        }
        if (in.pop) {
            const loop::OutgoingFrame out = ref_.pop_for(*in.pop);
            release(tagged(*out.frame).tag);
        }
        if (in.push) {
            ref_.push(loop::OutgoingFrame{frames_[in.push->tag].frame});
            pending_[*pushed_from].reset();
        }
        mark_last_slots();
        remember(in);
        return true;
    }

private:
    struct Slot {
        loop::FrameRef frame;  // null: the tag is free
        std::uint64_t seq = 0;
        bool from_last_slot = false;  // has been in the last slot of its FIFO
    };

    Outputs rtl_outputs(phy::AlPa peer, double now_ps)
    {
        Outputs o;
        o.head = from_rtl(rtl_.head(), true);
        o.sel = from_rtl(rtl_.select(peer, now_ps), false);
        o.preempt = rtl_.preempt_request(peer, now_ps);
        o.frame_full = rtl_.full(false);
        o.command_full = rtl_.full(true);
        o.frames = rtl_.frames_queued();
        o.commands = rtl_.commands_queued();
        return o;
    }

    Outputs ref_outputs(phy::AlPa peer) const
    {
        Outputs o;
        o.head = from_ref(ref_.front(), true);
        o.sel = from_ref(ref_.front_for(peer), false);
        o.preempt = ref_.preempt(peer);
        // A data frame always goes to the frame FIFO; the command FIFO exists only with CommandQueue
        // (the RTL's is then never written, so never full).
        o.frame_full = !ref_.can_push(loop::FrameClass::Data);
        o.command_full = hba::to_command_fifo(ref_.policy(), loop::FrameClass::Command) && !ref_.can_push(loop::FrameClass::Command);
        o.frames = static_cast<unsigned>(ref_.frames_queued());
        o.commands = static_cast<unsigned>(ref_.commands_queued());
        return o;
    }

    // A data frame older than `seq` is queued (for `dest`, if given).
    bool older_data(std::uint64_t seq, std::optional<phy::AlPa> dest) const
    {
        for (const Slot& s : frames_)
            if (s.frame && s.seq < seq && s.frame->frame_class == loop::FrameClass::Data &&
                (!dest || s.frame->destination == *dest))
                return true;
        return false;
    }

    // Which FIFO a queued frame is in (true: the command FIFO), and where in it.
    bool in_command_fifo(const Slot& s) const { return hba::to_command_fifo(policy_, s.frame->frame_class); }
    SlotKey key(const Slot& s) const
    {
        const bool commands_first = policy_.fifo == hba::CommandFifo::Reorder;
        return SlotKey{commands_first && s.frame->frame_class != loop::FrameClass::Command, s.seq};
    }

    // The queued frame `tag` is the oldest of its FIFO (in slot 0).
    bool at_slot_0(std::uint16_t tag) const
    {
        const Slot& me = frames_[tag];
        for (const Slot& s : frames_)
            if (s.frame && &s != &me && in_command_fifo(s) == in_command_fifo(me) && key(s) < key(me)) return false;
        return true;
    }

    // After an edge: in a full FIFO, the frame in the last slot (the one furthest back).
    void mark_last_slots()
    {
        const bool full[2] = {ref_.frames_queued() == cosim::kRtlFrameDepth, ref_.commands_queued() == cosim::kRtlCommandDepth};
        if (!full[0] && !full[1]) return;
        Slot* last[2] = {nullptr, nullptr};
        for (Slot& s : frames_) {
            if (!s.frame) continue;
            Slot*& l = last[in_command_fifo(s) ? 1 : 0];
            if (!l || key(*l) < key(s)) l = &s;
        }
        for (int f = 0; f < 2; ++f)
            if (full[f] && last[f]) last[f]->from_last_slot = true;
    }

    void observe(const Outputs& m)
    {
        switch (policy_.fifo) {
        case hba::CommandFifo::Off: ++cov_[kPolicyOff]; break;
        case hba::CommandFifo::Reorder: ++cov_[kPolicyReorder]; break;
        case hba::CommandFifo::CommandQueue: ++cov_[kPolicyCommandQueue]; break;
        }
        if (m.frame_full) ++cov_[kFrameFull];
        if (m.command_full) ++cov_[kCommandFull];
        if (!m.head.valid) ++cov_[kEmpty];
        if (m.head.valid && m.head.arb) ++cov_[kUnfairArb];
        if (m.head.valid && m.head.xfer) ++cov_[kUnfairXfer];
        if (m.preempt) ++cov_[kPreempt];
        if (!m.sel.valid) ++cov_[kSelectNone];
        const std::uint64_t head_seq = m.head.valid ? frames_[m.head.tag].seq : 0;
        if (head_seq != last_head_seq_ && m.head.cls == loop::FrameClass::Command && older_data(head_seq, std::nullopt))
            ++cov_[kOvertake];
        last_head_seq_ = head_seq;
    }

    void new_phase()
    {
        const std::uint64_t kind = rng_.below(100);
        if (kind < 35) {
            phase_.name = "fill";
            phase_.push = 0.95;
            phase_.pop = 0.15;
        } else if (kind < 70) {
            phase_.name = "drain";
            phase_.push = 0.1;
            phase_.pop = 0.95;
        } else if (kind < 90) {
            phase_.name = "balanced";
            phase_.push = 0.6;
            phase_.pop = 0.6;
        } else {
            phase_.name = "sparse";
            phase_.push = 0.2;
            phase_.pop = 0.2;
        }
        static constexpr std::array<double, 3> kCommandShares{0.05, 0.3, 0.7};
        phase_.command_share = kCommandShares[rng_.below(kCommandShares.size())];
        phase_.other_share = 0.1;
        // 1 to 5 distinct destinations: from all frames for one peer to many small collisions.
        std::vector<phy::AlPa> pool(kDests.begin(), kDests.end());
        const std::size_t n = 1 + rng_.below(pool.size());
        phase_.dests.clear();
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t j = i + rng_.below(pool.size() - i);
            std::swap(pool[i], pool[j]);
            phase_.dests.push_back(pool[i]);
        }
        phase_.left = 50 + rng_.below(1500);
    }

    Pending new_pending()
    {
        Pending p;
        p.dest = phase_.dests[rng_.below(phase_.dests.size())];
        const double c = static_cast<double>(rng_.below(1000)) / 1000.0;
        if (c < phase_.command_share) {
            p.cls = loop::FrameClass::Command;
            p.payload_bytes = static_cast<std::uint32_t>(24 + 4 * rng_.below(11));  // FCP_CMND: 32 bytes, give or take
        } else if (c < phase_.command_share + phase_.other_share) {
            p.cls = loop::FrameClass::Other;
            p.payload_bytes = static_cast<std::uint32_t>(rng_.below(257));
        } else {
            p.cls = loop::FrameClass::Data;
            p.payload_bytes = static_cast<std::uint32_t>(rng_.below(2113));  // up to a full 2112-byte payload
        }
        return p;
    }

    cosim::Descriptor allocate(const Pending& p)
    {
        if (free_.empty()) throw std::logic_error("fcal-rtl-bench: no free tag");  // cannot happen: tags = capacity
        const std::size_t i = rng_.below(free_.size());
        const std::uint16_t tag = free_[i];
        free_[i] = free_.back();
        free_.pop_back();
        auto f = kernel::make_ref<loop::LoopFrame>();
        f->source = kController;
        f->destination = p.dest;
        f->payload_bytes = p.payload_bytes;
        f->frame_class = p.cls;
        f->content = std::make_shared<Tagged>(tag, ++seq_);
        frames_[tag] = Slot{f, seq_};
        cosim::Descriptor d;
        d.tag = tag;
        d.dest = p.dest;
        d.frame_class = p.cls;
        d.words = static_cast<std::uint16_t>(f->words());
        return d;
    }

    void release(std::uint16_t tag)
    {
        frames_[tag] = Slot{};
        free_.push_back(tag);
    }

    void remember(const CycleInputs& in)
    {
        history_.push_back(in);
        if (history_.size() > 8) history_.pop_front();
    }

    std::string describe_inputs(const CycleInputs& in) const
    {
        std::string s = "cycle " + std::to_string(in.cycle) + ": open peer " + hex(in.peer);
        if (!in.decided) return s + "; push and pop not chosen yet";
        if (in.push)
            s += "; push tag " + std::to_string(in.push->tag) + " dest " + hex(in.push->dest) + " " + loop::to_string(in.push->frame_class) +
                 " " + std::to_string(in.push->words) + " words";
        else
            s += "; no push";
        if (in.held) s += " (a descriptor held: FIFO full)";
        s += in.pop ? "; pop for " + hex(*in.pop) : "; no pop";
        return s;
    }

    // Which frame the RTL's tag stands for, as the bench knows it.
    std::string frame_of(const Answer& a) const
    {
        if (!a.valid) return "";
        const Slot& s = frames_[a.tag];
        if (!s.frame) return " (tag not in use)";
        return " (frame #" + std::to_string(s.seq) + ": dest " + hex(s.frame->destination) + " " + loop::to_string(s.frame->frame_class) + ")";
    }

    bool report(std::uint64_t cycle, std::uint64_t local, std::uint64_t vcd_ps, const CycleInputs& in, const Outputs& r,
                const Outputs& m, const std::vector<std::string>& diffs, const Answer* rtl_pop_select) const
    {
        const bool assertion = diffs.size() == 1 && diffs[0].rfind("RTL assertion", 0) == 0;
        std::printf("fcal-rtl-bench: %s at cycle %llu, VCD time %llu ps (segment %u, its cycle %llu; policy %s, arbitration %s, "
                    "preempt %s)\n",
                    assertion ? "RTL ASSERTION" : "MISMATCH", static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(vcd_ps),
                    index_, static_cast<unsigned long long>(local), hba::to_string(policy_.fifo), policy_.arbitration ? "on" : "off",
                    policy_.preempt ? "on" : "off");
        for (const auto& d : diffs) std::printf("  %s\n", d.c_str());
        std::printf("  outputs before this edge, open peer %s:\n", hex(in.peer).c_str());
        auto print = [&](const char* who, const Outputs& o, bool rtl) {
            std::printf("    %-9s head %s%s\n", who, describe(o.head, true).c_str(), rtl ? frame_of(o.head).c_str() : "");
            std::printf("    %-9s select(%s) %s%s\n", "", hex(in.peer).c_str(), describe(o.sel, false).c_str(), rtl ? frame_of(o.sel).c_str() : "");
            std::printf("    %-9s preempt_request %d, frame_full %d, cmd_full %d, frame_count %u, cmd_count %u\n", "", o.preempt,
                        o.frame_full, o.command_full, o.frames, o.commands);
        };
        print("rtl:", r, true);
        print("reference:", m, false);
        if (rtl_pop_select)
            std::printf("    rtl select(%s) for the pop: %s%s\n", hex(*in.pop).c_str(), describe(*rtl_pop_select, false).c_str(),
                        frame_of(*rtl_pop_select).c_str());
        std::printf("  inputs (oldest first; the last is this cycle's):\n");
        for (const auto& h : history_) std::printf("    %s\n", describe_inputs(h).c_str());
        std::printf("    %s\n", describe_inputs(in).c_str());
        std::printf("  reproduce: %s --seed %llu --policy %s --segment-cycles %llu --cycles %llu [--vcd FILE [--vcd-pins-only]]\n",
                    run_.program.c_str(), static_cast<unsigned long long>(run_.seed), run_.policy_option.c_str(),
                    static_cast<unsigned long long>(run_.segment_cycles), static_cast<unsigned long long>(cycle + 1));
        return false;
    }

    hba::CommandFirst policy_;
    unsigned index_;
    Rng& rng_;
    Coverage& cov_;
    std::uint64_t& seq_;
    const RunInfo& run_;
    cosim::CommandFirstRtl rtl_;
    hba::CommandFirstQueue ref_;
    std::vector<Slot> frames_;  // tag -> frame
    std::vector<std::uint16_t> free_;
    std::array<std::optional<Pending>, 2> pending_;  // [0] the command producer's, [1] the others'

    Phase phase_;
    std::uint64_t last_head_seq_ = 0;
    std::deque<CycleInputs> history_;
};

}  // namespace

int sc_main(int argc, char* argv[])
{
    CLI::App app{"fcal-rtl-bench: constrained-random co-simulation of rtl/cmdf_top.v against hba::CommandFirstQueue"};
    std::uint64_t seed = 1;
    std::uint64_t cycles = 200000;
    std::uint64_t segment_cycles = 5000;
    std::string policy = "all";
    std::string vcd_path;
    bool pins_only = false;
    bool quiet = false;
    app.add_option("--seed", seed, "random seed (the run is a function of it)");
    app.add_option("--cycles", cycles, "clock cycles to run in all")->check(CLI::PositiveNumber);
    app.add_option("--policy", policy, "FIFO policy: off, reorder, command_queue or all (rotating)")
        ->check(CLI::IsMember({"off", "reorder", "command_queue", "all"}));
    app.add_option("--segment-cycles", segment_cycles, "cycles per segment (each from reset, next configuration of the rotation)")
        ->check(CLI::PositiveNumber);
    app.add_option("--vcd", vcd_path, "dump the RTL of each segment to PATH (overwritten per segment: the last one stays)");
    app.add_flag("--vcd-pins-only", pins_only, "in the VCD, only cmdf_top's pins (not the FIFOs' storage)")->needs("--vcd");
    app.add_flag("--quiet", quiet, "print only the summary line (and a mismatch report)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        std::fprintf(stderr, "fcal-rtl-bench: %s (see --help)\n", e.what());
        return 2;
    }

    std::vector<hba::CommandFifo> fifos;
    for (auto f : {hba::CommandFifo::Off, hba::CommandFifo::Reorder, hba::CommandFifo::CommandQueue})
        if (policy == "all" || policy == hba::to_string(f)) fifos.push_back(f);
    const RunInfo run{argv[0], seed, policy, segment_cycles};

    if (!quiet)
        std::printf("fcal-rtl-bench: seed %llu, %llu cycles in segments of %llu, policy %s x rights (arbitration, preempt) "
                    "off/off, on/off, off/on, on/on; depths %zu frames, %zu commands\n",
                    static_cast<unsigned long long>(seed), static_cast<unsigned long long>(cycles),
                    static_cast<unsigned long long>(segment_cycles), policy.c_str(), cosim::kRtlFrameDepth, cosim::kRtlCommandDepth);

    Rng rng(seed);
    Coverage cov{};
    std::uint64_t seq = 0;
    bool ok = true;
    std::uint64_t done = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned index = 0; ok && done < cycles; ++index) {
        const unsigned config = index % (fifos.size() * 4);
        hba::CommandFirst p;
        p.fifo = fifos[config / 4];
        p.arbitration = (config & 1) != 0;
        p.preempt = (config & 2) != 0;
        Segment segment(p, index, rng, cov, seq, run);
        if (!vcd_path.empty()) {
            try {
                segment.open_vcd(vcd_path, pins_only ? cosim::VcdScope::PinsOnly : cosim::VcdScope::AllSignals);
            } catch (const std::runtime_error& e) {
                std::fprintf(stderr, "fcal-rtl-bench: --vcd: %s\n", e.what());
                return 2;
            }
        }
        for (std::uint64_t local = 0; local < segment_cycles && done < cycles; ++local, ++done) {
            if (!segment.step(done, local)) {
                ok = false;
                break;
            }
        }
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    if (!ok) {
        std::printf("fcal-rtl-bench: seed %llu, depths %zu/%zu, %llu cycles, 1 mismatch: FAIL\n", static_cast<unsigned long long>(seed),
                    cosim::kRtlFrameDepth, cosim::kRtlCommandDepth, static_cast<unsigned long long>(done));
        return 1;
    }

    if (!quiet) {
        std::printf("functional coverage:\n");
        for (std::size_t i = 0; i < kCovCount; ++i)
            std::printf("  %-36s %llu\n", kCovNames[i], static_cast<unsigned long long>(cov[i]));
        std::printf("  wall time %.2f s (%.0f cycles/s)\n", wall, wall > 0 ? static_cast<double>(done) / wall : 0.0);
    }
    // Every counter must have moved once every policy has run (each with all four rights).
    const bool all_policies = cov[kPolicyOff] > 0 && cov[kPolicyReorder] > 0 && cov[kPolicyCommandQueue] > 0;
    bool holes = false;
    if (all_policies) {
        for (std::size_t i = 0; i < kCovCount; ++i) {
            if (cov[i] == 0) {
                std::printf("fcal-rtl-bench: coverage hole: '%s' never happened\n", kCovNames[i]);
                holes = true;
            }
        }
    }
    std::printf("fcal-rtl-bench: seed %llu, depths %zu/%zu, %llu cycles, 0 mismatches%s: %s\n", static_cast<unsigned long long>(seed),
                cosim::kRtlFrameDepth, cosim::kRtlCommandDepth, static_cast<unsigned long long>(done), holes ? ", coverage holes" : "",
                holes ? "FAIL" : "PASS");
    return holes ? 1 : 0;
}
