#pragma once
// FC-2 word spacing at one port's transmitter (docs/loop.md, "Word spacing"): at least
// six words (fill words or primitives) between two frames, and two fill words before and after a
// primitive signal. It remembers when the last primitive and the last frame left the port, and says
// when the next one may start.
#include <optional>
#include <systemc>

#include "fcal/loop/word.hpp"
#include "fcal/phy/link_timing.hpp"

namespace fcal::loop {

class WordSpacing {
public:
    static constexpr unsigned kFrameGapWords = 6;      // fill words (or primitives) between frames
    static constexpr unsigned kPrimitiveGapWords = 2;  // fill words before and after a primitive signal

    explicit WordSpacing(const phy::LinkTiming& timing) : timing_(timing) {}

    // The word `ending` stops being transmitted at `at`.
    void ended(const Word& ending, const sc_core::sc_time& at);
    // A run of words repeated: the last primitive or frame in it (or before it) ended at
    // `primitive_or_frame_end`, the last frame at `frame_end` (either may be none).
    void repeated(const std::optional<sc_core::sc_time>& primitive_or_frame_end, const std::optional<sc_core::sc_time>& frame_end);

    // Earliest start of an own primitive or frame, at `now`, while `current` is on the output
    // (`own`: a word of this port's own, rather than one it repeats).
    sc_core::sc_time primitive_earliest(const sc_core::sc_time& now, const Word& current, bool own) const;
    sc_core::sc_time frame_earliest(const sc_core::sc_time& now, const Word& current, bool own) const;
    // End of the last primitive or frame the port transmitted (zero if none).
    sc_core::sc_time last_end() const { return last_nonfill_end_; }

private:
    phy::LinkTiming timing_;
    bool sent_nonfill_ = false, sent_frame_ = false;
    sc_core::sc_time last_nonfill_end_, last_frame_end_;
};

}  // namespace fcal::loop
