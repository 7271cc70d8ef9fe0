#pragma once
// The loop topology: L_Ports in a unidirectional ring, joined by cables. Ports that only repeat
// (passive nodes) are not simulated one by one: a repeater adds a fixed delay and never changes
// what it forwards, so a chain of them is folded into the hop delay between two active ports. The
// cost of a simulation is therefore independent of the number of passive ports.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/kernel/timers.hpp"
#include "fcal/loop/lport.hpp"
#include "fcal/loop/port_bypass_circuits.hpp"
#include "fcal/loop/port_config.hpp"
#include "fcal/phy/link_timing.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

// A configuration mistake by the user, the project's one ConfigError: the loop throws it for a bad
// topology, the simulator's parameter table (sim) for a bad key or value. what() is always a single
// line naming the key, node or file; the CLI prints it and exits with code 2.
class ConfigError : public std::runtime_error {
public:
    explicit ConfigError(const std::string& message);
};

struct LoopNode {
    bool passive = false;            // only repeats; needs no PortConfig
    PortConfig port;                 // port.al_pa used unless loop_id is given
    std::optional<unsigned> loop_id; // take the AL_PA of this loop_ID (standard order)
};

// One loop initialization as the running loop did it (docs/loop_init.md, "Initialization in the
// running loop"): from the first LIP to the last port back in MONITORING.
struct LoopInitRecord {
    struct Address {
        std::string port;
        std::optional<phy::AlPa> al_pa;  // none: non-participating
        AddressSource how = AddressSource::None;
    };
    std::string cause;
    double start_s = 0;
    double duration_s = 0;
    std::optional<phy::AlPa> master_al_pa;
    unsigned lip_count = 0;  // ports that started sending LIP (Loop::start_lip, E_D_TOV)
    std::vector<Address> al_pas;  // in ring order
};

struct LoopConfig {
    phy::LineRate rate = phy::LineRate::G2;
    double baud = 0.0;  // > 0: overrides the rate's baud (loop.baud_gbps)
    double propagation_ns_per_m = 5.0;
    unsigned port_delay_words = 6;
    // Cable from node i to node i+1 (the last one closes the ring). One value means every hop.
    std::vector<double> hop_m{2.0};
    std::vector<LoopNode> nodes;
    // Faults (docs/faults.md, "Faults and recovery", "Bit errors on the loop"): bit error rate of every link (0:
    // none), the seed of its random streams, and AL_TIME, which bounds a circuit's wait for its peer.
    double ber = 0.0;
    std::uint64_t error_seed = 0;
    double al_time_s = 15e-3;
    // Loop initialization (docs/loop_init.md, "Initialization in the running loop"): every port's
    // processing of one LI frame (loop.init_frame_proc_us; the system builder copies it into each
    // port's PortConfig), and whether the loop initializes at t=0 (loop.initialize_at_start; the
    // system builder starts it).
    double init_frame_processing_s = kDefaultInitFrameProcessingS;
    bool initialize_at_start = false;
    // The enclosure's port bypass circuits (docs/loop_init.md, "Port bypass circuits"): how long
    // after a port stops sending the enclosure closes its slot's bypass (loop.bypass_detect_us;
    // default FC-FS's R_T_TOV, 100 ms), and whether it does so for a failed port that is still in its
    // slot (loop.auto_bypass; an empty slot is always bypassed).
    double bypass_detect_s = kDefaultBypassDetectS;
    bool auto_bypass = true;
};

class Loop : public sc_core::sc_module, public LoopDirectory, private InitObserver {
public:
    // Throws ConfigError naming the offending node or parameter.
    Loop(sc_core::sc_module_name name, const LoopConfig& config);

    const phy::LinkTiming& timing() const { return timing_; }
    std::size_t port_count() const { return ports_.size(); }  // active ports only
    LPort& port(std::size_t i) { return *ports_.at(i); }
    LPort* find(phy::AlPa al_pa);
    // nodes x port delay + all cables.
    sc_core::sc_time round_trip() const { return round_trip_; }
    // Process activations of all its ports since the start (the benchmarks' activations per frame).
    std::uint64_t activations() const { return activity_.activations(); }
    // Over its ports, whole run: frames_discarded and code_violations (docs/faults.md, "Bit errors on
    // the loop"), and the kernel block (port_activations, frames_sent: how the run was computed).
    // The run is over: every port takes note of the changes it passed on that have reached it, so
    // that what it counts does not depend on whether it took them on the fast path (docs/loop.md,
    // "Fast path").
    void settle_ports();
    void report(nlohmann::json& j) const;
    // The livelock guard: a port run more than this many times in one simulated instant ends the
    // simulation with an internal error instead of hanging (docs/loop.md, "The livelock guard").
    // Tests lower it.
    void set_same_instant_limit(std::uint64_t limit) { activity_.set_same_instant_limit(limit); }
    // Loop initialization (docs/loop_init.md, "Initialization in the running loop"): port `i` starts
    // sending LIP now (`cause` for the results); every folded port rejoins the chain first.
    void start_lip(std::size_t i, const std::string& cause);
    // Some port is in INITIALIZING or OPEN-INIT.
    bool initializing() const { return activity_.initializing(); }
    // Told (once, in the instant) when an initialization ends: every port is back in MONITORING.
    void on_initialized(std::function<void()> callback) { on_initialized_ = std::move(callback); }
    const std::vector<LoopInitRecord>& initializations() const { return inits_; }
    // loop_initializations, loop_init and loop_down_us (docs/faults.md, "Scheduled events").
    void report_initializations(nlohmann::json& j) const;
    unsigned login_bb_credit(phy::AlPa port) const override;
    bool on_loop(phy::AlPa port) const override;
    unsigned links(phy::AlPa from, phy::AlPa to) const override;

