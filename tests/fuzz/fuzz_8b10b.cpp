// Fuzz target: the 8b/10b decoder on an arbitrary 10-bit stream (docs/model.md, "The physical
// layer: 8b/10b", "The physical layer: ordered sets"). The first byte's lowest bit picks the starting
// running disparity; the bits of the rest, each byte's most significant bit first, are cut into
// 10-bit codes. A receiver decodes code after code, carrying the running disparity,
// and reads every four valid characters starting with K28.5 as a transmission word.
//
// Invariants, for every code: decoding never throws; a valid character in the current column
// encodes back to the same code and disparity; a disparity error is a character of the other column;
// a code violation is no character of either column; the disparity carried on is the standard's
// sub-block rule; the code prints and parses back. For every recognised ordered set: it is made of
// exactly those characters, encodes back to the same four codes, and its name parses back to it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_check.hpp"
#include "fcal/phy/encoding_8b10b.hpp"
#include "fcal/phy/ordered_set.hpp"

using namespace fcal::phy;

namespace {

// Some character of either RD column that encodes to `code`, if any.
bool some_character_encodes_to(std::uint16_t code)
{
    for (Disparity rd : {Disparity::Minus, Disparity::Plus}) {
        for (unsigned byte = 0; byte < 256; ++byte)
            if (encode(data_character(static_cast<std::uint8_t>(byte)), rd).code == code) return true;
        for (unsigned k = 0; k < kControlCharacterCount; ++k)
            if (encode(control_character(k), rd).code == code) return true;
    }
    return false;
}

void check_code(std::uint16_t code, Disparity rd, const Decoded& d)
{
    FUZZ_CHECK(code_from_string(code_to_string(code)) == code);
    FUZZ_CHECK(d.rd_after == running_disparity_after(code, rd));
    if (!d.valid) {
        FUZZ_CHECK(!some_character_encodes_to(code));
        return;
    }
    const Encoded same = encode(d.character, rd);
    if (d.disparity_error) {
        FUZZ_CHECK(same.code != code);
        FUZZ_CHECK(encode(d.character, opposite(rd)).code == code);
    } else {
        FUZZ_CHECK(same.code == code);
        FUZZ_CHECK(same.rd_after == d.rd_after);
    }
}

void check_word(const TransmissionWord& word, const std::array<std::uint16_t, 4>& codes, Disparity rd)
{
    const std::optional<OrderedSet> set = OrderedSet::recognise(word, rd);
    if (!set) return;
    FUZZ_CHECK(set->characters(rd) == word);
    FUZZ_CHECK(set->encode(rd).codes == codes);
    FUZZ_CHECK(OrderedSet::parse(set->name()) == *set);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0) return 0;
    Disparity rd = (data[0] & 1) ? Disparity::Plus : Disparity::Minus;
    const std::uint8_t* stream = data + 1;
    const std::size_t bits = (size - 1) * 8;

    // A word being gathered: up to four valid characters in the current RD column, after a K28.5.
    TransmissionWord word{};
    std::array<std::uint16_t, 4> codes{};
    std::size_t gathered = 0;
    Disparity word_rd = rd;

    for (std::size_t start = 0; start + 10 <= bits; start += 10) {
        std::uint16_t code = 0;
        for (std::size_t b = start; b < start + 10; ++b) code = static_cast<std::uint16_t>((code << 1) | ((stream[b / 8] >> (7 - b % 8)) & 1));
        const Decoded d = decode(code, rd);
        check_code(code, rd, d);

        const bool usable = d.valid && !d.disparity_error;
        if (usable && d.character == kK28_5) {
            gathered = 0;  // a K28.5 starts a word wherever it is
            word_rd = rd;
        }
        if (usable && (gathered > 0 || d.character == kK28_5)) {
            word[gathered] = d.character;
            codes[gathered] = code;
            if (++gathered == word.size()) {
                check_word(word, codes, word_rd);
                gathered = 0;
            }
        } else {
            gathered = 0;
        }
        rd = d.rd_after;
    }
    return 0;
}
