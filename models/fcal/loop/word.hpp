#pragma once
// What one port transmits from one edge change to the next (docs/loop.md, "Edge changes"):
// a fill word that lasts
// until the next change (IDLE, ARB(x), ARB(F0), ARBff), a primitive sequence that lasts likewise (LIP,
// LPB, LPE; docs/loop_init.md, "LIP, LPB and LPE"), a one-word primitive signal (R_RDY, OPN, CLS),
// or a whole frame (SOF..EOF, its length in words). The 8b/10b characters are not needed for timing;
// names follow the ordered-set names of phy/.
#include <cstdint>
#include <memory>
#include <string>

#include "fcal/loop/loop_frame.hpp"
#include "fcal/phy/al_pa.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

// Lip, Lpb and Lpe are the primitive sequences, their y and x bytes as the ordered set carries them
// (LIP(F7,F7): y = F7, x = F7; LPB(FF,x): y = FF).
enum class WordKind : std::uint8_t { Idle, Arb, RRdy, Opn, Cls, Frame, Lip, Lpb, Lpe };

struct Word {
    WordKind kind = WordKind::Idle;
    phy::AlPa y = 0;  // ARB(x): the arbitrating AL_PA (F0, FF special); OPN: destination; LIP/LPB/LPE: y
    phy::AlPa x = 0;  // OPN: source for full duplex OPN(yx); equal to y for half duplex OPN(yy); LIP/LPB/LPE: x
    // The port that sent a primitive signal (not part of the ordered set, which does not say: only
    // the bit-error model uses it, to count the links the word crossed; docs/faults.md, "Faults
    // and recovery"). Kept before `frame`, in what would be padding.
    phy::AlPa sender = 0;
    FrameRef frame;  // Frame only

    static Word idle() { return {}; }
    static Word arb(phy::AlPa a) { return {WordKind::Arb, a, a, 0, nullptr}; }
    static Word r_rdy() { return {WordKind::RRdy, 0, 0, 0, nullptr}; }
    static Word cls() { return {WordKind::Cls, 0, 0, 0, nullptr}; }
    static Word opn(phy::AlPa dest, phy::AlPa src, bool full_duplex) { return {WordKind::Opn, dest, full_duplex ? src : dest, 0, nullptr}; }
    static Word frame_of(FrameRef f) { return {WordKind::Frame, 0, 0, 0, std::move(f)}; }
    // `set` a primitive sequence (std::invalid_argument otherwise).
    static Word sequence(const phy::OrderedSet& set);

    bool is_fill() const { return kind == WordKind::Idle || kind == WordKind::Arb; }
    bool is_sequence() const { return kind == WordKind::Lip || kind == WordKind::Lpb || kind == WordKind::Lpe; }
    // The ordered set of a primitive sequence (std::invalid_argument for any other word).
    phy::OrderedSet ordered_set() const;
    bool is_arb(phy::AlPa a) const { return kind == WordKind::Arb && y == a; }
    bool opn_full_duplex() const { return kind == WordKind::Opn && x != y; }
    // Length on the wire in words; fill words and primitive sequences have no length of their own.
    std::uint64_t words() const;

    bool operator==(const Word& o) const { return kind == o.kind && y == o.y && x == o.x && frame == o.frame; }
    bool operator!=(const Word& o) const { return !(*this == o); }
};

// Trace names: IDLE, ARB(E8), ARB(F0), ARBff, R_RDY, OPN(E8,01), OPN(E8,E8), CLS, SOFi3 / SOFn3 /
// SOFil, and the primitive sequences as phy::OrderedSet names them (LIP(F7,F7), LIP(F7,0x01)...).
std::string name(const Word& w);

}  // namespace fcal::loop
