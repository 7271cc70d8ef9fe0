#include "fcal/phy/al_pa.hpp"

#include <algorithm>
#include <cstdio>

namespace fcal::phy {
namespace {

// A data character Dx.y (x = low 5 bits, y = high 3 bits) has neutral disparity when its 10-bit
// code leaves the running disparity unchanged: either both sub-blocks are balanced, or both are
// unbalanced (the 6b block flips RD and the 4b block flips it back). Unbalanced sub-blocks of the
// standard 5b/6b and 3b/4b tables:
bool six_bit_unbalanced(unsigned x)
{
    static constexpr unsigned unbalanced[] = {0, 1, 2, 4, 8, 15, 16, 23, 24, 27, 29, 30, 31};
    return std::find(std::begin(unbalanced), std::end(unbalanced), x) != std::end(unbalanced);
}

bool four_bit_unbalanced(unsigned y) { return y == 0 || y == 4 || y == 7; }

std::array<AlPa, kValidAlPaCount> build_valid()
{
    std::array<AlPa, kValidAlPaCount> out{};
    std::size_t n = 0;
    // Above 0xEF the neutral characters F0, F7, F8, FB, FD, FE, FF are reserved for ordered sets.
    for (unsigned v = 0; v <= 0xEF; ++v) {
        if (six_bit_unbalanced(v & 0x1F) == four_bit_unbalanced(v >> 5)) {
            if (n < out.size()) out[n] = static_cast<AlPa>(v);
            ++n;
        }
    }
    if (n != kValidAlPaCount) throw std::logic_error("AL_PA table: expected 127 neutral characters");
    return out;
}

}  // namespace

const std::array<AlPa, kValidAlPaCount>& valid_al_pas()
{
    static const auto table = build_valid();
    return table;
}

bool is_valid_al_pa(unsigned value)
{
    // By value, not by search: the loop asks for every ordered set that names a port.
    static const std::array<bool, 256> valid = [] {
        std::array<bool, 256> v{};
        for (AlPa a : valid_al_pas()) v[a] = true;
        return v;
    }();
    return value <= 0xFF && valid[value];
}

AlPa require_valid_al_pa(unsigned value, const std::string& what)
{
    if (!is_valid_al_pa(value)) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0x%02X", value);
        throw InvalidAlPa(what + ": " + buf + " is not a valid AL_PA (must be one of the 127 neutral-disparity values 0x00..0xEF)");
    }
    return static_cast<AlPa>(value);
}

AlPa al_pa_of_loop_id(unsigned loop_id)
{
    if (loop_id >= kValidAlPaCount) throw std::out_of_range("loop_ID must be 0..126");
    return valid_al_pas()[kValidAlPaCount - 1 - loop_id];
}

unsigned loop_id_of_al_pa(AlPa al_pa)
{
    const auto& t = valid_al_pas();
    auto it = std::lower_bound(t.begin(), t.end(), al_pa);
    if (it == t.end() || *it != al_pa) throw InvalidAlPa(al_pa_hex(al_pa) + " is not a valid AL_PA");
    return static_cast<unsigned>(kValidAlPaCount - 1 - static_cast<std::size_t>(it - t.begin()));
}

std::string al_pa_hex(AlPa al_pa)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", al_pa);
    return buf;
}

}  // namespace fcal::phy
