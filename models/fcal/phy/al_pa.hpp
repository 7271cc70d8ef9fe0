#pragma once
// Arbitrated loop physical addresses (AL_PA) (docs/model.md, "The physical layer: AL_PAs").
// An AL_PA is one of the 127 data characters whose 8b/10b code has neutral running disparity,
// except F0, F7, F8, FB, FD, FE, FF (which are used in ordered sets). 0x00 belongs to an FL_Port.
// A lower AL_PA has higher arbitration priority.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fcal::phy {

using AlPa = std::uint8_t;

constexpr std::size_t kValidAlPaCount = 127;
constexpr AlPa kFlPortAlPa = 0x00;
constexpr AlPa kArbFairnessFill = 0xF0;  // ARB(F0)
constexpr AlPa kArbFF = 0xFF;            // ARBff

class InvalidAlPa : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// All 127 valid AL_PAs, highest priority (lowest value) first.
const std::array<AlPa, kValidAlPaCount>& valid_al_pas();

bool is_valid_al_pa(unsigned value);

// Throws InvalidAlPa naming `what` (e.g. "port 3") when `value` is not a valid AL_PA.
AlPa require_valid_al_pa(unsigned value, const std::string& what);

// True when `a` wins arbitration over `b` (lower value, higher priority).
constexpr bool higher_priority(AlPa a, AlPa b) { return a < b; }

// Standard loop_ID order: loop_ID 0 is 0xEF (lowest priority) ... loop_ID 125 is 0x01,
// loop_ID 126 is 0x00 (the FL_Port's).
AlPa al_pa_of_loop_id(unsigned loop_id);
unsigned loop_id_of_al_pa(AlPa al_pa);

std::string al_pa_hex(AlPa al_pa);  // "0xE8"

}  // namespace fcal::phy
