#include "fcal/phy/ordered_set.hpp"

#include <cctype>
#include <stdexcept>

namespace fcal::phy {
namespace {

// Second-character values (hex bytes of the table in docs/model.md, "The physical layer: ordered
// sets") that identify the ordered set families.
constexpr std::uint8_t kEofAfterMinus = 0x95;
constexpr std::uint8_t kEofAfterPlus = 0xB5;

struct FixedSet {
    OrderedSetKind kind;
    const char* name;
    std::uint8_t second;  // for EOFs, the RD- form; the RD+ form is chosen in characters()
    std::uint8_t third;   // third and fourth characters are equal for every fixed set
};

constexpr FixedSet kFixedSets[] = {
    {OrderedSetKind::Idle, "IDLE", 0x95, 0xB5},
    {OrderedSetKind::RRdy, "R_RDY", 0x95, 0x4A},
    {OrderedSetKind::ArbF0, "ARB(F0)", 0x94, kArbFairnessFill},
    {OrderedSetKind::ArbFF, "ARBff", 0x94, kArbFF},
    {OrderedSetKind::Cls, "CLS", 0x85, 0xB5},
    {OrderedSetKind::SofC1, "SOFc1", 0xB5, 0x17},
    {OrderedSetKind::SofI2, "SOFi2", 0xB5, 0x55},
    {OrderedSetKind::SofN2, "SOFn2", 0xB5, 0x35},
    {OrderedSetKind::SofI3, "SOFi3", 0xB5, 0x56},
    {OrderedSetKind::SofN3, "SOFn3", 0xB5, 0x36},
    {OrderedSetKind::EofN, "EOFn", kEofAfterMinus, 0xD5},
    {OrderedSetKind::EofT, "EOFt", kEofAfterMinus, 0x75},
};

constexpr std::uint8_t kArbSecond = 0x94;
constexpr std::uint8_t kOpnSecond = 0x91;

// The primitive sequences of loop initialization and port bypass: K28.5, the family's character,
// then y and x (docs/loop_init.md, "LIP, LPB and LPE").
constexpr std::uint8_t kLipSecond = 0x15;  // D21.0
constexpr std::uint8_t kLpbSecond = 0x09;  // D9.0
constexpr std::uint8_t kLpeSecond = 0x05;  // D5.0
constexpr std::uint8_t kNoAlPa = 0xF7;      // LIP: the sender has no valid AL_PA (D23.7)
constexpr std::uint8_t kLoopFailure = 0xF8;  // LIP: loss of signal at the sender's receiver (D24.7)
constexpr std::uint8_t kAllPorts = 0xFF;     // LIP reset all, LPB/LPE of every port (D31.7)

bool is_lip_kind(OrderedSetKind k) { return k >= OrderedSetKind::LipF7F7 && k <= OrderedSetKind::LipResetAll; }
bool is_bypass_kind(OrderedSetKind k) { return k >= OrderedSetKind::LpbYx && k <= OrderedSetKind::LpeFx; }
bool is_sequence_kind(OrderedSetKind k) { return is_lip_kind(k) || is_bypass_kind(k); }

bool is_eof(OrderedSetKind k) { return k == OrderedSetKind::EofN || k == OrderedSetKind::EofT; }

const FixedSet* fixed(OrderedSetKind kind)
{
    for (const auto& f : kFixedSets)
        if (f.kind == kind) return &f;
    return nullptr;
}

std::string upper(std::string s)
{
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

const char* kKnownNames =
    "IDLE, R_RDY, ARB(x), ARB(F0), ARBff, OPN(y,x), OPN(y), CLS, SOFc1, SOFi2, SOFn2, SOFi3, SOFn3, "
    "SOFil, EOFn, EOFt, LIP(F7,F7), LIP(F7,x), LIP(F8,F7), LIP(F8,x), LIP(y,x), LIP(FF,x), LPB(y,x), "
    "LPB(FF,x), LPE(y,x), LPE(FF,x)";

std::invalid_argument unknown(const std::string& name, const std::string& why = "")
{
    return std::invalid_argument("unknown ordered set '" + name + "'" + (why.empty() ? "" : " (" + why + ")") +
                                 "; known: " + kKnownNames);
}

// "E8" or "0xE8" -> 0xE8; the whole text must be one or two hex digits.
unsigned parse_hex_byte(const std::string& text, const std::string& name)
{
    std::string digits = text;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'X' || digits[1] == 'x')) digits = digits.substr(2);
    if (digits.empty() || digits.size() > 2) throw unknown(name, "'" + text + "' is not a hex byte");
    unsigned v = 0;
    for (char c : digits) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) throw unknown(name, "'" + text + "' is not a hex byte");
        v = v * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::toupper(c) - 'A' + 10);
    }
    return v;
}

