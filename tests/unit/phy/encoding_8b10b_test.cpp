// 8b/10b codec against an independent reference: the standard's 5b/6b and 3b/4b tables typed in
// below as bit strings (RD- column only) plus the standard's rules for the RD+ column, the running
// disparity and the D.x.A7 substitution. Nothing here is derived from the codec under test.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "fcal/phy/encoding_8b10b.hpp"

using namespace fcal::phy;

namespace {

// 5b/6b, bits abcdei, RD- column, x = 0..31.
const char* const kSixBitMinus[32] = {
    "100111", "011101", "101101", "110001", "110101", "101001", "011001", "111000",  // D0-D7
    "111001", "100101", "010101", "110100", "001101", "101100", "011100", "010111",  // D8-D15
    "011011", "100011", "010011", "110010", "001011", "101010", "011010", "111010",  // D16-D23
    "110011", "100110", "010110", "110110", "001110", "101110", "011110", "101011",  // D24-D31
};
const char* const kSixBitK28Minus = "001111";
// 3b/4b, bits fghj, RD- column, y = 0..7 (entry 7 is D.x.P7).
const char* const kFourBitMinus[8] = {"1011", "1001", "0101", "1100", "1101", "1010", "0110", "1110"};
const char* const kFourBitA7Minus = "0111";
// Control 3b/4b, RD- column; the RD+ column is always the complement.
const char* const kFourBitKMinus[8] = {"1011", "0110", "1010", "1100", "1101", "0101", "1001", "0111"};

int ones(const std::string& s)
{
    int n = 0;
    for (char c : s) n += c == '1';
    return n;
}

std::string complement(std::string s)
{
    for (auto& c : s) c = c == '1' ? '0' : '1';
    return s;
}

bool balanced(const std::string& s) { return 2 * ones(s) == static_cast<int>(s.size()); }

// Data sub-blocks: the RD+ column complements the RD- entry when it is unbalanced, and for the
// balanced 111000 and 1100 (whose complements 000111 and 0011 are the RD+ forms); otherwise the
// block is the same in both columns.
std::string data_block(const std::string& minus, Disparity rd)
{
    if (rd == Disparity::Minus) return minus;
    return (!balanced(minus) || minus == "111000" || minus == "1100") ? complement(minus) : minus;
}

Disparity after_block(const std::string& block, Disparity rd) { return balanced(block) ? rd : opposite(rd); }

struct Reference {
    std::string bits;  // abcdeifghj
    Disparity rd_after;
};

Reference reference_encode(Character c, Disparity rd)
{
    const unsigned x = c.byte & 0x1F;
    const unsigned y = c.byte >> 5;
    std::string six;
    if (c.is_k && x == 28)
        six = rd == Disparity::Minus ? kSixBitK28Minus : complement(kSixBitK28Minus);
    else
        six = data_block(kSixBitMinus[x], rd);
    const Disparity mid = after_block(six, rd);
    std::string four;
    if (c.is_k) {
        four = mid == Disparity::Minus ? kFourBitKMinus[y] : complement(kFourBitKMinus[y]);
    } else {
        const bool a7 = y == 7 && ((mid == Disparity::Minus && (x == 17 || x == 18 || x == 20)) ||
                                   (mid == Disparity::Plus && (x == 11 || x == 13 || x == 14)));
        four = data_block(a7 ? kFourBitA7Minus : kFourBitMinus[y], mid);
    }
    return {six + four, after_block(four, mid)};
}

std::vector<Character> all_characters()
{
    std::vector<Character> out;
    for (unsigned b = 0; b < 256; ++b) out.push_back(Character{static_cast<std::uint8_t>(b), false});
    for (unsigned y = 0; y < 8; ++y) out.push_back(Character{static_cast<std::uint8_t>((y << 5) | 28), true});
    for (unsigned x : {23u, 27u, 29u, 30u}) out.push_back(Character{static_cast<std::uint8_t>((7u << 5) | x), true});
    return out;
}

const Disparity kBoth[] = {Disparity::Minus, Disparity::Plus};

std::string encoded_bits(Character c, Disparity rd) { return code_to_string(encode(c, rd).code); }

bool is_comma_character(Character c)
{
    return c.is_k && (c.byte == 0x3C || c.byte == 0xBC || c.byte == 0xFC);  // K28.1, K28.5, K28.7
}

std::size_t longest_run(const std::string& bits)
{
    std::size_t best = 0, run = 0;
    for (std::size_t i = 0; i < bits.size(); ++i) {
        run = (i > 0 && bits[i] == bits[i - 1]) ? run + 1 : 1;
        best = std::max(best, run);
    }
    return best;
}

}  // namespace

