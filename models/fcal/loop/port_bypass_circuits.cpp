#include "fcal/loop/port_bypass_circuits.hpp"

#include <stdexcept>
#include <string>

namespace fcal::loop {

using Kind = phy::OrderedSetKind;

const char* name(PortBypassCircuits::State s)
{
    switch (s) {
    case PortBypassCircuits::State::Inserted: return "inserted";
    case PortBypassCircuits::State::Bypassed: return "bypassed";
    case PortBypassCircuits::State::Broken: return "broken";
    case PortBypassCircuits::State::AutoBypassed: return "auto-bypassed";
    case PortBypassCircuits::State::Empty: return "empty";
    }
    throw std::logic_error("unknown bypass state");
}

PortBypassCircuits::PortBypassCircuits(std::size_t slots) : slots_(slots) {}

PortBypassCircuits::Slot& PortBypassCircuits::at(std::size_t slot)
{
    if (slot >= slots_.size())
        throw std::out_of_range("port bypass: slot " + std::to_string(slot) + " of " + std::to_string(slots_.size()));
    return slots_[slot];
}

const PortBypassCircuits::Slot& PortBypassCircuits::at(std::size_t slot) const
{
    return const_cast<PortBypassCircuits*>(this)->at(slot);
}

void PortBypassCircuits::set_al_pa(std::size_t slot, std::optional<phy::AlPa> al_pa)
{
    if (al_pa) phy::require_valid_al_pa(*al_pa, "port bypass: slot " + std::to_string(slot));
    at(slot).al_pa = al_pa;
}

std::vector<std::size_t> PortBypassCircuits::apply(const phy::OrderedSet& set)
{
    if (!set.is_port_bypass()) throw std::invalid_argument("port bypass: " + set.name() + " is neither LPB nor LPE");
    const bool all = set.kind() == Kind::LpbFx || set.kind() == Kind::LpeFx;
    const bool bypass = set.kind() == Kind::LpbYx || set.kind() == Kind::LpbFx;
    std::vector<std::size_t> changed;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
        Slot& s = slots_[i];
        const bool addressed = all ? !(bypass && s.al_pa == set.x()) : s.al_pa == set.y();
        if (!addressed) continue;
        if (bypass && s.state == State::Inserted) {
            s.state = State::Bypassed;
            changed.push_back(i);
        } else if (!bypass && s.state == State::Bypassed) {
            s.state = State::Inserted;
            changed.push_back(i);
        }
    }
    return changed;
}

void PortBypassCircuits::fail(std::size_t slot)
{
    Slot& s = at(slot);
    if (s.state == State::Inserted) s.state = State::Broken;
    else if (s.state == State::Bypassed) s.state = State::AutoBypassed;
}

void PortBypassCircuits::remove(std::size_t slot)
{
    Slot& s = at(slot);
    if (s.state == State::Inserted || (s.state == State::Broken && s.present)) {
        s.state = State::Broken;
    } else if (s.state != State::Broken) {
        s.state = State::Empty;  // its bypass was closed already
    }
    s.present = false;
    s.al_pa.reset();
}

void PortBypassCircuits::bypass_detected(std::size_t slot)
{
    Slot& s = at(slot);
    if (s.state == State::Broken) s.state = s.present ? State::AutoBypassed : State::Empty;
}

void PortBypassCircuits::insert(std::size_t slot)
{
    Slot& s = at(slot);
    if (s.state != State::Empty) throw std::logic_error("port bypass: slot " + std::to_string(slot) + " is not empty");
    s = Slot{};
}

PortBypassCircuits::State PortBypassCircuits::state(std::size_t slot) const { return at(slot).state; }

bool PortBypassCircuits::loop_broken() const
{
    for (const auto& s : slots_)
        if (s.state == State::Broken) return true;
    return false;
}

std::vector<std::size_t> PortBypassCircuits::loop_slots() const
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < slots_.size(); ++i)
        if (slots_[i].state == State::Inserted) out.push_back(i);
    return out;
}

}  // namespace fcal::loop
