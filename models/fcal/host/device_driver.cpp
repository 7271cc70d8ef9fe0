#include "fcal/host/device_driver.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
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
    : sc_module(name), params_(params), selector_(params.multipath), per_disk_(params.disk_outstanding)
{
    validate(params_);
    arrival_time_ = sc_time(params_.arrival_processing_s, sc_core::SC_SEC);
    completion_time_ = sc_time(params_.completion_processing_s, sc_core::SC_SEC);
    SC_METHOD(cpu_done);
    sensitive << cpu_event_;
    dont_initialize();
    SC_METHOD(take_due_reports);
    sensitive << reports_event_;
    dont_initialize();
}

void DeviceDriver::set_hba(hba::HbaFrontEnd* hba)
{
    hbas_.clear();
    paths_.clear();
    paths_link_downs_.clear();
    add_path(hba);
}

void DeviceDriver::add_path(hba::HbaFrontEnd* hba)
{
    hbas_.push_back(hba);
    paths_.push_back(PathState{});
    paths_link_downs_.push_back(0);
}

std::size_t DeviceDriver::in_hba() const
{
    std::size_t n = 0;
    for (const PathState& p : paths_) n += p.outstanding;
    return n;
}

std::size_t DeviceDriver::path_of(const hba::HbaFrontEnd* hba) const
{
    for (std::size_t p = 0; p < hbas_.size(); ++p)
        if (hbas_[p] == hba) return p;
    throw std::logic_error("device driver: an HBA that is none of its paths");
}

void DeviceDriver::set_outstanding(std::size_t path, std::size_t n)
{
    paths_[path].outstanding = n;
    paths_[path].room = n < params_.max_outstanding;
}

void DeviceDriver::submit(hba::IoRequest* io)
{
    ++submitted_;
    io->failed_over = false;
    ++arrivals_on_cpu_;
    enqueue(Job{io, JobKind::Arrival, {}});
}

DeviceDriver::Report DeviceDriver::Report::complete(hba::IoRequest* io)
{
    Report r;
    r.kind = Kind::Complete;
    r.path = io->path;
    r.io = io;
    return r;
}

DeviceDriver::Report DeviceDriver::Report::aborted(hba::IoRequest* io, const std::string& reason)
{
    Report r;
    r.kind = Kind::Aborted;
    r.path = io->path;
    r.io = io;
    r.reason = reason;
    return r;
}

DeviceDriver::Report DeviceDriver::Report::link_down(std::size_t path, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at)
{
    Report r;
    r.kind = Kind::LinkDown;
    r.path = path;
    r.ios = ios;
    r.lost_at = lost_at;
    return r;
}

DeviceDriver::Report DeviceDriver::Report::link_up(std::size_t path, std::uint64_t link_downs)
{
    Report r;
    r.kind = Kind::LinkUp;
    r.path = path;
    r.link_downs = link_downs;
    return r;
}

// What the HBAs report is taken after the delta it was made in, in path order, each path's by the
// process that made them (by its name): the reports of one delta are taken in the same order whichever
// HBA, and whichever of an HBA's processes (its frame processor, its DMA engine), the kernel ran first,
// and after the job the CPU ends in that delta whichever of the CPU and the HBA the kernel ran first
// (which tracing changes; with one path as with two). Each process's reports keep their order.
void DeviceDriver::defer(Report report)
{
    report.maker = sc_core::sc_get_current_process_handle();
    report.delta = sc_core::sc_delta_count();
    reports_.push_back(std::move(report));
    reports_event_.notify(sc_core::SC_ZERO_TIME);
}

// The reports of earlier deltas (a prefix: they are kept in the order made); those of this delta wait
// for the next. Called first by whichever of the driver's two processes runs first in a delta.
void DeviceDriver::take_due_reports()
{
    if (reports_.empty()) return;
    const std::uint64_t now = sc_core::sc_delta_count();
    std::size_t due = 0;
    while (due < reports_.size() && reports_[due].delta < now) ++due;
    // Those still waiting in the next delta (a report made outside the simulation, between two
    // sc_start() calls, has the count of the first delta after it).
    if (due < reports_.size()) reports_event_.notify(sc_core::SC_ZERO_TIME);
    if (due == 0) return;
    taking_.assign(std::make_move_iterator(reports_.begin()), std::make_move_iterator(reports_.begin() + static_cast<std::ptrdiff_t>(due)));
    reports_.erase(reports_.begin(), reports_.begin() + static_cast<std::ptrdiff_t>(due));
    // In path order, each path's by the process that made them, each process's in the order made: an
    // insertion sort in place (a delta holds few reports; std::stable_sort would take a buffer from the
    // heap every time: docs/kernel.md, "No allocation per frame").
    const auto in_order = [](const Report& a, const Report& b) {
        return a.path != b.path ? a.path < b.path : std::strcmp(a.maker.name(), b.maker.name()) < 0;
    };
    for (auto it = taking_.begin(); it != taking_.end(); ++it) std::rotate(std::upper_bound(taking_.begin(), it, *it, in_order), it, std::next(it));
    for (const Report& r : taking_) {
        switch (r.kind) {
        case Report::Kind::Complete:
            take_complete(r.io);
            break;
        case Report::Kind::Aborted:
            take_aborted(r.io, r.reason);
            break;
        case Report::Kind::LinkDown:
            take_link_down(r.path, r.ios, r.lost_at);
            break;
        case Report::Kind::LinkUp:
            // Not if the path went down again after it (link_down closed it at once).
            if (r.link_downs == paths_link_downs_[r.path]) take_link_up(r.path);
            break;
        }
    }
    taking_.clear();
}

