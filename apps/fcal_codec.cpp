// fcal-codec: the 8b/10b codec, ordered sets and AL_PAs from the command line, so the physical
// layer can be checked against the standard's tables without building a loop.
//
// Exit codes: 0 success, 1 `decode` found code violations or disparity errors, 2 usage or input
// errors (including every CLI11 parse error, and standard input that cannot be read; --help exits
// 0), 6 standard output could not be written (as fcal-sim's 6).
//
// A plain main linked with the SystemC-free fcal_phy_core (and the SystemC-free message text of
// fcal/sim/user_text.hpp) only: no SystemC kernel, no banner.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/encoding_8b10b.hpp"
#include "fcal/phy/ordered_set.hpp"
#include "fcal/sim/user_text.hpp"

namespace {

using namespace fcal::phy;

constexpr int kExitClean = 0;
constexpr int kExitErrorsFound = 1;
constexpr int kExitUsage = 2;
constexpr int kExitWriteError = 6;

const char* const kProgram = "fcal-codec";
const std::vector<std::string> kSubcommands = {"table", "encode", "decode", "al-pa"};

std::string hex_byte(std::uint8_t b)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02X", b);
    return buf;
}

// Messages quote what the user gave: escaped, so no control byte reaches the terminal.
int usage_error(const std::string& message)
{
    std::cerr << kProgram << ": " << fcal::sim::escape_controls(message) << '\n';
    return kExitUsage;
}

// Standard output, flushed and checked (a full disk behind a redirection is not success).
int finish_output(int code)
{
    std::cout.flush();
    if (std::cout.good()) return code;
    std::cerr << kProgram << ": standard output: cannot write (" << std::strerror(errno) << ")\n";
    return kExitWriteError;
}

int run_table()
{
    std::cout << "name,byte,is_k,rd_minus,rd_plus\n";
    auto row = [](Character c) {
        std::cout << c.name() << ',' << hex_byte(c.byte) << ',' << (c.is_k ? 1 : 0) << ','
                  << code_to_string(encode(c, Disparity::Minus).code) << ','
                  << code_to_string(encode(c, Disparity::Plus).code) << '\n';
    };
    for (unsigned b = 0; b < 256; ++b) row(data_character(static_cast<std::uint8_t>(b)));
    for (unsigned i = 0; i < kControlCharacterCount; ++i) row(control_character(i));
    return kExitClean;
}

int run_encode(const std::string& rd_text, const std::vector<std::string>& names)
{
    if (names.empty())
        return usage_error("encode: no ordered set names given (example: fcal-codec encode IDLE 'ARB(0xE8)' EOFn)");
    // Parse everything first so a bad name produces no partial output.
    std::vector<OrderedSet> sets;
    try {
        for (const auto& n : names) sets.push_back(OrderedSet::parse(n));
    } catch (const std::invalid_argument& e) {
        return usage_error(std::string("encode: ") + fcal::sim::shortened(e.what(), 200));
    }
    Disparity rd = parse_disparity(rd_text);
    for (const auto& set : sets) {
        const TransmissionWord chars = set.characters(rd);
        const EncodedWord word = encode_word(chars, rd);
        std::cout << set.name();
        for (const auto& c : chars) std::cout << ' ' << c.name();
        for (auto code : word.codes) std::cout << ' ' << code_to_string(code);
        std::cout << ' ' << disparity_symbol(word.rd_after) << '\n';
        rd = word.rd_after;
    }
    return kExitClean;
}

