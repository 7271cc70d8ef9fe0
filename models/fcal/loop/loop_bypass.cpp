// Port bypass circuits and hot plug in the running loop (docs/loop_init.md, "Port bypass
// circuits"): Loop's part. The enclosure's circuits (PortBypassCircuits) say which slots take part;
// the ring is rewired at once when a slot opens or closes, with every port awake, so that a port out
// of the loop is out of the chain of ports a change visits and costs no event: a broken loop is a
// state (the port downstream of the open slot sends LIP(F8) as one change, the others repeat it into
// the open slot), not a stream of words.
#include "fcal/loop/loop.hpp"

#include <stdexcept>

#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

using State = PortBypassCircuits::State;
using sc_core::sc_time;
using sc_core::sc_time_stamp;

namespace {

std::string slot_text(std::size_t i, const PortBypassCircuits& slots)
{
    return "slot " + std::to_string(i) + " is " + name(slots.state(i));
}

}  // namespace

void Loop::check_slot(std::size_t i, const char* what) const
{
    if (i >= ports_.size()) throw std::out_of_range(std::string("Loop::") + what + ": no port " + std::to_string(i));
    if (i == 0) throw std::logic_error(std::string("Loop::") + what + ": port 0 is the controller's, in no enclosure slot");
}

// The next slot downstream (or upstream) of slot i whose port takes part, or that is open (broken):
// bypassed and empty slots are passed through.
std::size_t Loop::neighbour(std::size_t i, bool downstream) const
{
    const std::size_t n = ports_.size();
    for (std::size_t k = 1; k <= n; ++k) {
        const std::size_t j = downstream ? (i + k) % n : (i + n - k) % n;
        const State s = slots_.state(j);
        if (s == State::Inserted || s == State::Broken) return j;
    }
    return i;
}

// Port `from` (in the loop) transmits to the next port in the loop, through the bypassed slots on
// the way: their cables stay, their ports' repeat delay does not (docs/loop_init.md, "Port bypass
// circuits"). Nowhere if an open slot comes first.
void Loop::reconnect(std::size_t from)
{
    const sc_time now = sc_time_stamp();
    LPort& u = *ports_[from];
    u.cut_output(now);
    const std::size_t to = neighbour(from, true);
    if (slots_.state(to) == State::Broken || (from == 0 && cable_cut_)) return;
    const std::size_t n = ports_.size();
    sc_time hop = sc_core::SC_ZERO_TIME;
    std::size_t k = from;
    do {
        hop += hops_[k];
        k = (k + 1) % n;
        if (k != to) hop -= repeat_;  // a bypassed slot
    } while (k != to);
    u.splice_to(*ports_[to], hop, now);
}

// Port d's receiver loses the signal: if it takes part, it sends LIP(F8,x), x its AL_PA.
void Loop::lose_signal(std::size_t d)
{
    if (!slots_.in_loop(d)) return;
    LPort& p = *ports_[d];
    p.lose_signal(phy::OrderedSet::lip_failure(p.init_procedure().al_pa().value_or(p.al_pa())));
}

// Port i, in the loop until now, stops: the loop opens at its slot. The port downstream loses the
// signal and sends LIP(F8,x) (x its AL_PA); everyone else recognises it and repeats it in OPEN-INIT,
// the port upstream into the open slot. `detect`: the enclosure closes the bypass
// loop.bypass_detect_us later.
void Loop::take_out(std::size_t i, const std::string& cause, bool detect)
{
    const sc_time now = sc_time_stamp();
    open_record(cause);
    wake_all();
    cut_at(i);
    update_loop_open();
    if (const std::size_t d = neighbour(i, true); d != i) lose_signal(d);
    ports_[i]->leave_ring(now);
    const std::size_t u = neighbour(i, false);
    if (u != i && slots_.in_loop(u)) reconnect(u);
    if (detect) bypass_timers_.start(sc_time(bypass_detect_s_, sc_core::SC_SEC), {i, false});
}

