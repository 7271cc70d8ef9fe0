#include "fcal/hba/dma_engine.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcal::hba {

DmaEngine::DmaEngine(sc_core::sc_module_name name, const DmaParams& params, Transport transport)
    : sc_module(name), params_(params), transport_(std::move(transport))
{
    if (!(params.bandwidth_bytes_per_s > 0)) throw std::invalid_argument("DMA bandwidth must be positive");
    SC_METHOD(step);
    sensitive << done_;
    dont_initialize();
}

void DmaEngine::request(DmaJob job)
{
    ++waiting_;
    if (params_.policy == DmaPolicy::Fcfs)
        fifo_.push_back(std::move(job));
    else
        per_transfer_[job.transfer].push_back(std::move(job));
    if (!busy_) start_next();
}

void DmaEngine::cancel_transfer(std::uint64_t transfer)
{
    if (busy_ && current_.transfer == transfer) current_.done = nullptr;
    std::size_t dropped = 0;
    const auto queue = per_transfer_.find(transfer);
    if (queue != per_transfer_.end()) {
        dropped += queue->second.size();
        per_transfer_.erase(queue);
    }
    const auto kept = std::remove_if(fifo_.begin(), fifo_.end(), [transfer](const DmaJob& j) { return j.transfer == transfer; });
    dropped += static_cast<std::size_t>(fifo_.end() - kept);
    fifo_.erase(kept, fifo_.end());
    waiting_ -= dropped;
}

bool DmaEngine::pick(DmaJob& out)
{
    if (params_.policy == DmaPolicy::Fcfs) {
        if (fifo_.empty()) return false;
        out = std::move(fifo_.front());
        fifo_.pop_front();
        return true;
    }
    if (per_transfer_.empty()) return false;
    // The next transfer after the one served last, wrapping round.
    auto it = per_transfer_.upper_bound(rr_last_);
    if (it == per_transfer_.end()) it = per_transfer_.begin();
    rr_last_ = it->first;
    out = std::move(it->second.front());
    it->second.pop_front();
    if (it->second.empty()) per_transfer_.erase(it);
    return true;
}

void DmaEngine::start_next()
{
    if (!pick(current_)) return;
    --waiting_;
    busy_ = true;
    if (current_.bytes > 0) {
        // The data really crosses the TLM socket; the engine's own timing is the bandwidth.
        if (scratch_.size() < current_.bytes) scratch_.resize(current_.bytes);
        tlm::tlm_generic_payload gp;
        gp.set_command(current_.command);
        gp.set_address(current_.address);
        gp.set_data_ptr(scratch_.data());
        gp.set_data_length(current_.bytes);
        gp.set_streaming_width(current_.bytes);
        gp.set_byte_enable_ptr(nullptr);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time ignored = sc_core::SC_ZERO_TIME;
        transport_(gp, ignored);
        if (gp.is_response_error())
            SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": DMA transfer refused: " + gp.get_response_string()).c_str());
    }
    sc_core::sc_time t = current_.fixed + sc_core::sc_time(current_.bytes / params_.bandwidth_bytes_per_s, sc_core::SC_SEC);
    if (current_.first_of_transfer) t += params_.sched_overhead;
    busy_s_ += t.to_seconds();
    done_.notify(t);
}

void DmaEngine::step()
{
    busy_ = false;
    auto done = std::move(current_.done);
    start_next();
    if (done) done();
}

}  // namespace fcal::hba
