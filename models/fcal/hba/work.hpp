#pragma once
// What an HBA does when one of its servers (a processor, the DMA engine) finishes a job: a step named
// by the HBA's own number and the few things it needs, handed back to the HBA as a WorkOwner. A plain
// value, so that queueing work per frame builds no closure and allocates nothing (docs/kernel.md,
// "No allocation per frame").
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <systemc>

#include "fcal/loop/loop_frame.hpp"

namespace fcal::hba {

struct Work {
    std::uint8_t step = 0;  // the owner's step; 0: nothing to do
    std::uint16_t id = 0;   // the exchange's ID at this HBA (OX_ID or RX_ID)
    bool last = false;      // e.g. the last frame of a burst or of the read data
    std::uint64_t serial = 0;  // the exchange's serial: it may have been aborted and its ID reused since
    loop::FrameRef frame;
};

class WorkOwner {
public:
    virtual ~WorkOwner() = default;
    virtual void work_done(Work& work) = 0;
    // A job that ends at `end` (later than now), handed over now: only for the jobs an owner marks
    // so (DmaJob::ends_ahead); the owner does now what it would do then, timed for then.
    virtual void work_ahead(Work& /*work*/, const sc_core::sc_time& /*end*/)
    {
        throw std::logic_error("a DMA job ended ahead for an owner that takes no work ahead");
    }
};

}  // namespace fcal::hba
