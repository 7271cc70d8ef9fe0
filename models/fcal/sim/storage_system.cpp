#include "fcal/sim/storage_system.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "fcal/host/closed_workload.hpp"
#include "fcal/host/erase_job.hpp"
#include "fcal/host/open_workload.hpp"
#include "fcal/kernel/timer_facility.hpp"

namespace fcal::sim {

using sc_core::SC_US;
using sc_core::sc_time;

namespace {

hba::HbaParams hba_params(const SimConfig& config, const HbaConfig& c, double handling_us, std::uint64_t burst, hba::DmaPolicy policy)
{
    hba::HbaParams p;
    p.block_bytes = lba_block_bytes(config);
    p.cmd_exec = sc_time(c.cmd_exec_us, SC_US);
    p.xfer_rdy_or_rsp = sc_time(handling_us, SC_US);
    p.frame_proc = sc_time(c.frame_proc_ns, sc_core::SC_NS);
    p.single_frame_transfer = sc_time(c.sft_us, SC_US);
    p.dma.bandwidth_bytes_per_s = c.dma_mbs * 1e6;
    p.dma.sched_overhead = sc_time(c.dma_sched_us, SC_US);
    p.dma.policy = policy;
    p.max_payload = c.max_payload;
    p.burst_bytes = static_cast<std::uint32_t>(burst);
    return p;
}

loop::PortConfig port_config(const std::string& name, phy::AlPa al_pa, const HbaConfig& c)
{
    loop::PortConfig p;
    p.name = name;
    p.al_pa = al_pa;
    p.fair = c.fair;
    p.incoming_buffers = c.incoming_buffers;
    p.login_bb_credit = c.login_bb_credit;
    p.full_duplex = c.full_duplex;
    p.circuit_hold_s = c.circuit_hold_us * 1e-6;
    return p;
}

// DECODE's layout and policy, and what the controller knows of the drives for its load estimates.
controller::DecodeParams decode_params(const SimConfig& config)
{
    controller::DecodeParams p;
    p.free_fraction = config.decode.free_fraction;
    p.area_units = config.volume.decode ? config.decode.area_units : 0;  // 0: the layout only, nothing moves
    p.threshold = config.decode.threshold;
    p.own_write = config.decode.own_write;
    const disk::DiskParams d = disk_params(config, 0);
    p.drive.zoned = d.model == disk::DiskModel::Zoned;
    p.drive.block_bytes = kVolumeBlockBytes;
    p.drive.geometry = d.zoned.geometry;
    p.drive.stochastic = d.zoned.positioning == disk::PositioningMode::Stochastic;
    p.drive.seek_read_min_s = d.zoned.seek_read_min_s;
    p.drive.seek_read_max_s = d.zoned.seek_read_max_s;
    p.drive.seek_write_min_s = d.zoned.seek_write_min_s;
    p.drive.seek_write_max_s = d.zoned.seek_write_max_s;
    p.drive.access_s = d.access_time_s;
    p.drive.media_bytes_per_s = d.media_rate_bytes_per_s;
    return p;
}

}  // namespace

StorageSystem::StorageSystem(sc_core::sc_module_name name, const SimConfig& config) : sc_module(name), config_(config)
{
    const unsigned disks = config.disk.count;
    for (unsigned id = 0; disk_al_pas_.size() < disks; ++id) {
        const phy::AlPa a = phy::al_pa_of_loop_id(id);
        if (a != config.initiator.al_pa) disk_al_pas_.push_back(a);
    }

    host::IoTarget* below = nullptr;  // where the workload's or the volume's I/Os go
    if (config.transport == Transport::Loop) {
        build_loop();
        below = driver_.get();
    } else {
        ideal_ = std::make_unique<controller::IdealTransport>("ideal_transport", disks);
        for (unsigned d = 0; d < disks; ++d) {
            disks_.push_back(std::make_unique<disk::Disk>(("disk" + std::to_string(d)).c_str(), disk_params(config, d)));
            ideal_->disk(d).bind(disks_.back()->socket);
        }
        below = ideal_.get();
    }

    // What the workload addresses, sized (and checked) by the configuration (sim/sim_config.hpp).
    const AddressSpace space = address_space(config);
    host::WorkloadParams wp;
    wp.disks = disk_al_pas_;
    wp.lba = config.workload.lba;
    wp.read_fraction = config.workload.read_fraction;
    wp.io_size_bytes = static_cast<std::uint32_t>(config.workload.io_size);
    wp.io_size_max_bytes = static_cast<std::uint32_t>(config.workload.io_size_max);
    wp.total_ios = 2 * config.workload.warmup_ios + config.workload.measured_ios;
    wp.seed = config.workload.seed;
    wp.block_bytes = space.block_bytes;
    wp.disk_capacity_blocks = space.capacity_blocks;
    wp.span_blocks = space.span_blocks;
    host::IoTarget* target = below;
    if (config.volume.raid != controller::RaidLevel::None) {
        controller::VolumeParams vp;
        vp.geometry.level = config.volume.raid;
        vp.geometry.disks = disks;
        vp.geometry.unit_blocks = space.unit_blocks;
        vp.geometry.disk_blocks = space.disk_blocks;
        vp.split_merge = config.volume.split_merge;
        vp.block_bytes = kVolumeBlockBytes;
        vp.member_al_pas = disk_al_pas_;
        if (config.volume.decode || config.decode.free_fraction > 0) vp.decode = decode_params(config);
        volume_ = std::make_unique<controller::VolumeController>(vp, *below);
        target = volume_.get();
        // The workload sees one disk: the volume.
        wp.disks = {0};
    }
    std::uint64_t warmup = config.workload.warmup_ios, measured = config.workload.measured_ios;
    if (config.workload.type == WorkloadType::Erase) {
        host::EraseParams ep;
        ep.disks.assign(disk_al_pas_.begin(), disk_al_pas_.begin() + config.erase.disks);
        for (unsigned d = 0; d < config.erase.disks; ++d) ep.capacity_blocks.push_back(disks_[d]->capacity_sectors());
        ep.command = config.erase.command;
        ep.strategy = config.erase.strategy;
        ep.blocks_per_command = ep.command == host::EraseCommand::WriteSame ? config.erase.same_blocks : config.erase.transfer_blocks;
        ep.block_bytes = lba_block_bytes(config);
        auto job = std::make_unique<host::EraseJob>("erase", *target, ep);
        erase_ = job.get();
        initiator_->on_wire = [this](const hba::IoRequest& io, std::uint32_t words) { erase_->count_wire(io, words); };
        workload_ = std::move(job);
        // The window is the whole job: no warm-up, every command measured (docs/model.md, "Erasure").
        warmup = 0;
        measured = workload_->params().total_ios;
    } else if (config.workload.type == WorkloadType::Closed)
        workload_ = std::make_unique<host::ClosedWorkload>("workload", *target, wp, config.workload.queue_depth);
    else
        workload_ = std::make_unique<host::OpenWorkload>("workload", *target, wp, config.workload.rate_iops);

    std::vector<loop::LPort*> ports;
    if (loop_)
        for (std::size_t i = 0; i < loop_->port_count(); ++i) ports.push_back(&loop_->port(i));
    std::vector<const disk::Disk*> disk_models;
    for (const auto& d : disks_) disk_models.push_back(d.get());
    stats_ = std::make_unique<Statistics>(warmup, measured, disk_models, ports, volume_ != nullptr);
    workload_->on_completed([this](const hba::IoRequest& io) { stats_->io_completed(io); });
    if (volume_) volume_->on_member_completed([this](const hba::IoRequest& io) { stats_->member_completed(io); });
    workload_->on_done([this] {
        stopped_by_workload_ = true;
        sc_core::sc_stop();
    });
    if (initiator_) {
        initiator_->on_command_sent = [this](const hba::IoRequest&, const sc_time& wait) { stats_->command_sent(wait); };
        initiator_->on_data = [this](std::uint32_t bytes) { stats_->data_moved(bytes); };
    } else {
        // No data frames: the data the disks' buffers move instead.
        ideal_->on_data = [this](std::uint32_t bytes) { stats_->data_moved(bytes); };
    }
}

// The loop, host memory, the initiator and target HBAs, the disks and the device driver.
void StorageSystem::build_loop()
{
    const SimConfig& config = config_;
    const unsigned disks = config.disk.count;
    loop::LoopConfig lc;
    lc.rate = config.loop.rate;
    lc.baud = config.loop.baud_gbps * 1e9;
    lc.propagation_ns_per_m = config.loop.propagation_ns_per_m;
    lc.port_delay_words = config.loop.port_delay_words;
    lc.hop_m = {config.loop.hop_m};
    lc.ber = config.loop.ber;
    lc.al_time_s = config.loop.al_time_us * 1e-6;
    lc.error_seed = loop::derive_seed(config.workload.seed, 0x6C6F6F70 /* "loop" */, 0);  // a stream of its own
    loop::LoopNode controller;
    controller.port = port_config("controller", config.initiator.al_pa, config.initiator);
    lc.nodes.push_back(controller);
    for (unsigned d = 0; d < disks; ++d) {
        loop::LoopNode n;
        n.port = port_config("disk" + std::to_string(d), disk_al_pas_[d], config.target);
        lc.nodes.push_back(n);
    }
    while (lc.nodes.size() < config.loop.nodes) {
        loop::LoopNode n;
        n.passive = true;
        lc.nodes.push_back(n);
    }
    loop_ = std::make_unique<loop::Loop>("loop", lc);

    memory_ = std::make_unique<host::HostMemory>("host_memory");
    hba::HbaParams ip = hba_params(config, config.initiator, config.initiator.xfer_rdy_us, 0, config.initiator.dma_policy);
    ip.cmdf = config.cmdf;  // the Command-First levels; the implementation is chosen below
    ip.task_set_full_retry = sc_time(config.initiator.task_set_full_retry_us, SC_US);
    ip.exchange_timeout = sc_time(config.initiator.exchange_timeout_ms, sc_core::SC_MS);
    ip.abts_timeout = sc_time(config.initiator.abts_timeout_ms, sc_core::SC_MS);
    initiator_ = std::make_unique<hba::InitiatorHba>("initiator", ip, *loop_->find(config.initiator.al_pa),
                                                     make_controller_queue(ip.cmdf));
    initiator_->host_dma.bind(memory_->socket);

    for (unsigned d = 0; d < disks; ++d) {
        const std::string n = std::to_string(d);
        hba::HbaParams tp = hba_params(config, config.target, config.target.rsp_gen_us, config.target.burst_bytes, hba::DmaPolicy::Fcfs);
        tp.data_timeout = sc_time(config.target.data_timeout_ms, sc_core::SC_MS);
        targets_.push_back(std::make_unique<hba::TargetHba>(("target" + n).c_str(), tp, *loop_->find(disk_al_pas_[d])));
        disks_.push_back(std::make_unique<disk::Disk>(("disk" + n).c_str(), disk_params(config, d)));
        targets_.back()->disk.bind(disks_.back()->socket);
    }

    host::DeviceDriverParams drv;
    drv.arrival_processing_s = config.driver.arrival_us * 1e-6;
    drv.completion_processing_s = config.driver.completion_us * 1e-6;
    drv.max_outstanding = config.initiator.max_outstanding;
    drv.retries = config.driver.retries;
    driver_ = std::make_unique<host::DeviceDriver>("driver", drv);
    driver_->set_hba(initiator_.get());
    initiator_->set_completion(driver_.get());

}

// The controller's outgoing FIFO: the SystemC reference, the Verilated RTL, or both in lock step.
std::unique_ptr<loop::TransmitQueue> StorageSystem::make_controller_queue(const hba::CommandFirst& policy)
{
    hba::FifoDepths depths;
    depths.frames = config_.initiator.tx_fifo_frames;
    depths.commands = config_.initiator.cmd_fifo_frames;
    auto reference = std::make_unique<hba::CommandFirstQueue>(policy, depths);
    if (config_.cmdf.impl == CmdfImpl::Model) return reference;
    // The RTL's depths are fixed when it is Verilated.
    if (depths.frames != cosim::kRtlFrameDepth)
        throw loop::ConfigError("initiator.tx_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlFrameDepth) +
                                ", the depth the RTL was built with (CMake option FCAL_RTL_DEPTH)");
    if (depths.commands != cosim::kRtlCommandDepth)
        throw loop::ConfigError("initiator.cmd_fifo_frames: cmdf.impl=rtl needs " + std::to_string(cosim::kRtlCommandDepth) +
                                ", the depth the RTL was built with (CMake option FCAL_RTL_CMD_DEPTH)");
    auto rtl = std::make_unique<cosim::RtlTransmitQueue>(policy, config_.rtl.clock_mhz);
    rtl_queue_ = rtl.get();
    if (!config_.rtl.lockstep) return rtl;
    auto lockstep = std::make_unique<cosim::LockstepTransmitQueue>(std::move(reference), std::move(rtl));
    lockstep_queue_ = lockstep.get();
    return lockstep;
}

void StorageSystem::watch_ports(std::ostream& out)
{
    watcher_ = std::make_unique<loop::PortWatcher>(out);
    for (std::size_t i = 0; i < loop_->port_count(); ++i) loop_->port(i).set_watcher(watcher_.get());
}

void StorageSystem::trace_vcd(const std::string& ports_base, const std::string& rtl_path)
{
    vcd_ = sc_core::sc_create_vcd_trace_file(ports_base.c_str());
    vcd_file_ = ports_base + ".vcd";
    vcd_->set_time_unit(1, sc_core::SC_PS);
    for (std::size_t i = 0; i < loop_->port_count(); ++i) loop_->port(i).trace(vcd_);
    if (rtl_queue_) rtl_queue_->rtl().open_vcd(rtl_path);
}

bool StorageSystem::ports_vcd_complete() const
{
    // SystemC 2.3's writer closes the file with the time stamp "#<time in ps>" of the run's end,
    // rounded from a double and capped at 1e17 units: allow the rounding.
    std::ifstream in(vcd_file_, std::ios::binary | std::ios::ate);
    if (!in) return false;
    const std::streamoff size = in.tellg();
    const std::streamoff tail = std::min<std::streamoff>(size, 32);
    std::string end(static_cast<std::size_t>(tail), '\0');
    in.seekg(size - tail);
    if (!in.read(end.data(), tail) || end.empty() || end.back() != '\n') return false;
    const auto hash = end.rfind('#');
    if (hash == std::string::npos || (hash > 0 && end[hash - 1] != '\n')) return false;
    std::uint64_t stamp = 0;
    const char* first = end.data() + hash + 1;
    const char* last = end.data() + end.size() - 1;
    const auto parsed = std::from_chars(first, last, stamp);
    if (parsed.ec != std::errc() || parsed.ptr != last) return false;
    const std::uint64_t expected = std::min<std::uint64_t>(vcd_end_.value(), 100000000000000000ull);
    return stamp + 1 >= expected && stamp <= expected + 1;
}

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

RunResult StorageSystem::run(const std::function<bool()>& stop_requested)
{
    // In slices: SystemC runs every event up to a slice's end before it returns and continues from
    // there, so the events, their order and every result are those of one sc_start to the limit.
    // With nothing left to happen the rest goes in one step (to the limit, as one sc_start would).
    const sc_time limit(config_.time_limit_s, sc_core::SC_SEC);
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
    if (vcd_) {
        sc_core::sc_close_vcd_trace_file(vcd_);
        vcd_end_ = sc_core::sc_time_stamp();
    }
    if (rtl_queue_) rtl_queue_->rtl().close_vcd();
    RunResult r;
    // The RTL failed a check: an assertion inside it, an answer naming no frame, or (lock step) a
    // decision the reference model takes differently.
    const std::string rtl_failure = rtl_queue_ && !rtl_queue_->failure().empty()          ? rtl_queue_->failure()
                                    : lockstep_queue_ && !lockstep_queue_->divergence().empty() ? lockstep_queue_->divergence()
                                                                                                : std::string();
    if (!rtl_failure.empty()) {
        r.end = RunEnd::RtlError;
        r.diagnosis = rtl_failure + "\n" + diagnose();
        return r;
    }
    if (stopped_by_workload_) return r;
    if (interrupted) {
        r.end = RunEnd::Interrupted;
        r.diagnosis = diagnose();
        return r;
    }
    // Either nothing can happen any more with I/Os still open (deadlock), or time ran out. A timer
    // notification with no deadline behind it is nothing left to happen (docs/model.md, "Simulation
    // kernel: timers").
    kernel::TimerFacility::drop_idle_notifications();
    r.end = sc_core::sc_pending_activity() ? RunEnd::TimeLimit : RunEnd::Deadlock;
    r.diagnosis = diagnose();
    return r;
}

std::string StorageSystem::account_violation() const
{
    const host::Workload& w = *workload_;
    const std::uint64_t out = w.requests_out();
    std::ostringstream why;
    if (w.issued() != w.completed() + w.failed() + out)
        why << "issued " << w.issued() << " != completed " << w.completed() << " + failed " << w.failed() << " + outstanding " << out;
    else if (volume_ && volume_->active() + volume_->waiting() != out)
        why << "the volume holds " << volume_->active() + volume_->waiting() << " requests, the workload has " << out << " outstanding";
    else if (!volume_ && driver_ && driver_->holding() != out)
        why << "the driver holds " << driver_->holding() << " requests, the workload has " << out << " outstanding";
    return why.str();
}

std::string StorageSystem::diagnose() const
{
    std::ostringstream out;
    out << "at " << sc_core::sc_time_stamp().to_seconds() * 1e6 << " us: issued " << workload_->issued() << ", completed "
        << workload_->completed() << ", outstanding " << workload_->outstanding();
    if (volume_) out << " (volume: " << volume_->active() << " requests active, " << volume_->waiting() << " waiting)";
    if (!driver_) {
        out << "\n";
        for (std::size_t d = 0; d < disks_.size(); ++d) out << "  disk" << d << " holds " << disks_[d]->queued() << " commands\n";
        return out.str();
    }
    out << " (driver: " << driver_->in_hba() << " in the HBA, " << driver_->waiting() << " waiting)\n";
    for (std::size_t i = 0; i < loop_->port_count(); ++i) {
        const loop::LPort& p = loop_->port(i);
        out << "  " << p.name() << " " << phy::al_pa_hex(p.al_pa()) << " " << loop::name(p.state()) << " access=" << p.access()
            << " arbitrating=" << p.arbitrating() << " credit=" << p.credit() << " free_buffers=" << p.free_buffers()
            << " tx=" << loop::name(p.transmitting()) << "\n";
    }
    return out.str();
}

// What the disks' actuators did over the whole run (warm-up included), summed over the disks:
// means per positioning, for checking the disk model against its formulas.
nlohmann::json StorageSystem::disk_mechanics() const
{
    disk::DiskStats sum;
    for (const auto& d : disks_) {
        const disk::DiskStats& s = d->stats();
        sum.positionings += s.positionings;
        sum.overhead_s += s.overhead_s;
        sum.seek_s += s.seek_s;
        sum.rotation_s += s.rotation_s;
        sum.transfer_s += s.transfer_s;
        sum.commands_rejected += s.commands_rejected;
        sum.announcements += s.announcements;
        sum.media_pauses += s.media_pauses;
        sum.writes_cached += s.writes_cached;
        sum.commands_aborted += s.commands_aborted;
    }
    const double n = sum.positionings > 0 ? static_cast<double>(sum.positionings) : 1.0;
    // The fixed disk has no geometry: 0.
    const std::uint64_t capacity = disks_.front()->capacity_sectors() * config_.disk.sector_bytes;
    return {{"model", disk::to_string(config_.disk.model)},
            {"capacity_bytes", config_.disk.model == disk::DiskModel::Zoned ? capacity : 0},
            {"positionings", sum.positionings},
            {"mean_overhead_us", sum.overhead_s / n * 1e6},
            {"mean_seek_us", sum.seek_s / n * 1e6},
            {"mean_rotation_us", sum.rotation_s / n * 1e6},
            {"mean_transfer_us", sum.transfer_s / n * 1e6},
            {"task_set_full", sum.commands_rejected},
            {"read_announcements", sum.announcements},
            {"media_pauses", sum.media_pauses},
            {"writes_cached", sum.writes_cached},
            {"commands_aborted", sum.commands_aborted}};
}

// The erasure job's figures (docs/model.md, "Erasure"): the whole job's time and, for each disk it
// erased, its own time, commands, wire and media bytes, merged into that disk's entry of "disks".
void StorageSystem::add_erase_results(nlohmann::json& j) const
{
    j["erase_time_s"] = erase_->erase_time().to_seconds();
    std::uint64_t wire = 0, media = 0;
    for (std::size_t d = 0; d < erase_->progress().size(); ++d) {
        const host::EraseProgress& p = erase_->progress()[d];
        auto& e = j["disks"][d];
        e["erase_time_s"] = p.done ? (p.finished - p.first_issued).to_seconds() : 0.0;
        e["commands"] = p.commands;
        e["wire_bytes"] = p.wire_bytes;
        e["media_bytes"] = disks_[d]->stats().media_bytes;
        e["capacity_bytes"] = erase_->erase_params().capacity_blocks[d] * erase_->erase_params().block_bytes;
        wire += p.wire_bytes;
        media += disks_[d]->stats().media_bytes;
    }
    j["erase"] = {{"command", host::to_string(config_.erase.command)},
                  {"strategy", host::to_string(config_.erase.strategy)},
                  {"blocks_per_command", erase_->erase_params().blocks_per_command},
                  {"disks", config_.erase.disks},
                  {"commands", workload_->completed()},
                  {"wire_bytes", wire},
                  {"media_bytes", media}};
}

nlohmann::json StorageSystem::results() const
{
    nlohmann::json j = stats_->to_json();
    j["sim_time_s"] = sc_core::sc_time_stamp().to_seconds();
    j["issued_ios"] = workload_->issued();
    // Bit errors on the loop, summed over the ports (docs/model.md, "Faults and recovery", "The loop").
    std::uint64_t discarded = 0, violations = 0;
    for (std::size_t i = 0; loop_ && i < loop_->port_count(); ++i) {
        discarded += loop_->port(i).stats().frames_discarded;
        violations += loop_->port(i).stats().code_violations;
    }
    j["frames_discarded"] = discarded;
    j["code_violations"] = violations;
    j["completed_ios"] = workload_->completed();
    j["outstanding_ios"] = workload_->outstanding();
    // Recovery (docs/model.md, "Faults and recovery: FCP recovery"), whole run.
    j["failed_ios"] = workload_->failed();
    j["failures"] = workload_->failures();
    j["retries"] = driver_ ? driver_->retries() : 0;
    j["warmup_ios"] = erase_ ? 0 : config_.workload.warmup_ios;
    if (erase_) add_erase_results(j);
    if (initiator_) {
        j["tx_frames_held"] = initiator_->frames_held();
        j["task_set_full_retries"] = initiator_->task_set_full_retries();
        std::uint64_t late = initiator_->late_frames(), sequence_errors = initiator_->sequence_errors(), data_timeouts = 0;
        for (const auto& t : targets_) {
            late += t->late_frames();
            sequence_errors += t->sequence_errors();
            data_timeouts += t->data_timeouts();
        }
        j["aborts"] = initiator_->aborts();
        j["ba_acc_received"] = initiator_->ba_acc_received();
        j["abts_timeouts"] = initiator_->abts_timeouts();
        j["late_frames"] = late;
        j["sequence_errors"] = sequence_errors;
        j["data_timeouts"] = data_timeouts;
    }
    j["disk_mechanics"] = disk_mechanics();
    // How the simulation itself ran (deterministic, for benchmarks): L_Port process activations and
    // frames sent by all ports over the whole run.
    std::uint64_t frames = 0;
    if (loop_)
        for (std::size_t i = 0; i < loop_->port_count(); ++i) frames += loop_->port(i).stats().frames_sent;
    j["kernel"] = {{"port_activations", loop_ ? loop_->activations() : 0}, {"frames_sent", frames}};
    if (volume_) {
        // Over the whole run: the member commands and the RAID 5 write shapes.
        j["volume"] = {{"member_ios", volume_->member_ios()},
                       {"full_row_writes", volume_->full_rows()},
                       {"read_modify_writes", volume_->read_modify_writes()},
                       {"reconstruct_writes", volume_->reconstruct_writes()}};
        if (const controller::DecodeLayout* decode = volume_->decode()) {
            // Stripe units written, whole run (docs/model.md, "DECODE").
            j["volume"]["decode_relocations"] = decode->relocations();
            j["volume"]["decode_in_place_writes"] = decode->in_place_writes();
        }
    }
    if (rtl_queue_) {
        // RTL-only counters: everything else is the same whichever implementation ran.
        const cosim::RtlCounters& c = rtl_queue_->rtl().counters();
        j["rtl"] = {{"cycles", c.cycles}, {"evaluations", c.evaluations}};
        if (lockstep_queue_) j["rtl"]["decisions_compared"] = lockstep_queue_->decisions_compared();
    }
    return j;
}

}  // namespace fcal::sim
