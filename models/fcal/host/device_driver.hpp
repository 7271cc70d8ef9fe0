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
// Multipath (docs/host.md, "Dual loops and multipath"): with one HBA per loop (add_path), each
// request goes, when it leaves the FIFO, to the path the PathSelector chooses (`multipath`); each
// HBA has its own `max_outstanding`. An HBA whose link went down (hba::LinkListener) gives back every
// request it held; each is processed like an abort (completion processing), counted as a failover
// and issued again on a path that is up, without using one of its retries. Its completion then
// gives one failover time (from the loop's failure).
//
// What the HBAs report (completions, aborts, links down and up) is taken after the delta it was made
// in, in path order, each path's by the name of the process that made it, so that neither the order of
// two HBAs' (or one HBA's two processes') reports in one delta nor that of a report and the job the
// CPU ends in that delta is the kernel's (which tracing changes); a link down closes its path at once.
//
// Reentrancy: the completion callback may call submit() again. The HBA's submit() is never called from
// inside its own io_complete() or io_aborted() (they are taken later).
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <systemc>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/hba/io_request.hpp"
#include "fcal/hba/link_listener.hpp"
#include "fcal/host/disk_outstanding_limit.hpp"
#include "fcal/kernel/ring_queue.hpp"
#include "fcal/host/io_target.hpp"
#include "fcal/host/path_selector.hpp"

namespace fcal::host {

// No defaults of their own (the simulator's parameter table holds them, driver.* and
// initiator.max_outstanding): a DeviceDriverParams{} fails validate() until max_outstanding is set.
struct DeviceDriverParams {
    double arrival_processing_s{};
    double completion_processing_s{};
    unsigned max_outstanding{};  // requests in the HBA at once
    unsigned retries{};          // reissues of an I/O after aborts before it fails
    unsigned disk_outstanding{}; // requests per disk past the driver at once; 0 = no limit
    Multipath multipath = Multipath::Failover;  // which HBA (loop) a request goes to
};

// Throws std::invalid_argument naming the offending field.
void validate(const DeviceDriverParams& params);

class DeviceDriver : public sc_core::sc_module, public hba::HbaCompletion, public hba::LinkListener, public IoTarget {
public:
    SC_HAS_PROCESS(DeviceDriver);
    DeviceDriver(sc_core::sc_module_name name, const DeviceDriverParams& params);

    // The one HBA, or (add_path) one more: path i is the i-th HBA given, the HBA on loop i.
    void set_hba(hba::HbaFrontEnd* hba);
    void add_path(hba::HbaFrontEnd* hba);
    void set_completion_callback(CompletionCallback callback) override { on_complete_ = std::move(callback); }

    // From the workload. The request must stay valid until the completion callback has seen it.
    void submit(hba::IoRequest* io) override;
    // From the HBA.
    void io_complete(hba::IoRequest* io) override;
    void io_aborted(hba::IoRequest* io, const std::string& reason) override;
    void link_down(const hba::HbaFrontEnd* hba, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at) override;
    void link_up(const hba::HbaFrontEnd* hba) override;

    const DeviceDriverParams& params() const { return params_; }
    std::uint64_t submitted() const { return submitted_; }
    std::uint64_t completed() const { return completed_; }
    std::uint64_t failed() const { return failed_; }
    std::uint64_t retries() const { return retries_; }  // reissues after aborts
    // Requests given back by an HBA whose link went down and issued again on another path.
    std::uint64_t failovers() const { return failovers_; }
    // Of those completed since: seconds from the loop's failure to the completion, summed, and the most.
    std::uint64_t failover_completions() const { return failover_completions_; }
    double failover_time_sum_s() const { return failover_time_sum_s_; }
    double failover_time_max_s() const { return failover_time_max_s_; }
    bool path_up(std::size_t path) const { return paths_.at(path).up; }
    std::size_t path_count() const { return paths_.size(); }
    // Every request the driver holds: on its CPU, waiting for its disk or a slot, or in the HBA.
    std::size_t holding() const
    {
        return arrivals_on_cpu_ + per_disk_.waiting() + waiting_.size() + in_hba() + completions_on_cpu_ + failovers_on_cpu_;
    }
    std::size_t in_hba() const;                                  // outstanding in the HBAs
    std::size_t waiting() const { return waiting_.size(); }      // processed, waiting for a slot
    std::size_t waiting_for_disk() const { return per_disk_.waiting(); }  // processed, waiting for their disk
    // Most requests to one disk past the per-disk limit at once (0 without a limit).
    unsigned max_disk_outstanding() const { return per_disk_.max_outstanding(); }
    std::size_t in_arrival_processing() const { return arrivals_on_cpu_; }  // queued or on the CPU
    std::size_t in_completion_processing() const { return completions_on_cpu_; }
    std::size_t max_waiting() const { return max_waiting_; }
    void report(nlohmann::json& j) const;  // retries, failovers, failover_time_us {mean, max}, whole run
    // For a diagnosis: " (driver: N in the HBA, W waiting[, D waiting for their disk])".
    void print_state(std::ostream& out) const;

private:
    enum class JobKind { Arrival, Completion, Abort, Failover };
    struct Job {
        hba::IoRequest* io = nullptr;
        JobKind kind = JobKind::Arrival;
        std::string reason;  // Abort
    };

