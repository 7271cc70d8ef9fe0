#pragma once
// The loop initialization procedure at one port (docs/loop_init.md, "The procedure at one port"):
// what the port does with each loop initialization frame it receives once it is in OPEN-INIT — master
// selection, its AL_PA claims in LIFA/LIPA/LIHA/LISA, the position map — what it transmits in answer,
// and when it is done. SystemC-free and untimed: the LPSM tells it what arrived and transmits what it
// answers when its own timing allows (each answer after the port's frame processing time).
//
// Events, in the order a successful initialization brings them:
//   enter_open_init(originator)  the port recognised LIP; an originator (it was INITIALIZING, sending
//                                LIPs of its own) answers with its LISM, after at least kLipsBeforeLism LIPs
//   frame_received(LISM)         lower name: forward it; higher: send our own LISM; our own: we are master,
//                                answer ARB(F0)
//   arb_f0_received()            master: LIFA; others: note it (the port repeats ARB(F0) as a fill word)
//   frame_received(LIFA..LILP)   others: claim and forward; master: the next frame, or CLS after the last
//   cls_received()               others: CLS (retransmit it) and done; master: done
// A wait that E_D_TOV ends (the master or a frame was lost) calls timed_out(): the port then goes
// INITIALIZING and sends initializing_lip().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fcal/loop/al_pa_bitmap.hpp"
#include "fcal/loop/loop_init_frame.hpp"
#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

// An originator transmits at least this many LIPs before its LISM.
constexpr unsigned kLipsBeforeLism = 12;

// NAA 3 ("locally assigned") port names, unique per ring position: the default of
// disk.<i>.port_name / initiator.port_name, which makes the controller (node 0) the loop master.
constexpr std::uint64_t default_port_name(unsigned node) { return (std::uint64_t{3} << 60) | node; }

struct LoopInitPortConfig {
    std::uint64_t port_name = 0;
    // Claimed in LIHA: a disk's slot address.
    std::optional<phy::AlPa> hard_al_pa;
    // Claimed in LIFA: an AL_PA a fabric assigned (none on a private loop).
    std::optional<phy::AlPa> fabric_al_pa;
    // Supports LIRP and LILP.
    bool position_map = true;
    // An FL_Port's LI frames carry D_ID/S_ID 000000 and win master selection; NL_Ports 0000EF.
    std::uint32_t init_address = kNlPortInitAddress;
};

enum class AddressSource : std::uint8_t { None, Fabric, Previous, Hard, Soft };
const char* name(AddressSource s);  // "none", "fabric", "previous", "hard", "soft"

class LoopInitProcedure {
public:
    // What the port transmits in answer.
    struct Output {
        enum class Kind : std::uint8_t {
            Nothing,  // nothing of its own (the frame is absorbed or discarded)
            Frame,    // this loop initialization frame
            ArbF0,    // the master: ARB(F0) as its fill word until ARB(F0) comes back
            Cls,
        };
        Kind kind = Kind::Nothing;
        LoopInitFrame frame;  // Frame only

        static Output nothing() { return {}; }
        static Output of(LoopInitFrame f) { return {Kind::Frame, std::move(f)}; }
        static Output arb_f0() { return {Kind::ArbF0, {}}; }
        static Output cls() { return {Kind::Cls, {}}; }
        bool is(Kind k) const { return kind == k; }
    };

    enum class Step : std::uint8_t {
        Idle,            // not in OPEN-INIT
        SelectingMaster,
        MasterAwaitsArbF0,
        AwaitsFrame,     // awaited() says which
        AwaitsCls,
        Done,
        TimedOut,
    };

    explicit LoopInitProcedure(LoopInitPortConfig config);

