#include "fcal/loop/word_spacing.hpp"

#include <algorithm>

namespace fcal::loop {

using sc_core::sc_time;

void WordSpacing::ended(const Word& ending, const sc_time& at)
{
    if (ending.is_fill()) return;
    sent_nonfill_ = true;
    last_nonfill_end_ = at;
    if (ending.kind == WordKind::Frame) {
        sent_frame_ = true;
        last_frame_end_ = last_nonfill_end_;
    }
}

void WordSpacing::repeated(const std::optional<sc_time>& primitive_or_frame_end, const std::optional<sc_time>& frame_end)
{
    if (frame_end) {
        sent_frame_ = true;
        last_frame_end_ = *frame_end;
    }
    if (primitive_or_frame_end) {
        sent_nonfill_ = true;
        last_nonfill_end_ = *primitive_or_frame_end;
    }
}

sc_time WordSpacing::primitive_earliest(const sc_time& now, const Word& current, bool own) const
{
    // A repeated primitive or frame still on the output ends now, when the port starts its own.
    if (!own && !current.is_fill()) return now + timing_.words(kPrimitiveGapWords);
    return sent_nonfill_ ? last_nonfill_end_ + timing_.words(kPrimitiveGapWords) : sc_core::SC_ZERO_TIME;
}

sc_time WordSpacing::frame_earliest(const sc_time& now, const Word& current, bool own) const
{
    sc_time t = primitive_earliest(now, current, own);
    if (!own && current.kind == WordKind::Frame) return std::max(t, now + timing_.words(kFrameGapWords));
    if (sent_frame_) t = std::max(t, last_frame_end_ + timing_.words(kFrameGapWords));
    return t;
}

}  // namespace fcal::loop