TEST_CASE("8b10b: all 268 characters match the standard tables from both disparities")
{
    const auto chars = all_characters();
    REQUIRE(chars.size() == 268);
    for (Character c : chars) {
        for (Disparity rd : kBoth) {
            const Reference ref = reference_encode(c, rd);
            const Encoded got = encode(c, rd);
            INFO(c.name() << " from RD" << disparity_symbol(rd));
            CHECK(code_to_string(got.code) == ref.bits);
            CHECK(got.rd_after == ref.rd_after);
        }
    }
}

TEST_CASE("8b10b: well-known codes in transmission order")
{
    const Character k28_5{0xBC, true};
    CHECK(encoded_bits(k28_5, Disparity::Minus) == "0011111010");
    CHECK(encoded_bits(k28_5, Disparity::Plus) == "1100000101");
    CHECK(encoded_bits(Character{0xB5, false}, Disparity::Minus) == "1010101010");  // D21.5
    CHECK(encoded_bits(Character{0x4A, false}, Disparity::Plus) == "0101010101");   // D10.2
    CHECK(encoded_bits(Character{0x00, false}, Disparity::Minus) == "1001110100");  // D0.0
    // A7 instead of P7: D17.7 at RD-, D11.7 at RD+; P7 otherwise (D17.7 at RD+, D11.7 at RD-).
    CHECK(encoded_bits(Character{0xF1, false}, Disparity::Minus) == "1000110111");
    CHECK(encoded_bits(Character{0xEB, false}, Disparity::Plus) == "1101001000");
    CHECK(encoded_bits(Character{0xF1, false}, Disparity::Plus) == "1000110001");
    CHECK(encoded_bits(Character{0xEB, false}, Disparity::Minus) == "1101001110");
    // The 6b block decides the RD for the 4b block: D7.3 keeps RD-, so its 4b block is the RD- 1100.
    CHECK(encoded_bits(Character{0x67, false}, Disparity::Minus) == "1110001100");
    CHECK(encoded_bits(Character{0x67, false}, Disparity::Plus) == "0001110011");
    // K23.7 at RD-: D23's 6b flips RD to +, so K.7 takes its RD+ form.
    CHECK(encoded_bits(Character{0xF7, true}, Disparity::Minus) == "1110101000");
}

TEST_CASE("8b10b: names and control characters")
{
    CHECK(Character{0xB5, false}.name() == "D21.5");
    CHECK(Character{0xBC, true}.name() == "K28.5");
    CHECK(Character{0x00, false}.name() == "D0.0");
    CHECK(Character{0xFF, false}.name() == "D31.7");
    CHECK(parse_character("D21.5") == Character{0xB5, false});
    CHECK(parse_character("K30.7") == Character{0xFE, true});
    CHECK_THROWS_AS(parse_character("K21.5"), std::invalid_argument);
    CHECK_THROWS_AS(parse_character("D32.0"), std::invalid_argument);
    CHECK_THROWS_AS(parse_character("D1.8"), std::invalid_argument);
    CHECK_THROWS_AS(parse_character("X1.1"), std::invalid_argument);

    std::set<unsigned> valid_k;
    for (unsigned i = 0; i < kControlCharacterCount; ++i) valid_k.insert(control_character(i).byte);
    CHECK(valid_k == std::set<unsigned>{0x1C, 0x3C, 0x5C, 0x7C, 0x9C, 0xBC, 0xDC, 0xFC, 0xF7, 0xFB, 0xFD, 0xFE});
    for (unsigned b = 0; b < 256; ++b) {
        const Character k{static_cast<std::uint8_t>(b), true};
        CHECK(is_valid_control(k.byte) == (valid_k.count(b) == 1));
        if (!valid_k.count(b)) {
            for (Disparity rd : kBoth) CHECK_THROWS_AS(encode(k, rd), std::invalid_argument);
        }
    }
}