// Slot i's port takes part again: its upstream neighbour transmits to it, it to its downstream one.
void Loop::put_back(std::size_t i)
{
    wake_all();
    const std::size_t u = neighbour(i, false);
    if (u != i && slots_.in_loop(u)) reconnect(u);
    reconnect(i);
}

// The enclosure noticed that the port of `slot` stopped sending: it closes the bypass, and the
// LIP(F8) the port downstream sends comes back round to it.
void Loop::bypass_closes(std::size_t& slot)
{
    if (slots_.state(slot) != State::Broken) return;
    slots_.bypass_detected(slot);
    update_loop_open();
    wake_all();
    const std::size_t u = neighbour(slot, false);
    if (u != slot && slots_.in_loop(u)) reconnect(u);
}

// The loop opens at port c's output, every port awake: each port's LIPs that had not got past it are
// lost (LPort::loop_cut_at).
void Loop::cut_at(std::size_t c)
{
    const sc_time now = sc_time_stamp();
    for (auto& p : ports_) p->loop_cut_at(*ports_[c], now);
}

// Nothing gets round: E_D_TOV waits (docs/loop_init.md, "Port bypass circuits").
// Once the loop is whole again, E_D_TOV bounds every wait in OPEN-INIT (a port that makes no
// progress would otherwise not start it).
void Loop::update_loop_open()
{
    const bool was_open = activity_.loop_open();
    activity_.set_loop_open(slots_.loop_broken() || cable_cut_);
    if (was_open && !activity_.loop_open())
        for (auto& p : ports_) p->loop_closed();
}

void Loop::cut_cable(const std::string& cause)
{
    if (cable_cut_) throw std::logic_error("Loop::cut_cable: the cable is cut already");
    cable_cut_ = true;
    open_record(cause);
    wake_all();
    cut_at(0);
    update_loop_open();
    if (const std::size_t d = neighbour(0, true); d != 0) lose_signal(d);
    reconnect(0);  // to nobody
}

void Loop::mend_cable()
{
    if (!cable_cut_) throw std::logic_error("Loop::mend_cable: the cable is whole");
    cable_cut_ = false;
    update_loop_open();
    wake_all();
    reconnect(0);
}

void Loop::remove_port(std::size_t i, const std::string& cause)
{
    check_slot(i, "remove_port");
    const State s = slots_.state(i);
    if (s == State::Empty || (s == State::Broken && !slots_.present(i)))
        throw std::logic_error("Loop::remove_port: " + slot_text(i, slots_) + ": no port to pull out");
    slots_.remove(i);
    drop_waiting_lpb(i);  // (the test benches' calls: scheduled events cannot pull a bypassed disk)
    if (s == State::Inserted) {
        take_out(i, cause, true);
    } else if (s == State::Broken && !auto_bypass_) {
        // A failed port the enclosure left in the loop: once the slot is empty its bypass closes.
        bypass_timers_.start(sc_time(bypass_detect_s_, sc_core::SC_SEC), {i, false});
    }
}

void Loop::fail_port(std::size_t i, const std::string& cause)
{
    check_slot(i, "fail_port");
    const State s = slots_.state(i);
    if (s != State::Inserted && s != State::Bypassed)
        throw std::logic_error("Loop::fail_port: " + slot_text(i, slots_) + ": no working port in it");
    slots_.fail(i);
    drop_waiting_lpb(i);
    if (s == State::Inserted) take_out(i, cause, auto_bypass_);
}

void Loop::insert_port(std::size_t i, const std::string& cause)
{
    check_slot(i, "insert_port");
    if (slots_.state(i) != State::Empty) throw std::logic_error("Loop::insert_port: " + slot_text(i, slots_) + ", not empty");
    slots_.insert(i);
    open_record(cause);
    // It initializes first, so that what the new links carry stops at it.
    ports_[i]->initialize(phy::OrderedSet::lip_initializing(std::nullopt));
    put_back(i);
}

