#pragma once
// How long a loop initialization takes, from first principles (docs/loop_init.md, "Initialization
// time"): the formula the simulated initialization is validated against. SystemC-free; times in
// seconds.
//
// With N ports taking part, word time w, the loop's round trip R on the repeat path (every node's
// port delay and all cable), frame processing p per port and LI frame, an LI frame of F words goes
// round in
//     trip(F) = N (F w + p) + R
// (store and forward: each port receives the whole frame, processes it, retransmits it; the master
// processes it too before it sends the next). The whole initialization, from the originator's first
// LIP to the master receiving its CLS back:
//     T = max(R + 2 w, 12 w) + 2 w + W           LIPs back and recognised, at least 12 sent; 2 fill words; W idle wait
//       + (N + k) (12 w + p) + R + D             LISM: k ports from the originator on to the master
//       + R                                      ARB(F0) round trip
//       + 4 trip(14)                             LIFA, LIPA, LIHA, LISA
//       + 2 trip(42)                             LIRP, LILP (when every port supports them)
//       + R                                      CLS round trip
// where D is the repeat-path delay from the originator to the master (0 when it is the master).
// Recognition: a port acts on a word when its start reaches it (docs/loop.md, "Timing and round
// trip"), so on the third identical word 2 w after the run's front; the LISM then waits the word
// spacing's two fill words after the last LIP (docs/loop.md, "Word spacing").
#include <cstdint>

#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {

// The fill words between an originator's last LIP and its LISM (WordSpacing::kPrimitiveGapWords).
constexpr unsigned kGapAfterLipsWords = 2;
// From the front of a primitive sequence run reaching a port to the port recognising it.
constexpr double lip_recognition_s(double word_s) { return (phy::kPrimitiveSequenceRecognition - 1) * word_s; }

struct LoopInitTimingInput {
    unsigned ports = 0;                  // N: L_Ports taking part (each stores and forwards every LI frame)
    double word_s = 0;                   // w
    double round_trip_s = 0;             // R
    double frame_processing_s = 0;       // p: loop.init_frame_proc_us
    double lism_wait_s = 0;              // W: IDLEs between the originator's last LIP and its LISM
    unsigned master_offset = 0;          // k: ports downstream from the originator to the master (< N)
    double originator_to_master_s = 0;   // D: repeat-path delay over those k hops
    bool position_maps = true;           // LIRP and LILP take place
};

struct LoopInitTiming {
    double lip_s = 0;           // first LIP -> the originator may send its LISM (W included)
    double lism_s = 0;          // its LISM leaves -> the master has its own back and processed it
    double arb_f0_s = 0;
    double address_s = 0;       // LIFA, LIPA, LIHA, LISA
    double position_map_s = 0;  // LIRP, LILP
    double cls_s = 0;
    double total_s = 0;
};

// One LI frame of `frame_words` words round the loop, from the master's sending it to its sending the next.
double loop_init_frame_trip_s(unsigned ports, std::uint64_t frame_words, double word_s, double frame_processing_s,
                              double round_trip_s);

// std::invalid_argument for fewer than one port, k >= N, or a negative or non-finite time.
LoopInitTiming loop_init_timing(const LoopInitTimingInput& in);

}  // namespace fcal::loop