    // Port bypass circuits and hot plug in the running loop (docs/loop_init.md, "Port bypass
    // circuits"; loop_bypass.cpp). `i` is the ring index of a port, its enclosure slot; port 0 is
    // the controller's, in no slot. `cause` names the initialization in the results. Each throws
    // std::logic_error when the slot's state does not allow it.
    // Pulled out: the loop is open at its slot until the enclosure closes the bypass.
    void remove_port(std::size_t i, const std::string& cause);
    // Its transmitter stops (invalid words, dead receiver): the same break; the bypass closes only
    // with loop.auto_bypass.
    void fail_port(std::size_t i, const std::string& cause);
    // Put back into its empty slot: it is inserted, sends LIP(F7,F7), the loop initializes with it.
    void insert_port(std::size_t i, const std::string& cause);
    // The controller bypasses port i (LPB(y,x)) or enables it again (LPE(y,x)); the loop
    // initializes after either. An inserted port with no AL_PA yet (its initialization is under
    // way) cannot be addressed: its LPB waits until the initialization that gives it one completes
    // (lpb_waiting(i)), and an LPE before then only cancels it (the port never left).
    void bypass_port(std::size_t i, const std::string& cause);
    void enable_port(std::size_t i, const std::string& cause);
    bool lpb_waiting(std::size_t i) const { return lpb_waiting_.count(i) != 0; }
    PortBypassCircuits::State slot_state(std::size_t i) const { return slots_.state(i); }
    // Loop failure (docs/faults.md, "Loop failure"): the cable out of the controller's port is cut.
    // The port after it loses the signal and sends LIP(F8,x), the others repeat it, and nothing gets
    // round until the cable is mended; then the LIP(F8)s come back and the loop initializes.
    // std::logic_error for a cut of a cut loop or a mend of a whole one.
    void cut_cable(const std::string& cause);
    void mend_cable();

private:
    phy::LinkTiming timing_;
    LoopActivity activity_;  // before the ports, which use it
    std::vector<std::unique_ptr<LPort>> ports_;
    sc_core::sc_time round_trip_;
    std::size_t node_count_ = 0;
    std::map<phy::AlPa, std::size_t> node_of_;  // ring position of each port
    void init_state_changed(LPort& port, LpsmState from, LpsmState to) override;
    std::vector<LoopInitRecord> inits_;
    std::function<void()> on_initialized_;

    // Port bypass circuits (loop_bypass.cpp).
    void open_record(const std::string& cause);
    void wake_all();
    void check_slot(std::size_t i, const char* what) const;
    std::size_t neighbour(std::size_t i, bool downstream) const;
    void reconnect(std::size_t from);
    void take_out(std::size_t i, const std::string& cause, bool detect);
    void put_back(std::size_t i);
    void bypass_closes(std::size_t& slot);
    void update_loop_open();
    void cut_at(std::size_t c);
    void lose_signal(std::size_t d);
    phy::OrderedSet controller_sequence(std::size_t i, bool bypass, const char* what) const;
    void send_lpb(std::size_t i, const std::string& cause);
    void send_waiting_lpbs();
    void drop_waiting_lpb(std::size_t i);
    // A deadline of the enclosure's timer: the bypass of a slot closes, or a waiting LPB is sent.
    struct SlotDeadline {
        std::size_t slot = 0;
        bool lpb = false;
    };
    void slot_deadline(SlotDeadline& d);
    struct WaitingLpb {
        std::string cause;
        kernel::TimerHandle sent;  // once the port has its AL_PA: the deadline that sends it
    };
    std::map<std::size_t, WaitingLpb> lpb_waiting_;  // by slot: LPBs to ports with no AL_PA yet
    std::vector<sc_core::sc_time> hops_;  // from port k to port k + 1 as built (cables, passive nodes)
    sc_core::sc_time repeat_;             // a port's repeat delay, taken out of a spliced hop
    PortBypassCircuits slots_;
    double bypass_detect_s_ = kDefaultBypassDetectS;
    bool auto_bypass_ = true;
    kernel::Timers<SlotDeadline> bypass_timers_;  // slots waiting for the enclosure to notice, LPBs to send
    bool cable_cut_ = false;  // the cable out of port 0 (cut_cable)
};

}  // namespace fcal::loop
