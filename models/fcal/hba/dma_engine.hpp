#pragma once
// An HBA's DMA engine: one channel, moving data between the HBA and memory behind a TLM-2.0
// target (host memory on the initiator side, the disk's buffer on the target side).
//
// Work comes as jobs, each belonging to a transfer (one exchange's data in one direction, one
// descriptor fetch, one single-frame delivery). A job takes bytes / bandwidth, plus the scheduler
// overhead when it is the first job of its transfer, plus any fixed time it carries (the single
// frame transfer). The scheduler picks the next job FCFS over all jobs, or round robin over the
// transfers that have jobs waiting. One generic payload serves every job (docs/kernel.md,
// "No allocation per frame").
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

#include "fcal/hba/dma_job.hpp"
#include "fcal/hba/dma_params.hpp"
#include "fcal/hba/work.hpp"
#include "fcal/kernel/early_wake.hpp"
#include "fcal/kernel/now.hpp"
#include "fcal/kernel/ring_queue.hpp"

namespace fcal::hba {

class DmaEngine : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(DmaEngine);
    using Transport = std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)>;

    DmaEngine(sc_core::sc_module_name name, const DmaParams& params, Transport transport, WorkOwner& owner);

    void request(DmaJob job);
    // Drops the jobs of the exchange `serial` (their Work::serial) still waiting; the one in progress,
    // if any, runs to its end without its `done` (an aborted exchange: docs/faults.md, "FCP
    // recovery").
    void cancel_exchange(std::uint64_t serial);
    std::uint64_t new_transfer() { return ++last_transfer_; }
    // A job of exchange `serial` waits or is in progress now.
    bool has_jobs_of(std::uint64_t serial) const;
    // The owner waits for the end of exchange `serial`'s jobs: from now on they hand their `done`
    // over, quiet or not, until the owner stops awaiting it (or the exchange is cancelled).
    void await_exchange(std::uint64_t serial);
    void stop_awaiting(std::uint64_t serial);
    // The job in progress, if it ends now with a notification not taken yet: it ends now, in the
    // caller's activation (its `done` handed over), so that what the caller does next (a drop) meets
    // it ended whichever process the kernel would have run first in this instant (docs/faults.md,
    // "FCP recovery"); its own wake, if already triggered, then finds nothing (step()).
    void finish_due();
    double busy_s() const { return busy_time_.to_seconds(); }
    std::size_t waiting() const { return waiting_; }

private:
    void step();
    void end_job();
    void start_next(sc_core::sc_time start);
    bool continues_ahead() const;
    void transfer(const DmaJob& job);
    // A run of jobs of exchange `serial` started ahead and not all ended by now.
    bool runs_ahead(std::uint64_t serial) const
    {
        return ahead_serial_ == serial && !ahead_ends_.empty() && ahead_ends_.back() > kernel::now();
    }
    void rewind_ahead(const sc_core::sc_time& now);
    void notify_end(const sc_core::sc_time& after);
    bool pick(DmaJob& out);
    const sc_core::sc_time& transfer_time(std::uint32_t bytes);

    DmaParams params_;
    sc_core::sc_time sched_overhead_;  // params_.sched_overhead_s
    Transport transport_;
    WorkOwner& owner_;
    kernel::RingQueue<DmaJob> fifo_;                            // FCFS
    std::map<std::uint64_t, std::deque<DmaJob>> per_transfer_;  // round robin
    std::uint64_t rr_last_ = 0;
    std::size_t waiting_ = 0;
    bool awaited(std::uint64_t serial) const;

    // busy_: a job in progress whose end is notified. coasting_: a quiet job in progress, nobody
    // waiting behind it, no notification: it ends at free_at_ (docs/hba.md, "DMA").
    bool busy_ = false;
    bool coasting_ = false;
    sc_core::sc_time free_at_;
    std::vector<std::uint64_t> awaited_;
    DmaJob current_;
    sc_core::sc_event done_;
    kernel::EarlyWake wake_{done_};  // finish_due() may end the job first
    std::uint64_t last_transfer_ = 0;
    sc_core::sc_time busy_time_;  // summed exactly, in the kernel's time unit
    // The last run ahead (start_next): its exchange, and when each of its jobs ends, in order.
    std::uint64_t ahead_serial_ = 0;
    std::vector<sc_core::sc_time> ahead_ends_;
    std::vector<unsigned char> scratch_;
    tlm::tlm_generic_payload payload_;
    // bytes / bandwidth of the last two sizes seen (a transfer's full frames and its last one).
    struct Duration {
        std::uint32_t bytes = 0;
        sc_core::sc_time time;
    };
    Duration durations_[2];
};

}  // namespace fcal::hba