TEST_CASE("8b10b: code strings are in transmission order abcdeifghj")
{
    CHECK(code_from_string("1000000000") == 0x200);  // a is bit 9
    CHECK(code_from_string("0000000001") == 0x001);  // j is bit 0
    for (unsigned code = 0; code < 1024; ++code)
        CHECK(code_from_string(code_to_string(static_cast<std::uint16_t>(code))) == code);
    CHECK_THROWS_AS(code_from_string("001111101"), std::invalid_argument);
    CHECK_THROWS_AS(code_from_string("00111110100"), std::invalid_argument);
    CHECK_THROWS_AS(code_from_string("001111101x"), std::invalid_argument);
    CHECK(parse_disparity("-") == Disparity::Minus);
    CHECK(parse_disparity("+") == Disparity::Plus);
    CHECK_THROWS_AS(parse_disparity("0"), std::invalid_argument);
}

TEST_CASE("8b10b: round trip of all characters from both disparities")
{
    for (Character c : all_characters()) {
        for (Disparity rd : kBoth) {
            const Encoded e = encode(c, rd);
            const Decoded d = decode(e.code, rd);
            INFO(c.name() << " from RD" << disparity_symbol(rd));
            CHECK(d.valid);
            CHECK_FALSE(d.disparity_error);
            CHECK(d.character == c);
            CHECK(d.rd_after == e.rd_after);
        }
    }
}

TEST_CASE("8b10b: every 10-bit pattern decodes as the reference table says")
{
    // code -> (character, rd after) for each column, from the reference.
    std::map<std::string, std::pair<Character, Disparity>> column[2];
    for (Character c : all_characters())
        for (Disparity rd : kBoth) {
            const Reference ref = reference_encode(c, rd);
            const bool fresh = column[static_cast<int>(rd)].emplace(ref.bits, std::make_pair(c, ref.rd_after)).second;
            CHECK(fresh);  // no code stands for two characters
        }
    std::size_t violations = 0;
    for (unsigned code = 0; code < 1024; ++code) {
        const std::string bits = code_to_string(static_cast<std::uint16_t>(code));
        for (Disparity rd : kBoth) {
            INFO(bits << " at RD" << disparity_symbol(rd));
            const auto& same = column[static_cast<int>(rd)];
            const auto& other = column[static_cast<int>(opposite(rd))];
            const Decoded d = decode(static_cast<std::uint16_t>(code), rd);
            if (same.count(bits)) {
                CHECK(d.valid);
                CHECK_FALSE(d.disparity_error);
                CHECK(d.character == same.at(bits).first);
                CHECK(d.rd_after == same.at(bits).second);
            } else if (other.count(bits)) {
                CHECK(d.valid);
                CHECK(d.disparity_error);
                CHECK(d.character == other.at(bits).first);
                CHECK(d.rd_after == other.at(bits).second);  // the character's actual ending RD
            } else {
                CHECK_FALSE(d.valid);
                CHECK_FALSE(d.disparity_error);
                if (rd == Disparity::Minus) ++violations;
            }
        }
    }
    std::set<std::string> any;
    for (const auto& col : column)
        for (const auto& kv : col) any.insert(kv.first);
    CHECK(violations == 1024 - any.size());
    CHECK_THROWS_AS(decode(1024, Disparity::Minus), std::invalid_argument);
}