// The primitive sequence that the characters K28.5 `second` `third` `fourth` form, if any.
std::optional<OrderedSet> sequence_of(std::uint8_t second, std::uint8_t third, std::uint8_t fourth)
{
    const bool x_valid = is_valid_al_pa(fourth);
    if (second == kLipSecond) {
        if (third == kNoAlPa) {
            if (fourth == kNoAlPa) return OrderedSet(OrderedSetKind::LipF7F7);
            if (x_valid) return OrderedSet::lip_initializing(fourth);
        } else if (third == kLoopFailure) {
            if (fourth == kNoAlPa) return OrderedSet(OrderedSetKind::LipF8F7);
            if (x_valid) return OrderedSet::lip_failure(fourth);
        } else if (third == kAllPorts) {
            if (x_valid) return OrderedSet::lip_reset_all(fourth);
        } else if (is_valid_al_pa(third) && x_valid) {
            return OrderedSet::lip_reset(third, fourth);
        }
        return std::nullopt;
    }
    if (second == kLpbSecond || second == kLpeSecond) {
        const bool lpb = second == kLpbSecond;
        if (!x_valid) return std::nullopt;
        if (third == kAllPorts) return lpb ? OrderedSet::lpb_all(fourth) : OrderedSet::lpe_all(fourth);
        if (is_valid_al_pa(third)) return lpb ? OrderedSet::lpb(third, fourth) : OrderedSet::lpe(third, fourth);
    }
    return std::nullopt;
}

}  // namespace

const char* ordered_set_names() { return kKnownNames; }

EncodedWord encode_word(const TransmissionWord& word, Disparity rd)
{
    EncodedWord out{};
    for (std::size_t i = 0; i < word.size(); ++i) {
        const Encoded e = encode(word[i], rd);
        out.codes[i] = e.code;
        rd = e.rd_after;
    }
    out.rd_after = rd;
    return out;
}

OrderedSet::OrderedSet(OrderedSetKind kind) : kind_(kind)
{
    if (!fixed(kind) && kind != OrderedSetKind::LipF7F7 && kind != OrderedSetKind::LipF8F7)
        throw std::invalid_argument("ARB(x), OPN and the LIP/LPB/LPE sets with AL_PAs need them: use OrderedSet::arb, "
                                    "opn_full, opn_half, lip_*, lpb*, lpe*");
}

OrderedSet OrderedSet::arb(AlPa x)
{
    return OrderedSet(OrderedSetKind::Arb, 0, require_valid_al_pa(x, "ARB(x)"));
}

OrderedSet OrderedSet::opn_full(AlPa y, AlPa x)
{
    require_valid_al_pa(y, "OPN destination");
    require_valid_al_pa(x, "OPN source");
    if (x == y) throw std::invalid_argument("OPN(yx) with x == y is the half-duplex OPN(yy): use opn_half(" + al_pa_hex(y) + ")");
    return OrderedSet(OrderedSetKind::OpnFull, y, x);
}

OrderedSet OrderedSet::opn_half(AlPa y)
{
    require_valid_al_pa(y, "OPN destination");
    return OrderedSet(OrderedSetKind::OpnHalf, y, y);
}

OrderedSet OrderedSet::lip_initializing(std::optional<AlPa> al_ps)
{
    if (!al_ps) return OrderedSet(OrderedSetKind::LipF7F7);
    return OrderedSet(OrderedSetKind::LipF7, 0, require_valid_al_pa(*al_ps, "LIP(F7,x) source"));
}

