// sc_spawn (the process that ends a --vcd-window) is declared only with this, before SystemC is first included.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "fcal/sim/storage_system.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>

#include "fcal/host/closed_workload.hpp"
#include "fcal/host/open_workload.hpp"

namespace fcal::sim {

StorageSystem::StorageSystem(sc_core::sc_module_name name, const SimConfig& config)
    : sc_module(name), config_(config), modules_(module_configs(config))
{
    const unsigned disks = config.disk_count;
    host::IoTarget* below = nullptr;  // where the workload's or the volume's I/Os go
    if (config.transport == Transport::Loop) {
        build_loop();
        below = driver_.get();
    } else {
        ideal_ = std::make_unique<controller::IdealTransport>("ideal_transport", disks);
        for (unsigned d = 0; d < disks; ++d) {
            disks_.push_back(std::make_unique<disk::Disk>(("disk" + std::to_string(d)).c_str(), modules_.disks[d]));
            ideal_->disk(d).bind(disks_.back()->socket);
        }
        below = ideal_.get();
    }

    host::IoTarget* target = below;
    if (modules_.volume) {
        if (modules_.volume->rebuild.io_bytes == 0) {
            volume_ = std::make_unique<controller::VolumeController>(*modules_.volume, *below);
        } else {
            // Rebuilds onto spares wait and pace themselves on a timer of their own.
            volume_timer_ = std::make_unique<controller::KernelTimer>("volume_timer");
            volume_ = std::make_unique<controller::VolumeController>(*modules_.volume, *below, *volume_timer_);
        }
        target = volume_.get();
    }
    std::uint64_t warmup = config.warmup_ios, measured = config.measured_ios;
    if (modules_.erase) {
        auto job = std::make_unique<host::EraseJob>("erase", *target, *modules_.erase);
        erase_ = job.get();
        for (auto& initiator : initiators_)
            initiator->on_wire = [this](const hba::IoRequest& io, std::uint32_t words) { erase_->count_wire(io, words); };
        workload_ = std::move(job);
        // The window is the whole job: no warm-up, every command measured (docs/erasure.md, "Erasure").
        warmup = 0;
        measured = workload_->params().total_ios;
    } else if (config.workload_type == WorkloadType::Closed)
        workload_ = std::make_unique<host::ClosedWorkload>("workload", *target, modules_.workload, config.queue_depth);
    else
        workload_ = std::make_unique<host::OpenWorkload>("workload", *target, modules_.workload, config.rate_iops);

    // The measurement (sim/statistics.hpp) observes the workload, the volume and the initiator.
    std::vector<loop::LPort*> ports;
    for (auto& l : loops_)
        for (std::size_t i = 0; i < l->port_count(); ++i) ports.push_back(&l->port(i));
    stats_ = std::make_unique<Statistics>(warmup, measured, this->disks(), ports, volume_ != nullptr);
    loop_usage_ = std::make_unique<LoopUsage>(static_cast<unsigned>(loops_.size()), config.loop_timeline_s);
    // Each completed I/O counts for its loop before the statistics see it (which may open the window).
    workload_->on_completed([this](const hba::IoRequest& io) {
        if (!volume_ && on_loop() && !io.failed()) loop_usage_->completed(io.path, stats_->window_open());
        stats_->io_completed(io);
    });
    if (volume_)
        volume_->on_member_completed([this](const hba::IoRequest& io) {
            if (on_loop() && !io.failed()) loop_usage_->completed(io.path, stats_->window_open());
            stats_->member_completed(io);
        });
    if (on_loop()) {
        observe_loops();
    } else {
        // No data frames: the data the disks' buffers move instead.
        ideal_->on_data = [this](std::uint32_t bytes) { stats_->data_moved(bytes); };
    }

    events_ = ScheduledEvents(config.events, disks, config.time_limit_s, config.loop_count, config.loop.bypass_detect_s);
    dispatcher_ = std::make_unique<EventDispatcher>(*this);
    // (Only with events: a run without them has the same processes as before they existed.)
    if (!events_.empty()) sc_core::sc_spawn([this] { run_events(); }, "scheduled_events");
}

void StorageSystem::run_events()
{
    for (const ScheduledEvent& e : events_.events()) {
        const sc_core::sc_time at(e.at_s, sc_core::SC_SEC);
        if (at > sc_core::sc_time_stamp()) sc_core::wait(at - sc_core::sc_time_stamp());
        dispatcher_->fire(e);
    }
}

std::size_t StorageSystem::port_index(loop::Loop& loop, phy::AlPa al_pa)
{
    for (std::size_t i = 0; i < loop.port_count(); ++i)
        if (loop.port(i).al_pa() == al_pa) return i;
    throw std::logic_error("no loop port with AL_PA " + phy::al_pa_hex(al_pa));
}

// Each loop's controller HBA reports to the statistics; its data also count for its loop.
void StorageSystem::observe_loops()
{
    for (std::size_t l = 0; l < initiators_.size(); ++l) {
        hba::InitiatorHba& initiator = *initiators_[l];
        initiator.on_command_sent = [this](const hba::IoRequest&, const sc_core::sc_time& wait) { stats_->command_sent(wait); };
        initiator.on_data = [this, l](std::uint32_t bytes) {
            loop_usage_->data(static_cast<unsigned>(l), bytes, sc_core::sc_time_stamp().to_seconds(), stats_->window_open());
            stats_->data_moved(bytes);
        };
    }
}

// The loops, host memory, the initiator and target HBAs, the disks (with two loops, each behind its
// router) and the device driver. Loop 0's modules first and in the order of a one-loop system.
void StorageSystem::build_loop()
{
    const unsigned count = std::max(1u, config_.loop_count);
    targets_.resize(count);
    loops_.push_back(std::make_unique<loop::Loop>("loop", modules_.loop));
    memory_ = std::make_unique<host::HostMemory>("host_memory");
    initiators_.push_back(std::make_unique<hba::InitiatorHba>("initiator", modules_.initiator,
                                                              *loops_[0]->find(config_.initiator_port.al_pa), make_controller_queue()));
    initiators_[0]->host_dma.bind(memory_->socket);
    for (unsigned d = 0; d < config_.disk_count; ++d) {
        const std::string n = std::to_string(d);
        targets_[0].push_back(
            std::make_unique<hba::TargetHba>(("target" + n).c_str(), modules_.target, *loops_[0]->find(modules_.disk_al_pas[d])));
        disks_.push_back(std::make_unique<disk::Disk>(("disk" + n).c_str(), modules_.disks[d]));
        targets_[0].back()->fetch_reads_ahead(disks_.back()->reads_whenever());
        if (count == 1) targets_[0].back()->disk.bind(disks_.back()->socket);
    }
    if (count > 1) build_dual_ports();
    driver_ = std::make_unique<host::DeviceDriver>("driver", modules_.driver);
    driver_->set_hba(initiators_[0].get());
    for (std::size_t l = 1; l < initiators_.size(); ++l) driver_->add_path(initiators_[l].get());
    for (auto& initiator : initiators_) {
        initiator->set_completion(driver_.get());
        initiator->set_link_listener(driver_.get());
    }
    connect_logins();
    // loop.initialize_at_start: the controller sends LIP at t=0 on each loop; frames the HBAs queue
    // meanwhile wait in their ports until the loop is back (docs/loop_init.md, "Initialization in
    // the running loop").
    if (modules_.loop.initialize_at_start)
        for (auto& loop : loops_) loop->start_lip(0, "loop.initialize_at_start");
}

// Each loop tells its controller HBA when an initialization ends, so that it logs in to the targets
// on it or re-validates them (docs/hba.md, "Logins"); with loop.initialize_at_start nobody is logged
// in before the first one.
void StorageSystem::connect_logins()
{
    for (std::size_t l = 0; l < loops_.size(); ++l) {
        loop::Loop& loop = *loops_[l];
        hba::InitiatorHba& initiator = *initiators_[l];
        if (modules_.loop.initialize_at_start) initiator.log_in_at_start();
        loop.on_initialized([&loop, &initiator] { initiator.loop_initialized(loop.initializations().back()); });
    }
}

// Loop 1: its own loop (the same keys; its own bit-error stream), controller HBA and target HBAs; each
// disk's two target HBAs reach it through a router. The second HBA's DMA has a host memory port of its
// own (host memory answers at once: there is nothing to share).
void StorageSystem::build_dual_ports()
{
    loop::LoopConfig second = modules_.loop;
    second.error_seed = loop::derive_seed(config_.workload.seed, 0x6C6F6F70 /* "loop" */, 1);
    loops_.push_back(std::make_unique<loop::Loop>("loop1", second));
    memories_.push_back(std::make_unique<host::HostMemory>("host_memory1"));
    initiators_.push_back(std::make_unique<hba::InitiatorHba>("initiator1", modules_.initiator,
                                                              *loops_[1]->find(config_.initiator_port.al_pa), make_controller_queue()));
    initiators_[1]->host_dma.bind(memories_.back()->socket);
    for (unsigned d = 0; d < config_.disk_count; ++d) {
        const std::string n = std::to_string(d);
        targets_[1].push_back(
            std::make_unique<hba::TargetHba>(("target" + n + "_1").c_str(), modules_.target, *loops_[1]->find(modules_.disk_al_pas[d])));
        routers_.push_back(std::make_unique<disk::DualPortRouter>(("ports" + n).c_str()));
        targets_[1].back()->fetch_reads_ahead(disks_[d]->reads_whenever());
        targets_[0][d]->disk.bind(routers_.back()->port0);
        targets_[1][d]->disk.bind(routers_.back()->port1);
        routers_.back()->disk.bind(disks_[d]->socket);
    }
}

// The controller's outgoing FIFO: the SystemC reference, the Verilated RTL, or both in lock step.
std::unique_ptr<loop::TransmitQueue> StorageSystem::make_controller_queue()
{
    const hba::CommandFirst& policy = modules_.initiator.cmdf;
    auto reference = std::make_unique<hba::CommandFirstQueue>(policy, modules_.controller_fifos);
    if (config_.cmdf_impl == CmdfImpl::Model) return reference;
    auto rtl = std::make_unique<cosim::RtlTransmitQueue>(policy, config_.rtl.clock_mhz);
    rtl_queue_ = rtl.get();
    if (!config_.rtl.lockstep) return rtl;
    auto lockstep = std::make_unique<cosim::LockstepTransmitQueue>(std::move(reference), std::move(rtl));
    lockstep_queue_ = lockstep.get();
    return lockstep;
}

std::vector<const loop::LPort*> StorageSystem::ports() const
{
    std::vector<const loop::LPort*> all;
    // (loop::Loop has no const access to its ports.)
    for (const auto& l : loops_)
        for (std::size_t i = 0; i < l->port_count(); ++i) all.push_back(&l->port(i));
    return all;
}

std::uint64_t StorageSystem::port_activations() const
{
    std::uint64_t n = 0;
    for (const auto& l : loops_) n += l->activations();
    return n;
}

std::vector<const hba::TargetHba*> StorageSystem::targets() const
{
    std::vector<const hba::TargetHba*> all;
    for (const auto& loop_targets : targets_)
        for (const auto& t : loop_targets) all.push_back(t.get());
    return all;
}

std::vector<const disk::Disk*> StorageSystem::disks() const
{
    std::vector<const disk::Disk*> all;
    for (const auto& d : disks_) all.push_back(d.get());
    return all;
}

void StorageSystem::watch_ports(std::ostream& out)
{
    // With two loops each line names its loop (their ports have the same AL_PAs); one loop's lines
    // stay as they were.
    for (std::size_t l = 0; l < loops_.size(); ++l) {
        watchers_.push_back(std::make_unique<loop::PortWatcher>(out, loops_.size() > 1 ? "loop" + std::to_string(l) : ""));
        for (std::size_t i = 0; i < loops_[l]->port_count(); ++i) loops_[l]->port(i).set_watcher(watchers_.back().get());
    }
}

void StorageSystem::trace_vcd(const std::string& ports_base, const std::string& rtl_path, const std::vector<std::string>& ports,
                              bool rtl_pins_only, const std::optional<VcdWindow>& window)
{
    vcd_base_ = ports_base;
    vcd_file_ = ports_base + ".vcd";
    vcd_ports_ = ports;
    open_ports_vcd();
    const sc_core::sc_time limit(config_.time_limit_s, sc_core::SC_SEC);
    if (window && sc_core::sc_time(window->end_us(), sc_core::SC_US) < limit) {
        // (Not past the time limit: a process still waiting there would make a deadlock look like a
        // run that reached its time limit.) The file is closed 1 ps after END (so that it holds every change at END) and the ports go
        // back to the fast path: the rest of the run costs what it costs without --vcd. It is opened
        // at the start all the same: a port that rejoins the chain mid-run catches up with the words
        // that passed it only when it next runs, so its signals would differ for a while from those
        // of a port traced from the start (docs/cli.md, "Smaller waveforms").
        const sc_core::sc_time end = sc_core::sc_time(window->end_us(), sc_core::SC_US) + sc_core::sc_time(1, sc_core::SC_PS);
        sc_core::sc_spawn(
            [this, end] {
                sc_core::wait(end);
                close_ports_vcd();
            },
            "vcd_window_end");
    }
    if (rtl_queue_) rtl_queue_->rtl().open_vcd(rtl_path, rtl_pins_only ? cosim::VcdScope::PinsOnly : cosim::VcdScope::AllSignals);
}

void StorageSystem::open_ports_vcd()
{
    vcd_ = sc_core::sc_create_vcd_trace_file(vcd_base_.c_str());
    vcd_->set_time_unit(1, sc_core::SC_PS);
    for (auto& l : loops_)
        for (std::size_t i = 0; i < l->port_count(); ++i) {
            loop::LPort& port = l->port(i);
            if (vcd_ports_.empty() || std::find(vcd_ports_.begin(), vcd_ports_.end(), port.basename()) != vcd_ports_.end()) port.trace(vcd_);
        }
}

void StorageSystem::close_ports_vcd()
{
    for (auto& l : loops_)
        for (std::size_t i = 0; i < l->port_count(); ++i) l->port(i).untrace();
    sc_core::sc_close_vcd_trace_file(vcd_);
    vcd_ = nullptr;
    vcd_end_ = sc_core::sc_time_stamp();
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

void StorageSystem::close_traces()
{
    if (vcd_) close_ports_vcd();
    if (rtl_queue_) rtl_queue_->rtl().close_vcd();
}

}  // namespace fcal::sim