    // The port recognised LIP and entered OPEN-INIT; starts a new initialization (whatever the
    // previous one reached).
    Output enter_open_init(bool originator);
    Output frame_received(const LoopInitFrame& frame);
    Output arb_f0_received();
    Output cls_received();
    // Several originators send their LISMs at once, and a port may give an answer while the one before is
    // still to be sent: in master selection it sends one of them (the standard's ports queue both).
    // Of two LISMs the lower: the higher would be replaced by a lower one at the next port that has one,
    // and the lower of the two goes on. ARB(F0) over a LISM of its own: its own LISM back made it master,
    // and every port discards a LISM after ARB(F0). None for any other pair (outside master selection one
    // frame circulates at a time): the LPSM reports a protocol error.
    std::optional<Output> one_of(const Output& pending, const Output& next) const;
    // E_D_TOV ran out in a wait of OPEN-INIT: this initialization is abandoned.
    void timed_out();

    // LIP(F7,F7), or LIP(F7,x) with the AL_PA of the last completed initialization.
    phy::OrderedSet initializing_lip() const { return phy::OrderedSet::lip_initializing(previous_); }
    // LIP(F8,F7) / LIP(F8,x): this port's receiver lost the signal.
    phy::OrderedSet failure_lip() const { return phy::OrderedSet::lip_failure(previous_); }
    // LIP(y,x) with y this port's AL_PA, or LIP(FF,x) from another port: reset (a vendor-specific
    // action), then take part in the initialization as usual.
    bool reset_requested(const phy::OrderedSet& lip) const;

    Step step() const { return step_; }
    bool done() const { return step_ == Step::Done; }
    // The LI frame awaited in Step::AwaitsFrame (after LISA or LILP a non-master may also get CLS).
    std::optional<LiId> awaited() const;
    bool master() const { return master_; }
    // Once done: the AL_PA (none: non-participating) and how it was obtained.
    std::optional<phy::AlPa> al_pa() const { return done() ? claimed_ : std::nullopt; }
    AddressSource address_source() const { return done() ? source_ : AddressSource::None; }
    bool participating() const { return done() && claimed_.has_value(); }
    // LILP's map (AL_PAs in loop order from the master), once received; empty without LIRP/LILP.
    const std::vector<phy::AlPa>& position_map() const { return position_map_; }
    // Some port set the L_bit: logins with the other ports are implicitly ended.
    bool login_required() const { return l_bit_seen_; }

    // Claimed in LIPA: the AL_PA this port held before (set automatically when an initialization
    // completes; a port new to the loop has none).
    void set_previous_al_pa(std::optional<phy::AlPa> al_pa);
    std::optional<phy::AlPa> previous_al_pa() const { return previous_; }

    const LoopInitPortConfig& config() const { return cfg_; }
    // Frames the procedure dropped (out of sequence, malformed for this step, or absorbed LISMs by
    // the master), and why the last one was.
    std::uint64_t discarded() const { return discarded_; }
    const std::string& last_discard() const { return last_discard_; }

private:
    Output discard(const LoopInitFrame& frame, const std::string& why);
    LoopInitFrame own_lism() const { return LoopInitFrame::lism(cfg_.port_name, cfg_.init_address); }
    // This port's claim in a bitmap frame; returns the flags the frame leaves with.
    std::uint16_t claim(LiId id, AlPaBitmap& bitmap, std::uint16_t flags);
    Output master_next(const LoopInitFrame& returned);
    Output forward(const LoopInitFrame& frame);
    void finish();

    LoopInitPortConfig cfg_;
    std::optional<phy::AlPa> previous_;

    Step step_ = Step::Idle;
    bool master_ = false;
    LiId awaited_ = LiId::Lifa;
    bool cls_acceptable_ = false;  // non-master, after forwarding LISA or LILP
    std::optional<phy::AlPa> claimed_;
    AddressSource source_ = AddressSource::None;
    std::vector<phy::AlPa> position_map_;
    bool l_bit_seen_ = false;

    std::uint64_t discarded_ = 0;
    std::string last_discard_;
};

// "LISM port_name=...", "ARB(F0)", "CLS", "nothing": for diagnostics.
std::string describe(const LoopInitProcedure::Output& out);

}  // namespace fcal::loop