OrderedSet OrderedSet::lip_failure(std::optional<AlPa> al_ps)
{
    if (!al_ps) return OrderedSet(OrderedSetKind::LipF8F7);
    return OrderedSet(OrderedSetKind::LipF8, 0, require_valid_al_pa(*al_ps, "LIP(F8,x) source"));
}

OrderedSet OrderedSet::lip_reset(AlPa al_pd, AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LipReset, require_valid_al_pa(al_pd, "LIP(y,x) destination"),
                      require_valid_al_pa(al_ps, "LIP(y,x) source"));
}

OrderedSet OrderedSet::lip_reset_all(AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LipResetAll, 0, require_valid_al_pa(al_ps, "LIP(FF,x) source"));
}

OrderedSet OrderedSet::lpb(AlPa al_pd, AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LpbYx, require_valid_al_pa(al_pd, "LPB(y,x) destination"),
                      require_valid_al_pa(al_ps, "LPB(y,x) source"));
}

OrderedSet OrderedSet::lpb_all(AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LpbFx, 0, require_valid_al_pa(al_ps, "LPB(FF,x) source"));
}

OrderedSet OrderedSet::lpe(AlPa al_pd, AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LpeYx, require_valid_al_pa(al_pd, "LPE(y,x) destination"),
                      require_valid_al_pa(al_ps, "LPE(y,x) source"));
}

OrderedSet OrderedSet::lpe_all(AlPa al_ps)
{
    return OrderedSet(OrderedSetKind::LpeFx, 0, require_valid_al_pa(al_ps, "LPE(FF,x) source"));
}

bool OrderedSet::is_lip() const { return is_lip_kind(kind_); }

bool OrderedSet::is_port_bypass() const { return is_bypass_kind(kind_); }

std::string OrderedSet::name() const
{
    if (is_sequence_kind(kind_)) {
        const TransmissionWord w = characters(Disparity::Minus);
        const char* head = is_lip_kind(kind_) ? "LIP(" : kind_ <= OrderedSetKind::LpbFx ? "LPB(" : "LPE(";
        auto byte_name = [](std::uint8_t b) -> std::string {
            if (b == kNoAlPa) return "F7";
            if (b == kLoopFailure) return "F8";
            if (b == kAllPorts) return "FF";
            return al_pa_hex(b);
        };
        return head + byte_name(w[2].byte) + "," + byte_name(w[3].byte) + ")";
    }
    switch (kind_) {
    case OrderedSetKind::Arb: return "ARB(" + al_pa_hex(x_) + ")";
    case OrderedSetKind::OpnFull: return "OPN(" + al_pa_hex(y_) + "," + al_pa_hex(x_) + ")";
    case OrderedSetKind::OpnHalf: return "OPN(" + al_pa_hex(y_) + ")";
    default: return fixed(kind_)->name;
    }
}

TransmissionWord OrderedSet::characters(Disparity rd) const
{
    switch (kind_) {
    case OrderedSetKind::Arb: return {kK28_5, data_character(kArbSecond), data_character(x_), data_character(x_)};
    case OrderedSetKind::OpnFull:
    case OrderedSetKind::OpnHalf: return {kK28_5, data_character(kOpnSecond), data_character(y_), data_character(x_)};
    default: break;
    }
    if (is_sequence_kind(kind_)) {
        std::uint8_t second = kLipSecond;
        if (is_bypass_kind(kind_)) second = kind_ <= OrderedSetKind::LpbFx ? kLpbSecond : kLpeSecond;
        std::uint8_t third = y_;
        std::uint8_t fourth = x_;
        switch (kind_) {
        case OrderedSetKind::LipF7F7: third = kNoAlPa; fourth = kNoAlPa; break;
        case OrderedSetKind::LipF7: third = kNoAlPa; break;
        case OrderedSetKind::LipF8F7: third = kLoopFailure; fourth = kNoAlPa; break;
        case OrderedSetKind::LipF8: third = kLoopFailure; break;
        case OrderedSetKind::LipResetAll:
        case OrderedSetKind::LpbFx:
        case OrderedSetKind::LpeFx: third = kAllPorts; break;
        default: break;
        }
        return {kK28_5, data_character(second), data_character(third), data_character(fourth)};
    }
    const FixedSet& f = *fixed(kind_);
    std::uint8_t second = f.second;
    if (is_eof(kind_) && rd == Disparity::Plus) second = kEofAfterPlus;
    return {kK28_5, data_character(second), data_character(f.third), data_character(f.third)};
}

