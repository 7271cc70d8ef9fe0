#pragma once
// FC-0 line rates and transmission-word sizes (docs/model.md, "The physical layer: line rates and
// word time"). SystemC-free, like the codec: the
// durations built from them are in link_timing.hpp.
#include <cstdint>
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

// Whole words needed to carry `bytes` of payload (padded to a word boundary).
constexpr std::uint64_t words_for_bytes(std::uint64_t bytes) { return (bytes + kBytesPerWord - 1) / kBytesPerWord; }
// Frame on the wire: SOF + 6 header words + payload words + CRC + EOF.
constexpr std::uint64_t frame_words(std::uint64_t payload_bytes) { return 1 + 6 + words_for_bytes(payload_bytes) + 1 + 1; }

}  // namespace fcal::phy