    // What an HBA reported (io_complete, io_aborted, link_down, link_up), taken later (defer). Each
    // kind is made by its own function, which fills the fields of that kind.
    struct Report {
        enum class Kind { Complete, Aborted, LinkDown, LinkUp };
        static Report complete(hba::IoRequest* io);
        static Report aborted(hba::IoRequest* io, const std::string& reason);
        static Report link_down(std::size_t path, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at);
        static Report link_up(std::size_t path, std::uint64_t link_downs);

        Kind kind = Kind::Complete;
        std::size_t path = 0;
        hba::IoRequest* io = nullptr;      // Complete, Aborted
        std::string reason;                // Aborted
        std::vector<hba::IoRequest*> ios;  // LinkDown
        sc_core::sc_time lost_at;          // LinkDown
        std::uint64_t delta = 0;           // sc_delta_count() when deferred
        sc_core::sc_process_handle maker;  // the process whose activation made it (its name orders)
        std::uint64_t link_downs = 0;      // LinkUp: its path's link downs until then
    };
    void defer(Report report);
    void take_due_reports();    // SC_METHOD on reports_event_, and first in cpu_done()
    void take_complete(hba::IoRequest* io);
    void take_aborted(hba::IoRequest* io, const std::string& reason);
    void take_link_down(std::size_t path, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at);
    void take_link_up(std::size_t path);

    void enqueue(const Job& job);
    void start_cpu();
    void cpu_done();  // SC_METHOD on cpu_event_
    void to_hba(hba::IoRequest* io, std::size_t path);
    void free_slot(hba::IoRequest* io);
    void drain_waiting();  // the FIFO's head to a path, while one is chosen
    std::size_t path_of(const hba::HbaFrontEnd* hba) const;
    void set_outstanding(std::size_t path, std::size_t n);
    void dispatch(hba::IoRequest* io);  // past the per-disk limit, or waiting for its disk
    void pass(hba::IoRequest* io);      // to the HBA, or to the FIFO

    DeviceDriverParams params_;
    sc_core::sc_time arrival_time_;
    sc_core::sc_time completion_time_;
    std::vector<hba::HbaFrontEnd*> hbas_;
    std::vector<PathState> paths_;  // by path, as the selector sees them
    PathSelector selector_;
    CompletionCallback on_complete_;

    std::vector<Report> reports_;
    std::vector<Report> taking_;
    std::vector<std::uint64_t> paths_link_downs_;  // by path
    sc_core::sc_event reports_event_;
    kernel::RingQueue<Job> cpu_queue_;  // front is on the CPU while cpu_busy_
    bool cpu_busy_ = false;
    sc_core::sc_event cpu_event_;
    kernel::RingQueue<hba::IoRequest*> waiting_;
    DiskOutstandingLimit per_disk_;

    std::uint64_t submitted_ = 0;
    std::uint64_t completed_ = 0;
    std::uint64_t failed_ = 0;
    std::uint64_t retries_ = 0;
    std::size_t arrivals_on_cpu_ = 0;
    std::size_t completions_on_cpu_ = 0;
    std::size_t failovers_on_cpu_ = 0;
    std::uint64_t failovers_ = 0;
    std::uint64_t failover_completions_ = 0;
    double failover_time_sum_s_ = 0;
    double failover_time_max_s_ = 0;
    std::size_t max_waiting_ = 0;
};

}  // namespace fcal::host
