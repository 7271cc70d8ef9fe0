#include "fcal/host/device_driver.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <string>

namespace fcal::host {

using sc_core::sc_time;

void validate(const DeviceDriverParams& params)
{
    if (!(params.arrival_processing_s >= 0))
        throw std::invalid_argument("driver arrival_processing_s must be >= 0, got " +
                                    std::to_string(params.arrival_processing_s));
    if (!(params.completion_processing_s >= 0))
        throw std::invalid_argument("driver completion_processing_s must be >= 0, got " +
                                    std::to_string(params.completion_processing_s));
    if (params.max_outstanding == 0) throw std::invalid_argument("driver max_outstanding must be >= 1");
}

DeviceDriver::DeviceDriver(sc_core::sc_module_name name, const DeviceDriverParams& params)
    : sc_module(name), params_(params), per_disk_(params.disk_outstanding)
{
    validate(params_);
    arrival_time_ = sc_time(params_.arrival_processing_s, sc_core::SC_SEC);
    completion_time_ = sc_time(params_.completion_processing_s, sc_core::SC_SEC);
    SC_METHOD(cpu_done);
    sensitive << cpu_event_;
    dont_initialize();
}

void DeviceDriver::submit(hba::IoRequest* io)
{
    ++submitted_;
    ++arrivals_on_cpu_;
    enqueue(Job{io, JobKind::Arrival, {}});
}

void DeviceDriver::io_complete(hba::IoRequest* io)
{
    if (in_hba_ == 0) {
        SC_REPORT_ERROR(name(), "io_complete for a request the HBA was never given");
        return;
    }
    free_slot(io);
    ++completions_on_cpu_;
    enqueue(Job{io, JobKind::Completion, {}});
}

void DeviceDriver::io_aborted(hba::IoRequest* io, const std::string& reason)
{
    if (in_hba_ == 0) {
        SC_REPORT_ERROR(name(), "io_aborted for a request the HBA was never given");
        return;
    }
    free_slot(io);
    ++completions_on_cpu_;
    enqueue(Job{io, JobKind::Abort, reason});
}

// A request left the HBA: the next waiting one takes its place at once, then the next one waiting
// for its disk (if any) goes on.
void DeviceDriver::free_slot(hba::IoRequest* io)
{
    --in_hba_;
    if (!waiting_.empty()) {
        hba::IoRequest* next = waiting_.front();
        waiting_.pop_front();
        to_hba(next);
    }
    if (hba::IoRequest* next = per_disk_.release(io->target)) pass(next);
}

void DeviceDriver::enqueue(const Job& job)
{
    cpu_queue_.push_back(job);
    if (!cpu_busy_) start_cpu();
}

void DeviceDriver::start_cpu()
{
    const Job& job = cpu_queue_.front();
    cpu_busy_ = true;
    // A zero processing time still goes through the event (one delta), which keeps the order of
    // requests and completions without recursion.
    cpu_event_.notify(job.kind == JobKind::Arrival ? arrival_time_ : completion_time_);
}

void DeviceDriver::cpu_done()
{
    const Job job = std::move(cpu_queue_.front());
    cpu_queue_.pop_front();
    cpu_busy_ = false;
    // Start the next job first: what we call below may submit more work.
    if (!cpu_queue_.empty()) start_cpu();

    switch (job.kind) {
    case JobKind::Arrival:
        --arrivals_on_cpu_;
        dispatch(job.io);
        break;
    case JobKind::Abort:
        --completions_on_cpu_;
        if (job.io->retries < params_.retries) {
            ++job.io->retries;
            ++retries_;
            dispatch(job.io);
            break;
        }
        ++failed_;
        job.io->failure = job.reason + " (given up after " + std::to_string(job.io->retries) + " retries)";
        job.io->completed = sc_core::sc_time_stamp();
        if (on_complete_) on_complete_(job.io);
        break;
    case JobKind::Completion:
        --completions_on_cpu_;
        if (job.io->check_condition) {
            // The drive failed (docs/faults.md, "Scheduled events"): asking it again
            // cannot help, so the I/O fails at once.
            ++failed_;
            job.io->failure = "disk " + std::to_string(job.io->disk) + ": CHECK CONDITION, sense key HARDWARE ERROR (the drive failed)";
            job.io->completed = sc_core::sc_time_stamp();
            if (on_complete_) on_complete_(job.io);
            break;
        }
        ++completed_;
        job.io->completed = sc_core::sc_time_stamp();
        if (on_complete_) on_complete_(job.io);
        break;
    }
}

void DeviceDriver::dispatch(hba::IoRequest* io)
{
    if (per_disk_.admit(io)) pass(io);
}

void DeviceDriver::pass(hba::IoRequest* io)
{
    if (waiting_.empty() && in_hba_ < params_.max_outstanding) {
        to_hba(io);
    } else {
        waiting_.push_back(io);
        max_waiting_ = std::max(max_waiting_, waiting_.size());
    }
}

void DeviceDriver::to_hba(hba::IoRequest* io)
{
    if (hba_ == nullptr) {
        SC_REPORT_ERROR(name(), "no HBA connected (set_hba)");
        return;
    }
    ++in_hba_;
    io->to_hba = sc_core::sc_time_stamp();
    hba_->submit(io);
}

void DeviceDriver::report(nlohmann::json& j) const { j["retries"] = retries_; }

void DeviceDriver::print_state(std::ostream& out) const
{
    out << " (driver: " << in_hba() << " in the HBA, " << waiting() << " waiting";
    if (waiting_for_disk() > 0) out << ", " << waiting_for_disk() << " waiting for their disk";
    out << ")";
}

}  // namespace fcal::host