// LPB(y,x) (`bypass`) or LPE(y,x) from the controller (x) for port i (y), whose slot must be in
// state `needed`.
phy::OrderedSet Loop::controller_sequence(std::size_t i, bool bypass, const char* what) const
{
    check_slot(i, what);
    const State needed = bypass ? State::Inserted : State::Bypassed;
    if (slots_.state(i) != needed)
        throw std::logic_error(std::string("Loop::") + what + ": " + slot_text(i, slots_) + ", not " + loop::name(needed));
    const auto y = slots_.al_pa(i);
    const auto x = slots_.al_pa(0);
    if (!y || !x) throw std::logic_error(std::string("Loop::") + what + ": port " + std::to_string(i) + " or the controller has no AL_PA");
    return bypass ? phy::OrderedSet::lpb(*y, *x) : phy::OrderedSet::lpe(*y, *x);
}

// A waiting LPB that will not be sent: its deadline too, if it has one (a later LPB to the slot
// must not be sent by it).
void Loop::drop_waiting_lpb(std::size_t i)
{
    const auto w = lpb_waiting_.find(i);
    if (w == lpb_waiting_.end()) return;
    bypass_timers_.cancel(w->second.sent);
    lpb_waiting_.erase(w);
}

void Loop::slot_deadline(SlotDeadline& d)
{
    if (!d.lpb) {
        bypass_closes(d.slot);
        return;
    }
    const auto w = lpb_waiting_.find(d.slot);
    if (w == lpb_waiting_.end()) return;
    const std::string cause = w->second.cause;
    lpb_waiting_.erase(w);
    send_lpb(d.slot, cause);
}

// An initialization completed: the waiting LPBs whose ports now have an AL_PA are sent, each in a
// delta cycle of its own (not from inside the port's state change that ended the initialization).
// A port the initialization left without one (non-participating) stays addressable by none.
void Loop::send_waiting_lpbs()
{
    for (auto& [slot, w] : lpb_waiting_)
        if (slots_.al_pa(slot) && !bypass_timers_.is_running(w.sent))
            w.sent = bypass_timers_.start(sc_core::SC_ZERO_TIME, {slot, true});
}

// LPB and LPE act on the circuits at once (docs/loop_init.md, "Simplifications"), and the controller
// then initializes the loop (LIP(F7,x)); its LIP is started first, so that what the new links carry
// stops at it. The controller addresses LPB(y,x) by the port's AL_PA: to a port that has none yet (put
// into its slot, its initialization not complete) it is sent once the initialization gives it one.
void Loop::bypass_port(std::size_t i, const std::string& cause)
{
    check_slot(i, "bypass_port");
    if (lpb_waiting(i)) throw std::logic_error("Loop::bypass_port: slot " + std::to_string(i) + " has an LPB waiting already");
    if (slots_.state(i) == State::Inserted && !slots_.al_pa(i)) {
        lpb_waiting_[i] = WaitingLpb{cause, {}};
        return;
    }
    send_lpb(i, cause);
}

void Loop::send_lpb(std::size_t i, const std::string& cause)
{
    const phy::OrderedSet lpb = controller_sequence(i, true, "bypass_port");
    const sc_time now = sc_time_stamp();
    start_lip(0, cause);
    for (std::size_t c : slots_.apply(lpb)) {
        ports_[c]->leave_ring(now);
        const std::size_t u = neighbour(c, false);
        if (u != c && slots_.in_loop(u)) reconnect(u);
    }
}

void Loop::enable_port(std::size_t i, const std::string& cause)
{
    check_slot(i, "enable_port");
    if (lpb_waiting(i)) {
        // The LPB was never sent: the port is still in the loop, and nothing changes on it.
        drop_waiting_lpb(i);
        return;
    }
    const phy::OrderedSet lpe = controller_sequence(i, false, "enable_port");
    start_lip(0, cause);
    for (std::size_t c : slots_.apply(lpe)) put_back(c);
}

}  // namespace fcal::loop
