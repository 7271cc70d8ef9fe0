#pragma once
// The HBA's device driver on the storage controller (docs/hba.md, "The device driver and host
// memory").
//
// One driver CPU does the work on both paths, first come, first served: each submitted request
// costs the arrival-processing time, each completion the completion-processing time (either may
// be zero; the order is kept all the same). After arrival processing a request goes to the HBA if
// fewer than `max_outstanding` are there, else it waits in a FIFO. A completion from the HBA frees
// its slot at once (the next waiting request goes to the HBA in that instant, before the CPU has
// processed the completion), then queues for completion processing, after which the workload's
// callback sees it.
//
// With `disk_outstanding` above 0 (docs/hba.md, "Outstanding commands per disk"), a
// processed request first passes DiskOutstandingLimit: at most that many requests per disk are past
// it (in the FIFO or the HBA); the others wait for their disk, and a request that leaves the HBA lets
// the next one waiting for its disk on (after the FIFO's head has taken the HBA slot it freed).
//
// Recovery (docs/faults.md, "FCP recovery"): an I/O whose exchange the HBA
// aborted frees its slot like a completion and queues for completion processing, at whose end it is
// issued again (back through the FIFO when the HBA is full) if it has been retried fewer than
// `retries` times, else reported to the workload as failed, with the reason.
// An I/O whose FCP_RSP says CHECK CONDITION (a failed drive, docs/faults.md, "Scheduled events") is
// reported failed after its completion processing, without a retry.
//
// Reentrancy: the HBA's submit() may be called from inside its own io_complete() call, and the
// completion callback may call submit() again.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <systemc>

#include <nlohmann/json.hpp>

#include "fcal/hba/io_request.hpp"
#include "fcal/host/disk_outstanding_limit.hpp"
#include "fcal/kernel/ring_queue.hpp"
#include "fcal/host/io_target.hpp"

namespace fcal::host {

// No defaults of their own (the simulator's parameter table holds them, driver.* and
// initiator.max_outstanding): a DeviceDriverParams{} fails validate() until max_outstanding is set.
struct DeviceDriverParams {
    double arrival_processing_s{};
    double completion_processing_s{};
    unsigned max_outstanding{};  // requests in the HBA at once
    unsigned retries{};          // reissues of an I/O after aborts before it fails
    unsigned disk_outstanding{}; // requests per disk past the driver at once; 0 = no limit
};

// Throws std::invalid_argument naming the offending field.
void validate(const DeviceDriverParams& params);

class DeviceDriver : public sc_core::sc_module, public hba::HbaCompletion, public IoTarget {
public:
    SC_HAS_PROCESS(DeviceDriver);
    DeviceDriver(sc_core::sc_module_name name, const DeviceDriverParams& params);

    void set_hba(hba::HbaFrontEnd* hba) { hba_ = hba; }
    void set_completion_callback(CompletionCallback callback) override { on_complete_ = std::move(callback); }

    // From the workload. The request must stay valid until the completion callback has seen it.
    void submit(hba::IoRequest* io) override;
    // From the HBA.
    void io_complete(hba::IoRequest* io) override;
    void io_aborted(hba::IoRequest* io, const std::string& reason) override;

    const DeviceDriverParams& params() const { return params_; }
    std::uint64_t submitted() const { return submitted_; }
    std::uint64_t completed() const { return completed_; }
    std::uint64_t failed() const { return failed_; }
    std::uint64_t retries() const { return retries_; }  // reissues after aborts
    // Every request the driver holds: on its CPU, waiting for its disk or a slot, or in the HBA.
    std::size_t holding() const { return arrivals_on_cpu_ + per_disk_.waiting() + waiting_.size() + in_hba_ + completions_on_cpu_; }
    std::size_t in_hba() const { return in_hba_; }               // outstanding in the HBA
    std::size_t waiting() const { return waiting_.size(); }      // processed, waiting for a slot
    std::size_t waiting_for_disk() const { return per_disk_.waiting(); }  // processed, waiting for their disk
    // Most requests to one disk past the per-disk limit at once (0 without a limit).
    unsigned max_disk_outstanding() const { return per_disk_.max_outstanding(); }
    std::size_t in_arrival_processing() const { return arrivals_on_cpu_; }  // queued or on the CPU
    std::size_t in_completion_processing() const { return completions_on_cpu_; }
    std::size_t max_waiting() const { return max_waiting_; }
    void report(nlohmann::json& j) const;  // retries, whole run
    // For a diagnosis: " (driver: N in the HBA, W waiting[, D waiting for their disk])".
    void print_state(std::ostream& out) const;

private:
    enum class JobKind { Arrival, Completion, Abort };
    struct Job {
        hba::IoRequest* io = nullptr;
        JobKind kind = JobKind::Arrival;
        std::string reason;  // Abort
    };

    void enqueue(const Job& job);
    void start_cpu();
    void cpu_done();  // SC_METHOD on cpu_event_
    void to_hba(hba::IoRequest* io);
    void free_slot(hba::IoRequest* io);
    void dispatch(hba::IoRequest* io);  // past the per-disk limit, or waiting for its disk
    void pass(hba::IoRequest* io);      // to the HBA, or to the FIFO

    DeviceDriverParams params_;
    sc_core::sc_time arrival_time_;
    sc_core::sc_time completion_time_;
    hba::HbaFrontEnd* hba_ = nullptr;
    CompletionCallback on_complete_;

    kernel::RingQueue<Job> cpu_queue_;  // front is on the CPU while cpu_busy_
    bool cpu_busy_ = false;
    sc_core::sc_event cpu_event_;
    kernel::RingQueue<hba::IoRequest*> waiting_;
    DiskOutstandingLimit per_disk_;

    std::uint64_t submitted_ = 0;
    std::uint64_t completed_ = 0;
    std::uint64_t failed_ = 0;
    std::uint64_t retries_ = 0;
    std::size_t in_hba_ = 0;
    std::size_t arrivals_on_cpu_ = 0;
    std::size_t completions_on_cpu_ = 0;
    std::size_t max_waiting_ = 0;
};

}  // namespace fcal::host
