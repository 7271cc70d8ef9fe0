#include "fcal/sim/component_reports.hpp"

#include <ostream>

namespace fcal::sim {

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
    // Its health, degraded reads and writes, phases and rebuilds (docs/controller.md, "Degraded mode and rebuild").
    volume.report(j["volume"]);
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

void report_erased(const host::EraseJob& job, const std::vector<const disk::Disk*>& disks, nlohmann::json& j)
{
    std::uint64_t media = 0;
    for (std::size_t d = 0; d < job.progress().size(); ++d) {
        j["disks"][d]["media_bytes"] = disks[d]->stats().media_bytes;
        media += disks[d]->stats().media_bytes;
    }
    j["erase"]["media_bytes"] = media;
}

void add_counts(nlohmann::json& total, const nlohmann::json& part)
{
    for (const auto& [key, count] : part.items()) total[key] = total.value(key, std::uint64_t{0}) + count.get<std::uint64_t>();
}

void state(const controller::VolumeController& volume, std::ostream& out)
{
    out << " (volume: " << volume.active() << " requests active, " << volume.waiting() << " waiting)";
}

void state(const disk::Disk& disk, std::ostream& out) { out << "  " << disk.basename() << " holds " << disk.queued() << " commands\n"; }

}  // namespace fcal::sim