TEST_CASE("8b10b: code violation recovery follows the received bits")
{
    // The standard's definition of RD at the end of a sub-block, applied to whatever arrived:
    // more ones -> +, more zeros -> -, 000111 / 0011 -> +, 111000 / 1100 -> -, otherwise unchanged.
    const auto rule = [](const std::string& block, Disparity rd) {
        const int diff = 2 * ones(block) - static_cast<int>(block.size());
        if (diff > 0 || block == "000111" || block == "0011") return Disparity::Plus;
        if (diff < 0 || block == "111000" || block == "1100") return Disparity::Minus;
        return rd;
    };
    for (unsigned code = 0; code < 1024; ++code) {
        const std::string bits = code_to_string(static_cast<std::uint16_t>(code));
        for (Disparity rd : kBoth) {
            const Disparity expected = rule(bits.substr(6), rule(bits.substr(0, 6), rd));
            INFO(bits << " at RD" << disparity_symbol(rd));
            CHECK(running_disparity_after(static_cast<std::uint16_t>(code), rd) == expected);
            const Decoded d = decode(static_cast<std::uint16_t>(code), rd);
            if (!d.valid) CHECK(d.rd_after == expected);
        }
    }
    CHECK(decode(code_from_string("1111111111"), Disparity::Minus).rd_after == Disparity::Plus);
    CHECK(decode(code_from_string("0000000000"), Disparity::Plus).rd_after == Disparity::Minus);
    // D7's RD- 6b block with D.x.3's RD+ 4b block: no character, and 0011 leaves RD+.
    const Decoded d = decode(code_from_string("1110000011"), Disparity::Minus);
    CHECK_FALSE(d.valid);
    CHECK(d.rd_after == Disparity::Plus);
}

TEST_CASE("8b10b: every code has 4 to 6 ones and bit balance tracks the running disparity")
{
    for (Character c : all_characters()) {
        for (Disparity rd : kBoth) {
            const std::string bits = encoded_bits(c, rd);
            const int n = ones(bits);
            INFO(c.name() << " from RD" << disparity_symbol(rd) << ": " << bits);
            CHECK((n == 4 || n == 5 || n == 6));
            // Six ones only from RD-, four only from RD+; RD flips exactly for those.
            if (n == 6) CHECK(rd == Disparity::Minus);
            if (n == 4) CHECK(rd == Disparity::Plus);
            CHECK((encode(c, rd).rd_after != rd) == (n != 5));
        }
    }
}

TEST_CASE("8b10b: no run longer than five over all pairs of characters")
{
    const auto chars = all_characters();
    for (Character a : chars)
        for (Disparity rd : kBoth) {
            const Encoded ea = encode(a, rd);
            const std::string first = code_to_string(ea.code);
            for (Character b : chars) {
                const std::string pair = first + code_to_string(encode(b, ea.rd_after).code);
                if (longest_run(pair) > 5) FAIL(a.name() << " " << b.name() << " from RD" << disparity_symbol(rd) << ": " << pair);
            }
        }
    SUCCEED();
}

TEST_CASE("8b10b: long pseudo-random streams keep run length and digital sum bounded")
{
    const auto chars = all_characters();
    std::mt19937 rng(20240611);
    std::uniform_int_distribution<std::size_t> pick(0, chars.size() - 1);
    for (Disparity start : kBoth) {
        Disparity rd = start;
        // Running digital sum (ones minus zeros), started at -1 for RD- and +1 for RD+: at every
        // character boundary its sign is the running disparity.
        int rds = start == Disparity::Minus ? -1 : 1;
        int lo = rds, hi = rds;
        std::size_t run = 0, longest = 0;
        char last = 'x';
        for (int i = 0; i < 400000; ++i) {
            const Character c = chars[pick(rng)];
            const Encoded e = encode(c, rd);
            for (char bit : code_to_string(e.code)) {
                run = bit == last ? run + 1 : 1;
                last = bit;
                longest = std::max(longest, run);
                rds += bit == '1' ? 1 : -1;
                lo = std::min(lo, rds);
                hi = std::max(hi, rds);
            }
            rd = e.rd_after;
            REQUIRE(rds == (rd == Disparity::Minus ? -1 : 1));
        }
        CHECK(longest == 5);
        CHECK(lo >= -3);
        CHECK(hi <= 3);
    }
}