OrderedSet OrderedSet::parse(const std::string& name)
{
    const std::string u = upper(name);
    for (const auto& f : kFixedSets)
        if (u == upper(f.name)) return OrderedSet(f.kind);
    if (u == "SOFIL") return OrderedSet(OrderedSetKind::SofI3);

    const auto open = u.find('(');
    if (open == std::string::npos || u.back() != ')') throw unknown(name);
    const std::string head = u.substr(0, open);
    const std::string args = u.substr(open + 1, u.size() - open - 2);
    const auto comma = args.find(',');

    if (head == "ARB" && comma == std::string::npos) {
        const unsigned x = parse_hex_byte(args, name);
        if (x == kArbFairnessFill) return OrderedSet(OrderedSetKind::ArbF0);
        if (x == kArbFF) return OrderedSet(OrderedSetKind::ArbFF);
        return arb(require_valid_al_pa(x, "ARB(x) in '" + name + "'"));
    }
    if (head == "OPN") {
        const unsigned y = require_valid_al_pa(parse_hex_byte(args.substr(0, comma), name), "OPN destination in '" + name + "'");
        if (comma == std::string::npos) return opn_half(static_cast<AlPa>(y));
        const unsigned x = require_valid_al_pa(parse_hex_byte(args.substr(comma + 1), name), "OPN source in '" + name + "'");
        if (x == y)
            throw std::invalid_argument("'" + name + "': OPN(yx) with x == y is the half-duplex OPN(" + al_pa_hex(static_cast<AlPa>(y)) + ")");
        return opn_full(static_cast<AlPa>(y), static_cast<AlPa>(x));
    }
    if ((head == "LIP" || head == "LPB" || head == "LPE") && comma != std::string::npos) {
        const unsigned y = parse_hex_byte(args.substr(0, comma), name);
        const unsigned x = parse_hex_byte(args.substr(comma + 1), name);
        const std::uint8_t second = head == "LIP" ? kLipSecond : head == "LPB" ? kLpbSecond : kLpeSecond;
        if (const auto set = sequence_of(second, static_cast<std::uint8_t>(y), static_cast<std::uint8_t>(x))) return *set;
        throw unknown(name, head == "LIP" ? "LIP takes (F7,F7), (F7,x), (F8,F7), (F8,x), (y,x) or (FF,x), x and y valid AL_PAs"
                                          : head + " takes (y,x) or (FF,x), x and y valid AL_PAs");
    }
    throw unknown(name);
}

std::optional<OrderedSet> OrderedSet::recognise(const TransmissionWord& word, Disparity rd)
{
    if (word[0] != kK28_5) return std::nullopt;
    for (std::size_t i = 1; i < word.size(); ++i)
        if (word[i].is_k) return std::nullopt;
    const std::uint8_t second = word[1].byte;
    const std::uint8_t third = word[2].byte;
    const std::uint8_t fourth = word[3].byte;

    if (second == kOpnSecond) {
        if (!is_valid_al_pa(third) || !is_valid_al_pa(fourth)) return std::nullopt;
        return third == fourth ? opn_half(third) : opn_full(third, fourth);
    }
    if (second == kLipSecond || second == kLpbSecond || second == kLpeSecond) return sequence_of(second, third, fourth);
    if (third != fourth) return std::nullopt;
    if (second == kArbSecond && third != kArbFairnessFill && third != kArbFF) {
        if (!is_valid_al_pa(third)) return std::nullopt;
        return arb(third);
    }
    for (const auto& f : kFixedSets) {
        const OrderedSet candidate(f.kind);
        const TransmissionWord expected = candidate.characters(rd);
        if (expected[1].byte == second && expected[2].byte == third) return candidate;
    }
    return std::nullopt;
}

}  // namespace fcal::phy
