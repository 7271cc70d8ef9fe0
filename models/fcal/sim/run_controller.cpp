#include "fcal/sim/run_controller.hpp"

#include <sstream>
#include <stdexcept>

#include "fcal/kernel/timer_facility.hpp"
#include "fcal/sim/component_reports.hpp"

namespace fcal::sim {

using sc_core::sc_time;

std::string to_string(RunEnd end)
{
    switch (end) {
    case RunEnd::Completed: return "completed";
    case RunEnd::TimeLimit: return "time_limit";
    case RunEnd::Deadlock: return "deadlock";
    case RunEnd::RtlError: return "rtl_error";
    case RunEnd::Interrupted: return "interrupted";
    }
    throw std::logic_error("unknown run end");
}

RunController::RunController(StorageSystem& system) : system_(system)
{
    system_.workload().on_done([this] {
        workload_done_ = true;
        sc_core::sc_stop();
    });
}

RunResult RunController::run(const std::function<bool()>& stop_requested)
{
    // In slices: SystemC runs every event up to a slice's end before it returns and continues from
    // there, so the events, their order and every result are those of one sc_start to the limit.
    // With nothing left to happen the rest goes in one step (to the limit, as one sc_start would).
    const sc_time limit(system_.config().time_limit_s, sc_core::SC_SEC);
    const sc_time slice(kRunSliceSeconds, sc_core::SC_SEC);
    bool interrupted = false, started = false;
    while (sc_core::sc_time_stamp() < limit && sc_core::sc_get_status() != sc_core::SC_STOPPED) {
        if (stop_requested && stop_requested()) {
            interrupted = true;
            break;
        }
        const sc_time left = limit - sc_core::sc_time_stamp();
        // (Before the first start nothing is pending yet.)
        sc_core::sc_start(slice < left && (!started || sc_core::sc_pending_activity()) ? slice : left);
        started = true;
    }
    system_.close_traces();
    if (system_.on_loop())
        for (std::size_t l = 0; l < system_.loop_count(); ++l) system_.loop(l).settle_ports();
    RunResult r;
    // The RTL failed a check: an assertion inside it, an answer naming no frame, or (lock step) a
    // decision the reference model takes differently.
    const cosim::RtlTransmitQueue* rtl = system_.rtl_queue();
    const cosim::LockstepTransmitQueue* lockstep = system_.lockstep_queue();
    const std::string rtl_failure = rtl && !rtl->failure().empty()                 ? rtl->failure()
                                    : lockstep && !lockstep->divergence().empty() ? lockstep->divergence()
                                                                                   : std::string();
    if (!rtl_failure.empty()) {
        r.end = RunEnd::RtlError;
        r.diagnosis = rtl_failure + "\n" + diagnosis();
        return r;
    }
    if (workload_done_) return r;
    if (interrupted) {
        r.end = RunEnd::Interrupted;
        r.diagnosis = diagnosis();
        return r;
    }
    // Either nothing can happen any more with I/Os still open (deadlock), or time ran out. A timer
    // notification with no deadline behind it is nothing left to happen (docs/kernel.md, "Timers").
    kernel::TimerFacility::drop_idle_notifications();
    r.end = sc_core::sc_pending_activity() ? RunEnd::TimeLimit : RunEnd::Deadlock;
    r.diagnosis = diagnosis();
    return r;
}

std::string RunController::account_violation() const
{
    const host::Workload& w = system_.workload();
    const controller::VolumeController* volume = system_.volume();
    const std::uint64_t out = w.requests_out();
    std::ostringstream why;
    if (w.issued() != w.completed() + w.failed() + out)
        why << "issued " << w.issued() << " != completed " << w.completed() << " + failed " << w.failed() << " + outstanding " << out;
    else if (volume && volume->active() + volume->waiting() != out)
        why << "the volume holds " << volume->active() + volume->waiting() << " requests, the workload has " << out << " outstanding";
    else if (!volume && system_.on_loop() && system_.driver().holding() != out)
        why << "the driver holds " << system_.driver().holding() << " requests, the workload has " << out << " outstanding";
    return why.str();
}

std::string RunController::diagnosis() const
{
    std::ostringstream out;
    out << "at " << sc_core::sc_time_stamp().to_seconds() * 1e6 << " us: ";
    system_.workload().print_state(out);
    if (const controller::VolumeController* volume = system_.volume()) volume->print_state(out);
    if (!system_.on_loop()) {
        out << "\n";
        for (const disk::Disk* d : system_.disks()) d->print_state(out);
        return out.str();
    }
    system_.driver().print_state(out);
    out << "\n";
    for (const loop::LPort* port : system_.ports()) port->print_state(out);
    return out.str();
}

nlohmann::json RunController::results() const
{
    nlohmann::json j = system_.statistics().to_json();
    j["sim_time_s"] = sc_core::sc_time_stamp().to_seconds();
    system_.workload().report(j);  // an erasure job's figures too
    if (system_.on_loop()) {
        system_.loop().report(j);
        for (std::size_t l = 1; l < system_.loop_count(); ++l) {
            // The loops' counters summed (the kernel block too: the whole run's work).
            nlohmann::json more;
            system_.loop(l).report(more);
            nlohmann::json kernel = j["kernel"];
            add_counts(kernel, more["kernel"]);
            more.erase("kernel");
            add_counts(j, more);
            j["kernel"] = kernel;
        }
        report_initializations(j);
        system_.driver().report(j);
        // The initiators' counters, with late frames and sequence errors summed over them and the
        // targets, and the targets' data timeouts.
        nlohmann::json hbas = nlohmann::json::object();
        for (std::size_t l = 0; l < system_.loop_count(); ++l) {
            nlohmann::json one;
            system_.initiator(l).report(one);
            add_counts(hbas, one);
        }
        for (const hba::TargetHba* target : system_.targets()) {
            nlohmann::json one;
            target->report(one);
            add_counts(hbas, one);
        }
        j.update(hbas);
        report_loops(j);
    } else {
        // The ideal transport: no loop, no driver, no HBAs; nothing lost on the way, no port ran.
        j["frames_discarded"] = 0;
        j["code_violations"] = 0;
        j["kernel"] = {{"port_activations", 0}, {"frames_sent", 0}};
        j["loop_initializations"] = 0;
        j["loop_init"] = nlohmann::json::array();
        j["loop_down_us"] = 0.0;
        j["retries"] = 0;
        j["loops"] = nlohmann::json::array();
        j["failovers"] = 0;
        j["failover_time_us"] = {{"mean", 0.0}, {"max", 0.0}};
    }
    const host::EraseJob* erase = system_.erase_job();
    j["warmup_ios"] = erase ? 0 : system_.config().warmup_ios;
    if (erase) report_erased(*erase, system_.disks(), j);
    // What the disks' actuators did over the whole run (warm-up included), summed over the disks: means
    // per positioning, for checking the disk model against its formulas. The model and capacity are
    // the first disk's (disk.<i>.* overrides may make the others differ).
    nlohmann::json& mechanics = j["disk_mechanics"];
    system_.disks().front()->report_model(mechanics);
    disk::DiskStats sum;
    for (const disk::Disk* d : system_.disks()) sum += d->stats();
    sum.report(mechanics);
    // Its member commands, RAID 5 write shapes, health, rebuilds and DECODE's relocations
    // (docs/controller.md, "Degraded mode and rebuild").
    if (const controller::VolumeController* volume = system_.volume()) volume->report(j["volume"]);
    // Each disk's state, and the events fired, only in runs with scheduled events (docs/faults.md, "Scheduled events").
    // A bypass still waiting for an initialization that gives the port an AL_PA (docs/faults.md,
    // "Scheduled events"): the loops it waits on.
    if (!system_.events().empty())
        for (std::size_t d = 0; d < system_.config().disk_count; ++d) {
            j["disks"][d]["state"] = to_string(system_.disk_state(static_cast<unsigned>(d)));
            nlohmann::json waiting = nlohmann::json::array();
            for (std::size_t l = 0; l < system_.loop_count(); ++l) {
                loop::Loop& loop = system_.loop(l);
                if (loop.lpb_waiting(StorageSystem::port_index(loop, system_.disk_al_pas().at(d)))) waiting.push_back(l);
            }
            if (!waiting.empty()) j["disks"][d]["lpb_waiting_on_loops"] = waiting;
        }
    // RTL-only counters: everything else is the same whichever implementation ran.
    if (const cosim::LockstepTransmitQueue* lockstep = system_.lockstep_queue())
        lockstep->report(j["rtl"]);
    else if (const cosim::RtlTransmitQueue* rtl = system_.rtl_queue())
        rtl->report(j["rtl"]);
    return j;
}

// The loops' initializations (docs/loop_init.md, "Initialization in the running loop"): their count,
// each one with the loop it was on, and the time the loops were down, summed over the loops.
void RunController::report_initializations(nlohmann::json& j) const
{
    std::uint64_t count = 0;
    double down_us = 0;
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t l = 0; l < system_.loop_count(); ++l) {
        nlohmann::json one;
        system_.loop(l).report_initializations(one);
        count += one["loop_initializations"].get<std::uint64_t>();
        down_us += one["loop_down_us"].get<double>();
        for (nlohmann::json& init : one["loop_init"]) {
            init["loop"] = l;
            list.push_back(std::move(init));
        }
    }
    j["loop_initializations"] = count;
    j["loop_init"] = list;
    j["loop_down_us"] = down_us;
}

