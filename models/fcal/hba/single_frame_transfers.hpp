#pragma once
// An HBA's single-frame transfers (docs/hba.md, "Single-frame transfers"): the FCP_RSP
// delivered to host memory at the initiator, the FCP_CMND delivered to the disk controller at the
// target, each taking single_frame_transfer. `dma` (the default) queues them on the HBA's DMA engine
// among its data jobs; `own` gives them an engine of their own, a server that takes them first come,
// first served beside the DMA engine (the SFT queue beside the DMA queue of the thesis's HBA).
#include <optional>
#include <systemc>

#include "fcal/hba/dma_engine.hpp"
#include "fcal/hba/service_queue.hpp"
#include "fcal/hba/sft_engine.hpp"
#include "fcal/hba/work.hpp"

namespace fcal::hba {

class SingleFrameTransfers {
public:
    // Built inside the HBA's constructor: with `own`, the engine is a module of the HBA named "sft".
    SingleFrameTransfers(SftEngine engine, const sc_core::sc_time& duration, DmaEngine& dma, WorkOwner& owner);

    // One single-frame transfer; `then` goes to the owner when it is done. On the DMA engine it is a
    // transfer of its own (Work::serial lets the engine drop it with its exchange).
    void run(Work then);
    // A transfer on the own engine that ends in this instant ends now, in the caller's activation
    // (ServiceQueue::finish_due); on the DMA engine, DmaEngine::finish_due does it.
    void finish_due()
    {
        if (own_) own_->finish_due();
    }
    // Time the own engine was busy, seconds (0 with `dma`: the DMA engine's busy time holds it).
    double busy_s() const { return own_ ? own_->busy_s() : 0.0; }

private:
    sc_core::sc_time duration_;
    DmaEngine& dma_;
    std::optional<ServiceQueue> own_;
};

}  // namespace fcal::hba
