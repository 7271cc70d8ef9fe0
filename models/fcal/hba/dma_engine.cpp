#include "fcal/hba/dma_engine.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "fcal/kernel/now.hpp"

namespace fcal::hba {

DmaEngine::DmaEngine(sc_core::sc_module_name name, const DmaParams& params, Transport transport, WorkOwner& owner)
    : sc_module(name), params_(params), sched_overhead_(params.sched_overhead_s, sc_core::SC_SEC), transport_(std::move(transport)), owner_(owner)
{
    if (!(params.bandwidth_bytes_per_s > 0)) throw std::invalid_argument("DMA bandwidth must be positive");
    for (Duration& d : durations_) d.time = sc_core::sc_time(0.0, sc_core::SC_SEC);
    payload_.set_byte_enable_ptr(nullptr);
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
    if (busy_) return;
    if (coasting_) {
        coasting_ = false;
        const sc_core::sc_time& now = kernel::now();
        if (now < free_at_) {
            // The job in progress ends at free_at_: the next one starts then, or now if it carries
            // on the run ahead in progress.
            if (continues_ahead())
                start_next(free_at_);
            else
                notify_end(free_at_ - now);
            return;
        }
    }
    start_next(kernel::now());
}

// The one job waiting may start ahead after the last job of the run ahead in progress.
bool DmaEngine::continues_ahead() const
{
    if (params_.policy != DmaPolicy::Fcfs || waiting_ != 1 || !fifo_.front().starts_ahead) return false;
    return runs_ahead(fifo_.front().done.serial) && ahead_ends_.back() == free_at_;
}

bool DmaEngine::awaited(std::uint64_t serial) const
{
    return std::find(awaited_.begin(), awaited_.end(), serial) != awaited_.end();
}

bool DmaEngine::has_jobs_of(std::uint64_t serial) const
{
    const bool in_progress = busy_ || (coasting_ && free_at_ > kernel::now());
    if (in_progress && current_.done.serial == serial) return true;
    if (runs_ahead(serial)) return true;
    for (const auto& [transfer, jobs] : per_transfer_)
        if (jobs.front().done.serial == serial) return true;  // a transfer's jobs all belong to one exchange
    for (std::size_t i = 0; i < fifo_.size(); ++i)
        if (fifo_[i].done.serial == serial) return true;
    return false;
}

void DmaEngine::await_exchange(std::uint64_t serial)
{
    if (!awaited(serial)) awaited_.push_back(serial);
    if (coasting_ && current_.done.serial == serial && free_at_ > kernel::now()) {
        // Its quiet job in progress now ends with a notification.
        coasting_ = false;
        notify_end(free_at_ - kernel::now());
    }
}

void DmaEngine::stop_awaiting(std::uint64_t serial)
{
    awaited_.erase(std::remove(awaited_.begin(), awaited_.end(), serial), awaited_.end());
}

void DmaEngine::notify_end(const sc_core::sc_time& after)
{
    busy_ = true;
    wake_.notify(after);
}

void DmaEngine::cancel_exchange(std::uint64_t serial)
{
    stop_awaiting(serial);
    if ((busy_ || coasting_) && current_.done.serial == serial) current_.done = Work{};
    if (runs_ahead(serial)) rewind_ahead(kernel::now());
    std::size_t dropped = 0;
    // A transfer's jobs all belong to one exchange.
    for (auto queue = per_transfer_.begin(); queue != per_transfer_.end();) {
        if (queue->second.front().done.serial != serial) {
            ++queue;
            continue;
        }
        dropped += queue->second.size();
        queue = per_transfer_.erase(queue);
    }
    dropped += fifo_.erase_if([serial](const DmaJob& j) { return j.done.serial == serial; });
    waiting_ -= dropped;
}

bool DmaEngine::pick(DmaJob& out)
{
    if (params_.policy == DmaPolicy::Fcfs) {
        if (fifo_.empty()) return false;
        out = fifo_.take_front();
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

// bytes / bandwidth, computed once per size: the conversion to sc_time is the costly part.
const sc_core::sc_time& DmaEngine::transfer_time(std::uint32_t bytes)
{
    for (const Duration& d : durations_)
        if (d.bytes == bytes) return d.time;
    durations_[1] = durations_[0];
    durations_[0] = {bytes, sc_core::sc_time(bytes / params_.bandwidth_bytes_per_s, sc_core::SC_SEC)};
    return durations_[0].time;
}

// The data really cross the TLM socket; the engine's own timing is the bandwidth.
void DmaEngine::transfer(const DmaJob& job)
{
    if (job.bytes == 0) return;
    if (scratch_.size() < job.bytes) scratch_.resize(job.bytes);
    payload_.set_command(job.command);
    payload_.set_address(job.address);
    payload_.set_data_ptr(scratch_.data());
    payload_.set_data_length(job.bytes);
    payload_.set_streaming_width(job.bytes);
    payload_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time ignored = sc_core::SC_ZERO_TIME;
    transport_(payload_, ignored);
    if (payload_.is_response_error())
        SC_REPORT_ERROR("fcal/hba", (std::string(name()) + ": DMA transfer refused: " + payload_.get_response_string()).c_str());
}

// The next job starts at `start`: now, or later when it carries on a run ahead. Under FCFS a run of
// jobs of one exchange that may run ahead (DmaJob::starts_ahead, ends_ahead) starts in this one
// activation, each job at the end of the one before: the jobs queued behind them do not change
// their times (docs/hba.md, "Fetching ahead").
void DmaEngine::start_next(sc_core::sc_time start)
{
    const sc_core::sc_time now = kernel::now();
    while (pick(current_)) {
        --waiting_;
        transfer(current_);
        sc_core::sc_time t = current_.fixed + transfer_time(current_.bytes);
        if (current_.first_of_transfer) t += sched_overhead_;
        busy_time_ += t;
        const sc_core::sc_time end = start + t;
        const bool hand_ahead = current_.ends_ahead && params_.policy == DmaPolicy::Fcfs;
        if (start == now && hand_ahead) {  // a run ahead begins
            ahead_serial_ = current_.done.serial;
            ahead_ends_.clear();
        }
        if (start > now || hand_ahead) ahead_ends_.push_back(end);
        if (!hand_ahead) {
            if (current_.quiet && waiting_ == 0 && !awaited(current_.done.serial)) {
                coasting_ = true;
                free_at_ = end;
                return;
            }
            notify_end(end - now);
            return;
        }
        Work done = std::move(current_.done);
        current_.done = Work{};
        owner_.work_ahead(done, end);
        start = end;
        const bool goes_on = !fifo_.empty() && fifo_.front().starts_ahead && fifo_.front().done.serial == ahead_serial_;
        if (goes_on) continue;
        // Free when the last job handed over ahead ends.
        if (waiting_ == 0) {
            coasting_ = true;
            free_at_ = end;
        } else {
            notify_end(end - now);
        }
        return;
    }
}

// The exchange of the run ahead was cancelled at `now`: its jobs that had not started by now are
// dropped, and the engine is free when the one in progress ends, as if they had waited.
void DmaEngine::rewind_ahead(const sc_core::sc_time& now)
{
    std::size_t i = 0;
    while (ahead_ends_[i] <= now) ++i;
    const sc_core::sc_time in_progress_end = ahead_ends_[i];
    const sc_core::sc_time last_end = ahead_ends_.back();
    if (in_progress_end == last_end) return;
    busy_time_ -= last_end - in_progress_end;
    ahead_ends_.resize(i + 1);
    if (coasting_)
        free_at_ = in_progress_end;
    else
        notify_end(in_progress_end - now);  // earlier than the end notified
}

void DmaEngine::finish_due()
{
    if (wake_.take_due()) end_job();
}

void DmaEngine::step()
{
    if (wake_.take_stale()) return;
    end_job();
}

void DmaEngine::end_job()
{
    busy_ = false;
    Work done = std::move(current_.done);
    const bool hand_over = done.step != 0 && (!current_.quiet || awaited(done.serial));
    start_next(kernel::now());
    if (hand_over) owner_.work_done(done);
}

}  // namespace fcal::hba
