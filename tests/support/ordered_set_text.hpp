#pragma once
// Ordered sets as text for the phy tests: the character names ("K28.5 D21.4 ...") and the 10-bit
// codes ("0011111010 ...") that the tests compare with values worked out by hand.
#include <array>
#include <cstdint>
#include <string>

#include "fcal/phy/ordered_set.hpp"

namespace fcal::test {

inline const fcal::phy::Disparity kBothDisparities[] = {fcal::phy::Disparity::Minus, fcal::phy::Disparity::Plus};

inline std::string names_of(const fcal::phy::TransmissionWord& w)
{
    std::string s;
    for (const auto& c : w) s += (s.empty() ? "" : " ") + c.name();
    return s;
}

inline std::string codes_of(const fcal::phy::EncodedWord& w)
{
    std::string s;
    for (auto code : w.codes) s += (s.empty() ? "" : " ") + fcal::phy::code_to_string(code);
    return s;
}

// K28.5 followed by three data characters.
inline fcal::phy::TransmissionWord word_of(std::uint8_t second, std::uint8_t third, std::uint8_t fourth)
{
    using fcal::phy::data_character;
    return {fcal::phy::kK28_5, data_character(second), data_character(third), data_character(fourth)};
}

}  // namespace fcal::test
