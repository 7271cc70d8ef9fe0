#pragma once
// The port bypass circuits of an enclosure (docs/loop_init.md, "Port bypass circuits"): which slots'
// ports are part of the loop, given the LPB/LPE sequences the controller sends, failures and hot
// plug. SystemC-free and untimed: a failed or pulled port breaks the loop until the enclosure
// notices and closes its bypass, which the caller reports with bypass_detected() after
// loop.bypass_detect_us.
#include <cstddef>
#include <optional>
#include <vector>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

class PortBypassCircuits {
public:
    enum class State : std::uint8_t {
        Inserted,      // the port is part of the loop
        Bypassed,      // by LPB: out of the loop, still listening (LPE brings it back)
        Broken,        // failed or pulled while inserted: the loop is open here until the bypass closes
        AutoBypassed,  // failed, bypass closed by the enclosure
        Empty,         // no port, bypass closed
    };

    // `slots` populated slots, every port inserted.
    explicit PortBypassCircuits(std::size_t slots);

    // The AL_PA the port in `slot` acquired (loop initialization), so that LPB(y,x) and LPE(y,x)
    // find it; none for a non-participating port.
    void set_al_pa(std::size_t slot, std::optional<phy::AlPa> al_pa);

    // Every circuit sees the sequence: LPB(y,x) bypasses the inserted port y, LPB(FF,x) every
    // inserted port but x's, LPE(y,x) re-enables port y if LPB bypassed it, LPE(FF,x) every port LPB
    // bypassed. Returns the slots that changed. std::invalid_argument for any other ordered set.
    std::vector<std::size_t> apply(const phy::OrderedSet& lpb_or_lpe);

    // The port stops transmitting (failure). An inserted port breaks the loop; a bypassed one does not.
    void fail(std::size_t slot);
    // The port is pulled out.
    void remove(std::size_t slot);
    // The enclosure noticed the failure or removal and closed the slot's bypass.
    void bypass_detected(std::size_t slot);
    // A port is put into an empty slot and signals valid: the enclosure inserts it (it will then
    // send LIP(F7,F7)). std::logic_error unless the slot is empty.
    void insert(std::size_t slot);

    State state(std::size_t slot) const;
    bool in_loop(std::size_t slot) const { return state(slot) == State::Inserted; }
    // The AL_PA LPB and LPE address the slot's port by (set_al_pa).
    std::optional<phy::AlPa> al_pa(std::size_t slot) const { return at(slot).al_pa; }
    // A port is in the slot (Broken: a failed port, not yet pulled out).
    bool present(std::size_t slot) const { return at(slot).present; }
    // A failed or pulled port not yet bypassed: nothing gets round the loop.
    bool loop_broken() const;
    // Slots whose ports form the loop, in ring order.
    std::vector<std::size_t> loop_slots() const;
    std::size_t slots() const { return slots_.size(); }

private:
    struct Slot {
        State state = State::Inserted;
        bool present = true;  // Broken: a failed port (true) or an empty slot (false)
        std::optional<phy::AlPa> al_pa;
    };
    Slot& at(std::size_t slot);
    const Slot& at(std::size_t slot) const;

    std::vector<Slot> slots_;
};

const char* name(PortBypassCircuits::State s);  // "inserted", "bypassed", ...

}  // namespace fcal::loop