// Each loop's share (docs/host.md, "Dual loops and multipath"): its utilisation is its ports' tenancy
// in the window (the `ports` list holds loop 0's ports, then loop 1's).
void RunController::report_loops(nlohmann::json& j) const
{
    std::vector<double> utilisation;
    std::vector<bool> up;
    std::size_t first = 0;
    for (std::size_t l = 0; l < system_.loop_count(); ++l) {
        const std::size_t n = system_.loop(l).port_count();
        double tenancy = 0;
        for (std::size_t i = first; i < first + n; ++i) tenancy += j["ports"][i]["tenancy_share"].get<double>();
        first += n;
        utilisation.push_back(tenancy);
        up.push_back(system_.loop_up(l));
    }
    j["loops"] = system_.loop_usage().loops(j["measured_time_s"].get<double>(), utilisation, up);
    if (system_.loop_usage().has_timeline()) j["loop_timeline"] = system_.loop_usage().timeline();
}

RunController::Outcome RunController::outcome(const RunResult& result, const nlohmann::json& results) const
{
    switch (result.end) {
    case RunEnd::RtlError: return {exit_code::kRtlError, result.diagnosis};
    case RunEnd::Deadlock:
        // (With none outstanding the workload stopped issuing early: a bug, said as it is.)
        if (results["outstanding_ios"].get<std::uint64_t>() == 0)
            return {exit_code::kDeadlock, "deadlock: the workload issues no more I/Os before its end and nothing is left to happen\n" + result.diagnosis};
        return {exit_code::kDeadlock, "deadlock: I/Os are outstanding and nothing is left to happen\n" + result.diagnosis};
    case RunEnd::TimeLimit:
        return {exit_code::kTimeLimit, "sim.time_limit_s reached before all I/Os completed\n" + result.diagnosis};
    case RunEnd::Interrupted: throw std::logic_error("an interrupted run's exit code depends on the signal");
    case RunEnd::Completed: break;
    }
    // Failed I/Os end the run like completed ones (exit 0), but not silently. Not every one was
    // retried (a failed drive's, a failed volume's fail at once), so the line claims no retries; a
    // reason given up on after its retries says so ("given up after N retries").
    const auto failed = results["failed_ios"].get<std::uint64_t>();
    if (failed == 0) return {};
    return {exit_code::kCompleted, std::to_string(failed) + " I/Os failed; the first: " + results["failures"][0].get<std::string>() + "\n"};
}

}  // namespace fcal::sim
