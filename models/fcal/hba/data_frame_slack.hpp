#pragma once
// How long after its EOF an HBA may be handed a frame (loop::PortUser::frame_slack; docs/loop.md,
// "Fast path"): a data frame's processing frees its buffer and hands the payload to the DMA engine,
// nothing of it showing before its end, so it may be taken then; any other frame may start what shows
// at once (a response completes an I/O, a command reaches the disk), so at its EOF.
#include <systemc>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/loop/loop_frame.hpp"

namespace fcal::hba {

inline sc_core::sc_time data_frame_slack(const loop::LoopFrame& frame, const sc_core::sc_time& frame_proc)
{
    return fcp::fc_frame_of(frame).iu == fcp::InformationUnit::Data ? frame_proc : sc_core::SC_ZERO_TIME;
}

}  // namespace fcal::hba
