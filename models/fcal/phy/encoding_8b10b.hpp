#pragma once
// The Widmer-Franaszek 8b/10b transmission code as Fibre Channel uses it (docs/model.md, "The
// physical layer: 8b/10b").
//
// A code is a 10-bit integer holding the bits `abcdei fghj` with `a` in bit 9 and `j` in bit 0, so
// printing the integer in binary, most significant bit first, gives the bits in transmission order.
// Running disparity (RD) is tracked per sub-block: the 6b block is chosen by the RD at the start of
// the character, the 4b block by the RD left after the 6b block.
#include <cstdint>
#include <string>

namespace fcal::phy {

enum class Disparity { Minus, Plus };

constexpr Disparity opposite(Disparity rd) { return rd == Disparity::Minus ? Disparity::Plus : Disparity::Minus; }
// '-' or '+', the form used by the standard's tables and by fcal-codec.
char disparity_symbol(Disparity rd);
// Accepts "-" or "+"; throws std::invalid_argument otherwise.
Disparity parse_disparity(const std::string& text);

// A transmission character before encoding: Dx.y or Kx.y, x = low 5 bits, y = high 3 bits.
struct Character {
    std::uint8_t byte = 0;
    bool is_k = false;

    unsigned x() const { return byte & 0x1Fu; }
    unsigned y() const { return byte >> 5; }
    std::string name() const;  // "D21.5", "K28.5"

    friend bool operator==(const Character& a, const Character& b) { return a.byte == b.byte && a.is_k == b.is_k; }
    friend bool operator!=(const Character& a, const Character& b) { return !(a == b); }
};

constexpr Character data_character(std::uint8_t byte) { return Character{byte, false}; }
// Builds Kx.y from x and y; does not check that it is one of the valid twelve (encode() does).
constexpr Character k_character(unsigned x, unsigned y) { return Character{static_cast<std::uint8_t>((y << 5) | x), true}; }

constexpr Character kK28_5 = k_character(28, 5);
constexpr unsigned kControlCharacterCount = 12;

// K28.0-K28.7, K23.7, K27.7, K29.7, K30.7 are the only control characters the code defines.
bool is_valid_control(std::uint8_t byte);
// The twelve control characters in the order K28.0..K28.7, K23.7, K27.7, K29.7, K30.7.
Character control_character(unsigned index);
// Parses "D21.5" / "K28.5"; throws std::invalid_argument for a malformed name or an invalid K.
Character parse_character(const std::string& name);

struct Encoded {
    std::uint16_t code;
    Disparity rd_after;
};

// Throws std::invalid_argument for a K character that is not one of the twelve valid ones.
Encoded encode(Character c, Disparity rd);

struct Decoded {
    // False: a code violation, the pattern is no valid character from either RD column.
    bool valid = false;
    Character character{};
    // The character exists, but only in the other RD column than the current running disparity.
    bool disparity_error = false;
    // RD after the code. For valid characters and disparity errors this is the character's actual
    // ending disparity; for a code violation the standard's sub-block rule is applied to the
    // received bits (see decode()), so the decoder resynchronises on the next valid character.
    Disparity rd_after = Disparity::Minus;
};

// `code` must fit in 10 bits (std::invalid_argument otherwise).
Decoded decode(std::uint16_t code, Disparity rd);

// The RD left by any 10-bit pattern starting from `rd`, by the standard's definition: at the end of
// each sub-block RD is positive if it has more ones than zeros or is 000111 / 0011, negative if it
// has more zeros than ones or is 111000 / 1100, and unchanged otherwise.
Disparity running_disparity_after(std::uint16_t code, Disparity rd);

// "abcdeifghj", first transmitted bit leftmost.
std::string code_to_string(std::uint16_t code);
// Inverse of code_to_string; throws std::invalid_argument unless given exactly ten '0'/'1'.
std::uint16_t code_from_string(const std::string& bits);

}  // namespace fcal::phy
