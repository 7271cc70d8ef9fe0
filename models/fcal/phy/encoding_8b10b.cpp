#include "fcal/phy/encoding_8b10b.hpp"

#include <array>
#include <bitset>
#include <stdexcept>

namespace fcal::phy {
namespace {

struct SubBlock {
    std::uint8_t rd_minus;
    std::uint8_t rd_plus;
};

// 5b/6b code, bits abcdei (a in bit 5), indexed by x, columns by the RD at the start of the block.
constexpr std::array<SubBlock, 32> kSixBit = {{
    {0b100111, 0b011000}, {0b011101, 0b100010}, {0b101101, 0b010010}, {0b110001, 0b110001},
    {0b110101, 0b001010}, {0b101001, 0b101001}, {0b011001, 0b011001}, {0b111000, 0b000111},
    {0b111001, 0b000110}, {0b100101, 0b100101}, {0b010101, 0b010101}, {0b110100, 0b110100},
    {0b001101, 0b001101}, {0b101100, 0b101100}, {0b011100, 0b011100}, {0b010111, 0b101000},
    {0b011011, 0b100100}, {0b100011, 0b100011}, {0b010011, 0b010011}, {0b110010, 0b110010},
    {0b001011, 0b001011}, {0b101010, 0b101010}, {0b011010, 0b011010}, {0b111010, 0b000101},
    {0b110011, 0b001100}, {0b100110, 0b100110}, {0b010110, 0b010110}, {0b110110, 0b001001},
    {0b001110, 0b001110}, {0b101110, 0b010001}, {0b011110, 0b100001}, {0b101011, 0b010100},
}};
constexpr SubBlock kSixBitK28 = {0b001111, 0b110000};

// 3b/4b code, bits fghj (f in bit 3), indexed by y, columns by the RD left by the 6b block.
// Entry 7 is D.x.P7; D.x.A7 replaces it where P7 would make a run of five equal bits (a comma).
constexpr std::array<SubBlock, 8> kFourBit = {{
    {0b1011, 0b0100}, {0b1001, 0b1001}, {0b0101, 0b0101}, {0b1100, 0b0011},
    {0b1101, 0b0010}, {0b1010, 0b1010}, {0b0110, 0b0110}, {0b1110, 0b0001},
}};
constexpr SubBlock kFourBitA7 = {0b0111, 0b1000};
// Control characters. For y = 1, 2, 5, 6 a data 4b block is the same in both columns; K28 uses
// both complementary forms instead, which keeps K28.1/K28.6 and K28.2/K28.5 apart and puts the
// comma into K28.1, K28.5 and K28.7 only. K.x.7 is A7.
constexpr std::array<SubBlock, 8> kFourBitK = {{
    {0b1011, 0b0100}, {0b0110, 0b1001}, {0b1010, 0b0101}, {0b1100, 0b0011},
    {0b1101, 0b0010}, {0b0101, 0b1010}, {0b1001, 0b0110}, {0b0111, 0b1000},
}};

constexpr std::array<std::uint8_t, kControlCharacterCount> kControlBytes = {
    0x1C, 0x3C, 0x5C, 0x7C, 0x9C, 0xBC, 0xDC, 0xFC,  // K28.0 .. K28.7
    0xF7, 0xFB, 0xFD, 0xFE,                          // K23.7, K27.7, K29.7, K30.7
};

std::uint8_t pick(const SubBlock& b, Disparity rd) { return rd == Disparity::Minus ? b.rd_minus : b.rd_plus; }

int ones(unsigned bits) { return static_cast<int>(std::bitset<16>(bits).count()); }

Disparity after_sub_block(unsigned bits, unsigned width, Disparity rd)
{
    const int balance = 2 * ones(bits) - static_cast<int>(width);
    if (balance > 0) return Disparity::Plus;
    if (balance < 0) return Disparity::Minus;
    // Balanced blocks that would otherwise end in a run of three equal bits force the RD, so that
    // the next block is chosen to break the run.
    if ((width == 6 && bits == 0b000111) || (width == 4 && bits == 0b0011)) return Disparity::Plus;
    if ((width == 6 && bits == 0b111000) || (width == 4 && bits == 0b1100)) return Disparity::Minus;
    return rd;
}

bool use_a7(unsigned x, Disparity rd_at_four_bit)
{
    // P7 would extend the run at the end of these 6b blocks (e.g. D17: 100011 + 1110) into a comma.
    if (rd_at_four_bit == Disparity::Minus) return x == 17 || x == 18 || x == 20;
    return x == 11 || x == 13 || x == 14;
}

// Reverse lookup: for each RD column, which character each 10-bit code stands for.
struct DecodeTables {
    struct Entry {
        bool present = false;
        Character character{};
        Disparity rd_after = Disparity::Minus;
    };
    std::array<std::array<Entry, 1024>, 2> column{};
};

const DecodeTables& decode_tables()
{
    static const DecodeTables tables = [] {
        DecodeTables t;
        auto add = [&t](Character c) {
            for (Disparity rd : {Disparity::Minus, Disparity::Plus}) {
                const Encoded e = encode(c, rd);
                auto& entry = t.column[static_cast<std::size_t>(rd)][e.code];
                if (entry.present) throw std::logic_error("8b/10b table: code " + code_to_string(e.code) + " is ambiguous");
                entry = {true, c, e.rd_after};
            }
        };
        for (unsigned b = 0; b < 256; ++b) add(data_character(static_cast<std::uint8_t>(b)));
        for (unsigned i = 0; i < kControlCharacterCount; ++i) add(control_character(i));
        return t;
    }();
    return tables;
}

}  // namespace

char disparity_symbol(Disparity rd) { return rd == Disparity::Minus ? '-' : '+'; }

Disparity parse_disparity(const std::string& text)
{
    if (text == "-") return Disparity::Minus;
    if (text == "+") return Disparity::Plus;
    throw std::invalid_argument("'" + text + "' is not a running disparity (use - or +)");
}

std::string Character::name() const
{
    return std::string(is_k ? "K" : "D") + std::to_string(x()) + "." + std::to_string(y());
}

bool is_valid_control(std::uint8_t byte)
{
    for (std::uint8_t b : kControlBytes)
        if (b == byte) return true;
    return false;
}

Character control_character(unsigned index)
{
    if (index >= kControlCharacterCount) throw std::out_of_range("control character index must be 0..11");
    return Character{kControlBytes[index], true};
}

Character parse_character(const std::string& name)
{
    const auto bad = [&name](const std::string& why) {
        return std::invalid_argument("'" + name + "' is not a transmission character name (" + why + ")");
    };
    if (name.size() < 4 || (name[0] != 'D' && name[0] != 'K')) throw bad("expected Dx.y or Kx.y");
    const auto dot = name.find('.');
    if (dot == std::string::npos || dot < 2 || dot > 3 || dot + 2 != name.size()) throw bad("expected Dx.y or Kx.y");
    unsigned x = 0;
    for (std::size_t i = 1; i < dot; ++i) {
        if (name[i] < '0' || name[i] > '9') throw bad("x must be a decimal number");
        x = x * 10 + static_cast<unsigned>(name[i] - '0');
    }
    const char yc = name[dot + 1];
    if (x > 31 || yc < '0' || yc > '7') throw bad("x must be 0..31 and y 0..7");
    const Character c{static_cast<std::uint8_t>((static_cast<unsigned>(yc - '0') << 5) | x), name[0] == 'K'};
    if (c.is_k && !is_valid_control(c.byte)) throw bad("only K28.0-K28.7, K23.7, K27.7, K29.7 and K30.7 exist");
    return c;
}

Encoded encode(Character c, Disparity rd)
{
    if (c.is_k && !is_valid_control(c.byte))
        throw std::invalid_argument(c.name() + " is not a valid control character (only K28.0-K28.7, K23.7, K27.7, K29.7, K30.7)");
    const unsigned x = c.x();
    const unsigned y = c.y();

    const std::uint8_t six = pick(c.is_k && x == 28 ? kSixBitK28 : kSixBit[x], rd);
    const Disparity rd_mid = after_sub_block(six, 6, rd);

    std::uint8_t four;
    if (c.is_k)
        four = pick(kFourBitK[y], rd_mid);
    else if (y == 7 && use_a7(x, rd_mid))
        four = pick(kFourBitA7, rd_mid);
    else
        four = pick(kFourBit[y], rd_mid);
    const Disparity rd_end = after_sub_block(four, 4, rd_mid);

    return Encoded{static_cast<std::uint16_t>((six << 4) | four), rd_end};
}

Disparity running_disparity_after(std::uint16_t code, Disparity rd)
{
    return after_sub_block(code & 0xFu, 4, after_sub_block((code >> 4) & 0x3Fu, 6, rd));
}

Decoded decode(std::uint16_t code, Disparity rd)
{
    if (code > 0x3FF) throw std::invalid_argument("an 8b/10b code has 10 bits");
    const auto& t = decode_tables();
    const auto& same = t.column[static_cast<std::size_t>(rd)][code];
    if (same.present) return Decoded{true, same.character, false, same.rd_after};
    const auto& other = t.column[static_cast<std::size_t>(opposite(rd))][code];
    if (other.present) return Decoded{true, other.character, true, other.rd_after};
    // A violation carries no character, so the only information left is the bits themselves.
    return Decoded{false, Character{}, false, running_disparity_after(code, rd)};
}

std::string code_to_string(std::uint16_t code)
{
    std::string s(10, '0');
    for (int i = 0; i < 10; ++i)
        if (code & (1u << (9 - i))) s[static_cast<std::size_t>(i)] = '1';
    return s;
}

std::uint16_t code_from_string(const std::string& bits)
{
    if (bits.size() != 10) throw std::invalid_argument("'" + bits + "' is not a 10-bit code (needs exactly ten 0/1 digits)");
    std::uint16_t code = 0;
    for (char ch : bits) {
        if (ch != '0' && ch != '1') throw std::invalid_argument("'" + bits + "' is not a 10-bit code (needs exactly ten 0/1 digits)");
        code = static_cast<std::uint16_t>((code << 1) | (ch == '1' ? 1u : 0u));
    }
    return code;
}

}  // namespace fcal::phy