void DeviceDriver::io_complete(hba::IoRequest* io)
{
    defer(Report::complete(io));
}

void DeviceDriver::io_aborted(hba::IoRequest* io, const std::string& reason)
{
    defer(Report::aborted(io, reason));
}

void DeviceDriver::link_down(const hba::HbaFrontEnd* hba, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at)
{
    const std::size_t path = path_of(hba);
    // No request goes to it from now on, even before the report is taken: the HBA has given back what
    // it held, and would keep what came after.
    paths_[path].up = false;
    ++paths_link_downs_[path];
    defer(Report::link_down(path, ios, lost_at));
}

void DeviceDriver::link_up(const hba::HbaFrontEnd* hba)
{
    const std::size_t path = path_of(hba);
    defer(Report::link_up(path, paths_link_downs_[path]));
}

void DeviceDriver::take_complete(hba::IoRequest* io)
{
    if (io->path >= paths_.size() || paths_[io->path].outstanding == 0) {
        SC_REPORT_ERROR(name(), "io_complete for a request the HBA was never given");
        return;
    }
    free_slot(io);
    ++completions_on_cpu_;
    enqueue(Job{io, JobKind::Completion, {}});
}

void DeviceDriver::take_aborted(hba::IoRequest* io, const std::string& reason)
{
    if (io->path >= paths_.size() || paths_[io->path].outstanding == 0) {
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
    set_outstanding(io->path, paths_[io->path].outstanding - 1);
    drain_waiting();
    if (hba::IoRequest* next = per_disk_.release(io->target)) pass(next);
}

void DeviceDriver::drain_waiting()
{
    while (!waiting_.empty()) {
        const auto path = selector_.choose(paths_);
        if (!path) return;
        hba::IoRequest* next = waiting_.front();
        waiting_.pop_front();
        to_hba(next, *path);
    }
}

// The HBA lost its loop: what it held comes back, each request freeing its slot and then, after
// completion processing, going out again on a path that is up.
void DeviceDriver::take_link_down(std::size_t path, const std::vector<hba::IoRequest*>& ios, const sc_core::sc_time& lost_at)
{
    paths_[path].up = false;
    for (hba::IoRequest* io : ios) {
        if (io->path != path || paths_[path].outstanding == 0) {
            SC_REPORT_ERROR(name(), "link_down gave back a request the HBA was never given");
            return;
        }
        io->failed_over = true;
        io->failover_from = lost_at;
        free_slot(io);
        ++failovers_on_cpu_;
        enqueue(Job{io, JobKind::Failover, {}});
    }
}

void DeviceDriver::take_link_up(std::size_t path)
{
    paths_[path].up = true;
    drain_waiting();
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
    take_due_reports();  // before the job that ends now, whichever of the two processes runs first
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
    case JobKind::Failover:
        --failovers_on_cpu_;
        ++failovers_;
        dispatch(job.io);
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
        if (job.io->failed_over) {
            const double t = (job.io->completed - job.io->failover_from).to_seconds();
            ++failover_completions_;
            failover_time_sum_s_ += t;
            failover_time_max_s_ = std::max(failover_time_max_s_, t);
        }
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
    if (waiting_.empty()) {
        if (const auto path = selector_.choose(paths_)) {
            to_hba(io, *path);
            return;
        }
    }
    waiting_.push_back(io);
    max_waiting_ = std::max(max_waiting_, waiting_.size());
}

void DeviceDriver::to_hba(hba::IoRequest* io, std::size_t path)
{
    if (hbas_.empty() || hbas_[path] == nullptr) {
        SC_REPORT_ERROR(name(), "no HBA connected (set_hba)");
        return;
    }
    set_outstanding(path, paths_[path].outstanding + 1);
    io->path = static_cast<unsigned>(path);
    io->to_hba = sc_core::sc_time_stamp();
    hbas_[path]->submit(io);
}

void DeviceDriver::report(nlohmann::json& j) const
{
    j["retries"] = retries_;
    j["failovers"] = failovers_;
    const double n = static_cast<double>(failover_completions_);
    j["failover_time_us"] = {{"mean", n > 0 ? failover_time_sum_s_ / n * 1e6 : 0.0}, {"max", failover_time_max_s_ * 1e6}};
}

void DeviceDriver::print_state(std::ostream& out) const
{
    out << " (driver: " << in_hba() << " in the HBA, " << waiting() << " waiting";
    if (waiting_for_disk() > 0) out << ", " << waiting_for_disk() << " waiting for their disk";
    out << ")";
}

}  // namespace fcal::host
