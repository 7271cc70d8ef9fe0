#include "fcal/loop/al_pa_bitmap.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::loop {
namespace {

std::uint8_t mask_of(unsigned position) { return static_cast<std::uint8_t>(0x80u >> (position % 8)); }

}  // namespace

unsigned AlPaBitmap::position_of(phy::AlPa al_pa)
{
    const auto& valid = phy::valid_al_pas();
    const auto it = std::lower_bound(valid.begin(), valid.end(), al_pa);
    if (it == valid.end() || *it != al_pa)
        throw phy::InvalidAlPa("AL_PA bitmap: " + phy::al_pa_hex(al_pa) + " is not a valid AL_PA");
    return 1 + static_cast<unsigned>(it - valid.begin());
}

phy::AlPa AlPaBitmap::al_pa_at(unsigned position)
{
    if (position < 1 || position >= kPositions)
        throw std::out_of_range("AL_PA bitmap: position " + std::to_string(position) + " holds no AL_PA (1..127)");
    return phy::valid_al_pas()[position - 1];
}

bool AlPaBitmap::test(unsigned position) const { return (bytes_[position / 8] & mask_of(position)) != 0; }

void AlPaBitmap::set(unsigned position, bool on)
{
    auto& byte = bytes_[position / 8];
    byte = static_cast<std::uint8_t>(on ? byte | mask_of(position) : byte & ~mask_of(position));
}

void AlPaBitmap::set_l_bit(bool on) { set(0, on); }

bool AlPaBitmap::claim(phy::AlPa al_pa)
{
    const unsigned p = position_of(al_pa);
    if (test(p)) return false;
    set(p, true);
    return true;
}

std::optional<phy::AlPa> AlPaBitmap::claim_first_free()
{
    // Position 1 is 00, the FL_Port's.
    for (unsigned p = 2; p < kPositions; ++p)
        if (!test(p)) {
            set(p, true);
            return al_pa_at(p);
        }
    return std::nullopt;
}

std::vector<phy::AlPa> AlPaBitmap::al_pas() const
{
    std::vector<phy::AlPa> out;
    for (unsigned p = 1; p < kPositions; ++p)
        if (test(p)) out.push_back(al_pa_at(p));
    return out;
}

std::size_t AlPaBitmap::count() const { return al_pas().size(); }

}  // namespace fcal::loop
