#pragma once
// Transmission words and ordered sets (docs/model.md, "The physical layer: ordered sets"): K28.5, three data
// characters. The EOF delimiters depend on the running disparity at their start, so an ordered set
// only becomes characters once that disparity is known.
#include <array>
#include <optional>
#include <string>

#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/encoding_8b10b.hpp"

namespace fcal::phy {

enum class OrderedSetKind {
    Idle,
    RRdy,
    Arb,      // ARB(x), x a valid AL_PA
    ArbF0,    // fairness fill word
    ArbFF,    // ARBff
    OpnFull,  // OPN(yx): y destination, x source
    OpnHalf,  // OPN(yy)
    Cls,
    SofC1,
    SofI2,
    SofN2,
    SofI3,
    SofN3,
    EofN,
    EofT,
    LipF7F7,
};

using TransmissionWord = std::array<Character, 4>;

struct EncodedWord {
    std::array<std::uint16_t, 4> codes;
    Disparity rd_after;
};

// Encodes four characters in order, each continuing from the previous one's RD.
EncodedWord encode_word(const TransmissionWord& word, Disparity rd);

class OrderedSet {
public:
    // For the kinds without parameters; throws std::invalid_argument for Arb, OpnFull and OpnHalf.
    explicit OrderedSet(OrderedSetKind kind);
    // These throw InvalidAlPa (a std::invalid_argument) for an address that is no valid AL_PA.
    static OrderedSet arb(AlPa x);
    static OrderedSet opn_full(AlPa y, AlPa x);  // also throws when x == y: that is OPN(yy)
    static OrderedSet opn_half(AlPa y);

    // Inverse of name(): "IDLE", "ARB(0xE8)", "OPN(0xE8,0x01)", "OPN(0xE8)", "LIP(F7,F7)"... Names
    // are matched ignoring case; AL_PAs are hex with an optional 0x. ARB(0xF0) and ARB(0xFF) are
    // read as ARB(F0) and ARBff. Throws std::invalid_argument naming the offending text.
    static OrderedSet parse(const std::string& name);

    // The ordered set these characters form when they start at running disparity `rd`, if any.
    // An EOF whose second character does not match `rd` is not recognised.
    static std::optional<OrderedSet> recognise(const TransmissionWord& word, Disparity rd);

    OrderedSetKind kind() const { return kind_; }
    // ARB(x): the arbitrating AL_PA. OPN: the source (for OPN(yy) the same as y()). 0 otherwise.
    AlPa x() const { return x_; }
    // OPN: the destination AL_PA. 0 otherwise.
    AlPa y() const { return y_; }

    std::string name() const;
    TransmissionWord characters(Disparity rd) const;
    EncodedWord encode(Disparity rd) const { return encode_word(characters(rd), rd); }

    friend bool operator==(const OrderedSet& a, const OrderedSet& b)
    {
        return a.kind_ == b.kind_ && a.x_ == b.x_ && a.y_ == b.y_;
    }
    friend bool operator!=(const OrderedSet& a, const OrderedSet& b) { return !(a == b); }

private:
    OrderedSet(OrderedSetKind kind, AlPa y, AlPa x) : kind_(kind), y_(y), x_(x) {}

    OrderedSetKind kind_;
    AlPa y_ = 0;
    AlPa x_ = 0;
};

}  // namespace fcal::phy
