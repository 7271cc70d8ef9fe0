#pragma once
#include <string>

#include "fcal/loop/loop_init_procedure.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::loop {

// A port's processing of one loop initialization frame (the default of loop.init_frame_proc_us):
// docs/loop_init.md, "Timers".
constexpr double kDefaultInitFrameProcessingS = 1e-6;
// The enclosure's detection of a port that stopped sending, before it closes the slot's bypass
// (docs/loop_init.md, "Port bypass circuits"): FC-FS's R_T_TOV, 100 ms.
constexpr double kDefaultBypassDetectS = 0.1;
// E_D_TOV, FC-FS's default: bounds every wait in OPEN-INIT.
constexpr double kDefaultEDTovS = 2.0;

// What an L_Port brings to the loop (docs/loop.md, "Ports and the layer above").
struct PortConfig {
    std::string name;
    phy::AlPa al_pa = 0;
    bool fair = true;
    unsigned incoming_buffers = 1;
    unsigned login_bb_credit = 0;
    bool full_duplex = false;  // open others with OPN(yx) rather than OPN(yy)
    // Close timer: an opener with nothing left to send keeps the circuit open up to this long after
    // its last word, waiting for another frame for the peer (0: close at once).
    double circuit_hold_s = 0;
    // Loop initialization (docs/loop_init.md, "The LPSM in initialization"). Without a hard AL_PA
    // of its own, `init` claims `al_pa` in LIHA.
    LoopInitPortConfig init;
    double init_frame_processing_s = kDefaultInitFrameProcessingS;  // p, per LI frame
    double e_d_tov_s = kDefaultEDTovS;
};

// Login parameters of the other ports, as PLOGI would have told them.
class LoopDirectory {
public:
    virtual ~LoopDirectory() = default;
    virtual unsigned login_bb_credit(phy::AlPa port) const = 0;
    virtual bool on_loop(phy::AlPa port) const = 0;
    // Links (cables, one per node passed) a word crosses from `from` to `to`; the whole ring when
    // they are the same port. Only the bit-error model asks.
    virtual unsigned links(phy::AlPa from, phy::AlPa to) const
    {
        (void)from;
        (void)to;
        return 1;
    }
};

}  // namespace fcal::loop
