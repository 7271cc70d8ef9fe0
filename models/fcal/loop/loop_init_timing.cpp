#include "fcal/loop/loop_init_timing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fcal/loop/loop_init_frame.hpp"
#include "fcal/loop/loop_init_procedure.hpp"
#include "fcal/phy/ordered_set.hpp"

namespace fcal::loop {
namespace {

void require_time(double v, const char* what)
{
    if (!std::isfinite(v) || v < 0) throw std::invalid_argument(std::string("loop initialization timing: ") + what + " must be a finite time >= 0");
}

std::uint64_t frame_words_of(LiId id) { return phy::frame_words(LoopInitFrame::payload_bytes_of(id)); }

}  // namespace

double loop_init_frame_trip_s(unsigned ports, std::uint64_t frame_words, double word_s, double frame_processing_s,
                              double round_trip_s)
{
    return ports * (static_cast<double>(frame_words) * word_s + frame_processing_s) + round_trip_s;
}

LoopInitTiming loop_init_timing(const LoopInitTimingInput& in)
{
    if (in.ports < 1) throw std::invalid_argument("loop initialization timing: at least one port");
    if (in.master_offset >= in.ports) throw std::invalid_argument("loop initialization timing: master offset must be below the port count");
    require_time(in.word_s, "word time");
    require_time(in.round_trip_s, "round trip");
    require_time(in.frame_processing_s, "frame processing");
    require_time(in.lism_wait_s, "LISM wait");
    require_time(in.originator_to_master_s, "originator-to-master delay");

    const double w = in.word_s;
    const double r = in.round_trip_s;
    const double p = in.frame_processing_s;
    LoopInitTiming t;
    t.lip_s = std::max(r + lip_recognition_s(w), kLipsBeforeLism * w) + kGapAfterLipsWords * w + in.lism_wait_s;
    const double lism_words = static_cast<double>(frame_words_of(LiId::Lism));
    t.lism_s = (in.ports + in.master_offset) * (lism_words * w + p) + r + in.originator_to_master_s;
    t.arb_f0_s = r;
    t.address_s = 4 * loop_init_frame_trip_s(in.ports, frame_words_of(LiId::Lifa), w, p, r);
    t.position_map_s = in.position_maps ? 2 * loop_init_frame_trip_s(in.ports, frame_words_of(LiId::Lirp), w, p, r) : 0;
    t.cls_s = r;
    t.total_s = t.lip_s + t.lism_s + t.arb_f0_s + t.address_s + t.position_map_s + t.cls_s;
    return t;
}

}  // namespace fcal::loop