TEST_CASE("8b10b: the comma appears only at the start of K28.1 K28.5 and K28.7")
{
    // Every pair of consecutive characters, both starting disparities. A comma (0011111 or 1100000)
    // is only allowed at bit 0 of K28.1, K28.5 or K28.7. The one known exception: K28.7 followed by
    // a character whose code starts with the two bits that complete "11000"+"00" (RD-: D12, D20,
    // D28, K28) or "00111"+"11" (RD+: D3, D11, D19, K28). That is why K28.7 may not be followed by
    // those characters and is not used in Fibre Channel ordered sets.
    const auto chars = all_characters();
    std::set<std::string> k28_7_followers;
    for (Character a : chars)
        for (Disparity rd : kBoth) {
            const Encoded ea = encode(a, rd);
            const std::string first = code_to_string(ea.code);
            for (Character b : chars) {
                const std::string pair = first + code_to_string(encode(b, ea.rd_after).code);
                for (std::size_t pos = 0; pos + 7 <= pair.size(); ++pos) {
                    const std::string w = pair.substr(pos, 7);
                    if (w != "0011111" && w != "1100000") continue;
                    const bool aligned = (pos == 0 && is_comma_character(a)) || (pos == 10 && is_comma_character(b));
                    if (aligned) continue;
                    if (a == Character{0xFC, true} && pos == 5) {
                        k28_7_followers.insert(b.name());
                        continue;
                    }
                    FAIL("comma at bit " << pos << " in " << a.name() << " " << b.name() << " from RD"
                                         << disparity_symbol(rd) << ": " << pair);
                }
            }
            // Each comma character must actually carry its comma.
            if (is_comma_character(a)) CHECK((first.substr(0, 7) == "0011111" || first.substr(0, 7) == "1100000"));
        }
    std::set<std::string> expected;
    for (unsigned y = 0; y < 8; ++y) {
        for (unsigned x : {3u, 11u, 12u, 19u, 20u, 28u}) expected.insert("D" + std::to_string(x) + "." + std::to_string(y));
        expected.insert("K28." + std::to_string(y));
    }
    CHECK(k28_7_followers == expected);
}

TEST_CASE("8b10b: decoding a crafted stream reports errors at their positions")
{
    const Character d21_5{0xB5, false};  // neutral and the same in both columns
    const Character d0_0{0x00, false};
    const Character k28_5{0xBC, true};
    std::vector<std::string> stream;
    for (int i = 0; i < 12; ++i) stream.push_back(reference_encode(d21_5, Disparity::Minus).bits);
    stream[3] = reference_encode(d0_0, Disparity::Plus).bits;    // RD is - here: disparity error, RD becomes +
    stream[6] = "1111111111";                                    // no character: code violation, RD stays +
    stream[8] = reference_encode(k28_5, Disparity::Minus).bits;  // RD is +: disparity error, RD becomes +
    stream[10] = "0011110001";                                   // 001111 is K28 only; 0001 never follows it

    Disparity rd = Disparity::Minus;
    std::map<std::size_t, std::string> errors;
    for (std::size_t i = 0; i < stream.size(); ++i) {
        const Decoded d = decode(code_from_string(stream[i]), rd);
        if (!d.valid) errors[i] = "code violation";
        else if (d.disparity_error) errors[i] = "disparity error " + d.character.name();
        else CHECK(d.character == d21_5);
        rd = d.rd_after;
    }
    const std::map<std::size_t, std::string> expected = {
        {3, "disparity error D0.0"},
        {6, "code violation"},
        {8, "disparity error K28.5"},
        {10, "code violation"},
    };
    CHECK(errors == expected);
}
