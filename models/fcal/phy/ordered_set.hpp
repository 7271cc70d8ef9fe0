#pragma once
// Transmission words and ordered sets (docs/model.md, "The physical layer: ordered sets"): K28.5, three data
// characters. The EOF delimiters depend on the running disparity at their start, so an ordered set
// only becomes characters once that disparity is known. The primitive sequences of loop
// initialization and port bypass (LIP, LPB, LPE) are in docs/loop_init.md, "LIP, LPB and LPE".
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
    // Loop initialization primitive sequences (LIP, K28.5 D21.0 y x).
    LipF7F7,       // LIP(F7,F7): initializing, no valid AL_PA
    LipF7,         // LIP(F7,x): initializing, x the sender's AL_PA
    LipF8F7,       // LIP(F8,F7): loop failure at the sender's receiver, no valid AL_PA
    LipF8,         // LIP(F8,x): loop failure, x the sender's AL_PA
    LipReset,      // LIP(y,x): x asks port y to reset
    LipResetAll,   // LIP(FF,x): x asks every port to reset
    // Port bypass primitive sequences (K28.5 D9.0 y x / K28.5 D5.0 y x).
    LpbYx,  // LPB(y,x): x bypasses port y
    LpbFx,  // LPB(FF,x): x bypasses every port but itself
    LpeYx,  // LPE(y,x): x enables port y
    LpeFx,  // LPE(FF,x): x enables every port
};

using TransmissionWord = std::array<Character, 4>;

// Every name OrderedSet::parse knows, as one comma-separated list ("IDLE, R_RDY, ARB(x), ..."), for
// help texts and error messages.
const char* ordered_set_names();

// A receiver acts on a primitive sequence once it has received this many identical ordered sets of
// it in a row (FC-PH's rule for primitive sequences, which FC-AL applies to LIP, LPB and LPE).
constexpr unsigned kPrimitiveSequenceRecognition = 3;

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
    // LIP(F7,F7) without an AL_PA, LIP(F7,x) with one.
    static OrderedSet lip_initializing(std::optional<AlPa> al_ps);
    // LIP(F8,F7) / LIP(F8,x): the sender's receiver lost the signal.
    static OrderedSet lip_failure(std::optional<AlPa> al_ps);
    static OrderedSet lip_reset(AlPa al_pd, AlPa al_ps);
    static OrderedSet lip_reset_all(AlPa al_ps);
    static OrderedSet lpb(AlPa al_pd, AlPa al_ps);
    static OrderedSet lpb_all(AlPa al_ps);
    static OrderedSet lpe(AlPa al_pd, AlPa al_ps);
    static OrderedSet lpe_all(AlPa al_ps);

    // Inverse of name(): "IDLE", "ARB(0xE8)", "OPN(0xE8,0x01)", "OPN(0xE8)", "LIP(F7,F7)",
    // "LIP(F7,0x01)", "LIP(F8,F7)", "LIP(F8,0x01)", "LIP(0xE8,0x01)", "LIP(FF,0x01)", "LPB(0xE8,0x01)",
    // "LPB(FF,0x01)", "LPE(0xE8,0x01)", "LPE(FF,0x01)"... Names are matched ignoring case; bytes are
    // hex with an optional 0x. ARB(0xF0) and ARB(0xFF) are read as ARB(F0) and ARBff; "SOFil" (the
    // loop initialization frames' delimiter, the same characters as SOFi3) is read as SOFi3. Throws
    // std::invalid_argument naming the offending text.
    static OrderedSet parse(const std::string& name);

    // The ordered set these characters form when they start at running disparity `rd`, if any.
    // An EOF whose second character does not match `rd` is not recognised.
    static std::optional<OrderedSet> recognise(const TransmissionWord& word, Disparity rd);

    OrderedSetKind kind() const { return kind_; }
    // ARB(x): the arbitrating AL_PA. OPN: the source (for OPN(yy) the same as y()). LIP(F7,x),
    // LIP(F8,x), LIP(y,x), LIP(FF,x), LPB, LPE: the sender's AL_PA (AL_PS). 0 otherwise.
    AlPa x() const { return x_; }
    // OPN: the destination AL_PA. LIP(y,x), LPB(y,x), LPE(y,x): the addressed port (AL_PD). 0 otherwise.
    AlPa y() const { return y_; }
    bool is_lip() const;
    bool is_port_bypass() const;  // LPB or LPE
    // A primitive sequence: acted on only once received kPrimitiveSequenceRecognition times in a row.
    bool is_primitive_sequence() const { return is_lip() || is_port_bypass(); }

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
