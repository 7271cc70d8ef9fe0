#include "fcal/sim/component_reports.hpp"

#include <ostream>

namespace fcal::sim {

void report(const host::Workload& w, nlohmann::json& j)
{
    j["issued_ios"] = w.issued();
    j["completed_ios"] = w.completed();
    j["outstanding_ios"] = w.outstanding();
    // Recovery (docs/faults.md, "FCP recovery"), whole run.
    j["failed_ios"] = w.failed();
    j["failures"] = w.failures();
}

void report(const host::DeviceDriver& driver, nlohmann::json& j) { j["retries"] = driver.retries(); }

void report(const std::vector<const loop::LPort*>& ports, std::uint64_t port_activations, nlohmann::json& j)
{
    // Bit errors on the loop (docs/faults.md, "Faults and recovery", "Bit errors on the loop").
    std::uint64_t discarded = 0, violations = 0, frames = 0;
    for (const loop::LPort* port : ports) {
        const loop::PortStats& s = port->stats();
        discarded += s.frames_discarded;
        violations += s.code_violations;
        frames += s.frames_sent;
    }
    j["frames_discarded"] = discarded;
    j["code_violations"] = violations;
    // How the simulation itself ran (deterministic, for benchmarks): L_Port process activations and
    // frames sent by all ports over the whole run.
    j["kernel"] = {{"port_activations", port_activations}, {"frames_sent", frames}};
}

void report(const hba::InitiatorHba& initiator, const std::vector<const hba::TargetHba*>& targets, nlohmann::json& j)
{
    j["tx_frames_held"] = initiator.frames_held();
    j["task_set_full_retries"] = initiator.task_set_full_retries();
    std::uint64_t late = initiator.late_frames(), sequence_errors = initiator.sequence_errors(), data_timeouts = 0;
    for (const hba::TargetHba* t : targets) {
        late += t->late_frames();
        sequence_errors += t->sequence_errors();
        data_timeouts += t->data_timeouts();
    }
    j["aborts"] = initiator.aborts();
    j["ba_acc_received"] = initiator.ba_acc_received();
    j["abts_timeouts"] = initiator.abts_timeouts();
    j["late_frames"] = late;
    j["sequence_errors"] = sequence_errors;
    j["data_timeouts"] = data_timeouts;
}

void report(const std::vector<const disk::Disk*>& disks, nlohmann::json& j)
{
    disk::DiskStats sum;
    for (const disk::Disk* d : disks) {
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
    // The first disk's model and capacity (disk.<i>.* overrides may make the others differ); the
    // fixed disk has no geometry: 0.
    const disk::Disk& first = *disks.front();
    const bool zoned = first.params().model == disk::DiskModel::Zoned;
    const std::uint64_t capacity = zoned ? first.capacity_sectors() * first.params().zoned.geometry.sector_bytes : 0;
    j["disk_mechanics"] = {{"model", disk::to_string(first.params().model)},
                           {"capacity_bytes", capacity},
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

void report(const controller::VolumeController& volume, nlohmann::json& j)
{
    j["volume"] = {{"member_ios", volume.member_ios()},
                   {"full_row_writes", volume.full_rows()},
                   {"read_modify_writes", volume.read_modify_writes()},
                   {"reconstruct_writes", volume.reconstruct_writes()}};
    if (const controller::DecodeLayout* decode = volume.decode()) {
        // Stripe units written, whole run (docs/controller.md, "DECODE").
        j["volume"]["decode_relocations"] = decode->relocations();
        j["volume"]["decode_in_place_writes"] = decode->in_place_writes();
    }
}

void report(const cosim::RtlTransmitQueue& rtl, const cosim::LockstepTransmitQueue* lockstep, nlohmann::json& j)
{
    const cosim::RtlCounters& c = rtl.rtl().counters();
    j["rtl"] = {{"cycles", c.cycles}, {"evaluations", c.evaluations}};
    if (lockstep) j["rtl"]["decisions_compared"] = lockstep->decisions_compared();
}

void report(const host::EraseJob& job, const std::vector<const disk::Disk*>& disks, nlohmann::json& j)
{
    const host::EraseParams& params = job.erase_params();
    j["erase_time_s"] = job.erase_time().to_seconds();
    std::uint64_t wire = 0, media = 0;
    for (std::size_t d = 0; d < job.progress().size(); ++d) {
        const host::EraseProgress& p = job.progress()[d];
        auto& e = j["disks"][d];
        e["erase_time_s"] = p.done ? (p.finished - p.first_issued).to_seconds() : 0.0;
        e["commands"] = p.commands;
        e["wire_bytes"] = p.wire_bytes;
        e["media_bytes"] = disks[d]->stats().media_bytes;
        e["capacity_bytes"] = params.capacity_blocks[d] * params.block_bytes;
        wire += p.wire_bytes;
        media += disks[d]->stats().media_bytes;
    }
    j["erase"] = {{"command", host::to_string(params.command)},
                  {"strategy", host::to_string(params.strategy)},
                  {"blocks_per_command", params.blocks_per_command()},
                  {"disks", params.disks.size()},
                  {"commands", job.completed()},
                  {"wire_bytes", wire},
                  {"media_bytes", media}};
}

void state(const host::Workload& w, std::ostream& out)
{
    out << "issued " << w.issued() << ", completed " << w.completed() << ", outstanding " << w.outstanding();
}

void state(const controller::VolumeController& volume, std::ostream& out)
{
    out << " (volume: " << volume.active() << " requests active, " << volume.waiting() << " waiting)";
}

void state(const host::DeviceDriver& driver, std::ostream& out)
{
    out << " (driver: " << driver.in_hba() << " in the HBA, " << driver.waiting() << " waiting";
    if (driver.waiting_for_disk() > 0) out << ", " << driver.waiting_for_disk() << " waiting for their disk";
    out << ")";
}

void state(const loop::LPort& p, std::ostream& out)
{
    out << "  " << p.name() << " " << phy::al_pa_hex(p.al_pa()) << " " << loop::name(p.state()) << " access=" << p.access()
        << " arbitrating=" << p.arbitrating() << " credit=" << p.credit() << " free_buffers=" << p.free_buffers()
        << " tx=" << loop::name(p.transmitting()) << "\n";
}

void state(const disk::Disk& disk, std::ostream& out) { out << "  " << disk.basename() << " holds " << disk.queued() << " commands\n"; }

}  // namespace fcal::sim
