#pragma once
// FC-0 line rates and transmission-word sizes (docs/model.md, "The physical layer: line rates and
// word time"). SystemC-free, like the codec: the
// durations built from them are in link_timing.hpp.
#include <string>

namespace fcal::phy {

enum class LineRate { G1, G2, G4, G8 };

// Baud of each rate (1.0625e9 x 1, 2, 4, 8).
double baud(LineRate rate);
// "1GFC".."8GFC"; parse throws std::invalid_argument for anything else.
std::string to_string(LineRate rate);
LineRate parse_line_rate(const std::string& text);

constexpr unsigned kBitsPerWord = 40;  // 4 transmission characters of 10 bits
constexpr unsigned kBytesPerWord = 4;

}  // namespace fcal::phy
