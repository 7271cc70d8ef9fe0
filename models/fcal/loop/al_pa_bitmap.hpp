#pragma once
// The 16-byte AL_PA bitmap that LIFA, LIPA, LIHA and LISA carry around the loop (docs/loop_init.md,
// "The AL_PA bitmap"). SystemC-free.
//
// 128 bit positions, transmitted first to last: position 0 is the L_bit (login required), positions 1
// to 127 are the 127 valid AL_PAs in priority order (00 at 1, 01 at 2, 02 at 3, 04 at 4, ... EF at
// 127). Position p is bit 7 - p % 8 of byte p / 8, so the L_bit is the most significant bit of the
// first byte and EF the least significant bit of the last.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "fcal/phy/al_pa.hpp"

namespace fcal::loop {

class AlPaBitmap {
public:
    static constexpr std::size_t kBytes = 16;
    static constexpr unsigned kPositions = 128;
    using Bytes = std::array<std::uint8_t, kBytes>;

    AlPaBitmap() = default;
    explicit AlPaBitmap(const Bytes& bytes) : bytes_(bytes) {}

    // Position of an AL_PA (1..127); throws phy::InvalidAlPa for an address that is no valid AL_PA.
    static unsigned position_of(phy::AlPa al_pa);
    // The AL_PA at position 1..127; throws std::out_of_range otherwise (0 is the L_bit).
    static phy::AlPa al_pa_at(unsigned position);

    const Bytes& bytes() const { return bytes_; }

    bool l_bit() const { return test(0); }
    void set_l_bit(bool on);

    bool contains(phy::AlPa al_pa) const { return test(position_of(al_pa)); }
    // Sets the AL_PA's bit unless another port set it already; true when this call set it.
    bool claim(phy::AlPa al_pa);
    // Soft assignment (LISA): sets and returns the first clear bit in priority order, skipping 00,
    // which only an FL_Port may hold; nothing when every other bit is set.
    std::optional<phy::AlPa> claim_first_free();

    // The AL_PAs whose bits are set, in priority order.
    std::vector<phy::AlPa> al_pas() const;
    std::size_t count() const;

    friend bool operator==(const AlPaBitmap& a, const AlPaBitmap& b) { return a.bytes_ == b.bytes_; }
    friend bool operator!=(const AlPaBitmap& a, const AlPaBitmap& b) { return !(a == b); }

private:
    bool test(unsigned position) const;
    void set(unsigned position, bool on);

    Bytes bytes_{};
};

}  // namespace fcal::loop