int run_decode(const std::string& rd_text)
{
    // Read and check the whole input first: malformed input is a usage error, not a line error.
    std::vector<std::uint16_t> codes;
    std::string token;
    while (std::cin >> token) {
        try {
            codes.push_back(code_from_string(token));
        } catch (const std::invalid_argument&) {
            return usage_error("decode: token '" + fcal::sim::shortened(token, 40) + "' at position " + std::to_string(codes.size()) +
                               " is not a 10-bit binary code (ten 0/1 digits, first transmitted bit leftmost)");
        }
    }
    // A read error (standard input a directory) is not the end of the input.
    if (std::cin.bad() || std::ferror(stdin)) return usage_error(std::string("decode: cannot read standard input (") + std::strerror(errno) + ")");

    Disparity rd = parse_disparity(rd_text);
    std::vector<Decoded> decoded;
    std::vector<Disparity> rd_before;
    std::size_t ordered_sets = 0;
    std::size_t errors = 0;
    for (std::size_t pos = 0; pos < codes.size(); ++pos) {
        const Decoded d = decode(codes[pos], rd);
        decoded.push_back(d);
        rd_before.push_back(rd);
        std::cout << pos << ' ' << code_to_string(codes[pos]) << ' ';
        if (!d.valid) {
            std::cout << "invalid " << disparity_symbol(d.rd_after) << " code violation\n";
            ++errors;
        } else if (d.disparity_error) {
            std::cout << d.character.name() << ' ' << disparity_symbol(d.rd_after) << " disparity error (code from the RD"
                      << disparity_symbol(opposite(rd)) << " column, running disparity was " << disparity_symbol(rd) << ")\n";
            ++errors;
        } else {
            std::cout << d.character.name() << ' ' << disparity_symbol(d.rd_after) << '\n';
        }
        rd = d.rd_after;

        if (pos < 3) continue;
        const std::size_t start = pos - 3;
        TransmissionWord word{};
        bool all_valid = true;
        for (std::size_t i = 0; i < 4; ++i) {
            all_valid = all_valid && decoded[start + i].valid;
            word[i] = decoded[start + i].character;
        }
        if (!all_valid) continue;
        // The transmitter's RD at the word's start is the column its K28.5 came from, even if the
        // receiver's RD disagreed (a disparity error on the K28.5 itself).
        const Disparity word_rd = decoded[start].disparity_error ? opposite(rd_before[start]) : rd_before[start];
        if (const auto set = OrderedSet::recognise(word, word_rd)) {
            std::cout << "ordered set " << set->name() << " at " << start << '\n';
            ++ordered_sets;
        }
    }
    // The summary avoids the error words so that a clean run never matches a search for them.
    std::cout << "summary: characters " << codes.size() << ", ordered sets " << ordered_sets << ", errors " << errors
              << ", ending RD " << disparity_symbol(rd) << '\n';
    return errors == 0 ? kExitClean : kExitErrorsFound;
}

int run_al_pa()
{
    std::cout << "al_pa,loop_id\n";
    for (AlPa a : valid_al_pas()) std::cout << al_pa_hex(a) << ',' << loop_id_of_al_pa(a) << '\n';
    return kExitClean;
}

std::string one_line(std::string s)
{
    for (auto& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

}  // namespace

int main(int argc, char* argv[])
{
    CLI::App app{"8b/10b codec, ordered sets and AL_PAs of the FC-AL model (docs/model.md, \"The physical layer\")", kProgram};
    app.require_subcommand(1);

    auto* table = app.add_subcommand("table", "Print the 268 characters with their RD- and RD+ codes as CSV "
                                              "(name,byte,is_k,rd_minus,rd_plus; codes as abcdeifghj)");

    std::string encode_rd = "-";
    std::vector<std::string> names;
    auto* enc = app.add_subcommand("encode", "Encode ordered sets by name, each continuing from the previous "
                                             "one's ending running disparity");
    enc->add_option("--rd", encode_rd, "Running disparity before the first name: - or +")
        ->check(CLI::IsMember({"-", "+"}))
        ->capture_default_str();
    enc->add_option("names", names, "IDLE R_RDY ARB(0xE8) ARB(F0) ARBff OPN(0xE8,0x01) OPN(0xE8) CLS SOFc1 SOFi2 "
                                    "SOFn2 SOFi3 SOFn3 EOFn EOFt LIP(F7,F7)");

    std::string decode_rd = "-";
    auto* dec = app.add_subcommand("decode", "Decode whitespace-separated 10-bit codes (abcdeifghj) from stdin; "
                                             "exit 1 if code violations or disparity errors were found");
    dec->add_option("--rd", decode_rd, "Running disparity before the first code: - or +")
        ->check(CLI::IsMember({"-", "+"}))
        ->capture_default_str();

    auto* al_pa = app.add_subcommand("al-pa", "List the 127 valid AL_PAs, highest priority first, as CSV al_pa,loop_id");

    // CLI11 would call an unknown word an unexpected argument; name it as the subcommand it was meant as.
    if (argc > 1 && argv[1][0] != '-') {
        const std::string word = argv[1];
        bool known = false;
        for (const auto& s : kSubcommands) known = known || s == word;
        if (!known) return usage_error("unknown subcommand '" + fcal::sim::shortened(word) + "' (expected table, encode, decode or al-pa; see --help)");
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help
        return usage_error(fcal::sim::shortened(one_line(e.what()), 300) + " (see --help)");
    }

    try {
        if (*table) return finish_output(run_table());
        if (*enc) return finish_output(run_encode(encode_rd, names));
        if (*dec) return finish_output(run_decode(decode_rd));
        if (*al_pa) return finish_output(run_al_pa());
    } catch (const std::exception& e) {
        std::cerr << kProgram << ": internal error: " << e.what() << '\n';
        return kExitUsage;
    }
    return usage_error("no subcommand given (see --help)");
}
