#include "fcal/hba/single_frame_transfers.hpp"

#include <utility>

namespace fcal::hba {

SingleFrameTransfers::SingleFrameTransfers(SftEngine engine, const sc_core::sc_time& duration, DmaEngine& dma, WorkOwner& owner)
    : duration_(duration), dma_(dma)
{
    // Only when asked for: the default builds no module, so its runs are those without the option.
    if (engine == SftEngine::Own) own_.emplace("sft", owner);
}

void SingleFrameTransfers::run(Work then)
{
    if (own_) {
        own_->run(duration_, std::move(then));
        return;
    }
    DmaJob job;
    job.transfer = dma_.new_transfer();
    job.fixed = duration_;
    job.done = std::move(then);
    dma_.request(std::move(job));
}

}  // namespace fcal::hba
