#include "fcal/disk/disk_stats.hpp"

#include <algorithm>

namespace fcal::disk {

DiskStats& DiskStats::operator+=(const DiskStats& other)
{
    commands_accepted += other.commands_accepted;
    commands_rejected += other.commands_rejected;
    commands_served += other.commands_served;
    commands_aborted += other.commands_aborted;
    reads_served += other.reads_served;
    writes_served += other.writes_served;
    writes_cached += other.writes_cached;
    busy_time += other.busy_time;
    max_queue = std::max(max_queue, other.max_queue);
    buffer_bytes_in += other.buffer_bytes_in;
    buffer_bytes_out += other.buffer_bytes_out;
    media_bytes += other.media_bytes;
    announcements += other.announcements;
    media_pauses += other.media_pauses;
    positionings += other.positionings;
    overhead_s += other.overhead_s;
    seek_s += other.seek_s;
    rotation_s += other.rotation_s;
    transfer_s += other.transfer_s;
    return *this;
}

void DiskStats::report(nlohmann::json& j) const
{
    const double n = positionings > 0 ? static_cast<double>(positionings) : 1.0;
    j["positionings"] = positionings;
    j["mean_overhead_us"] = overhead_s / n * 1e6;
    j["mean_seek_us"] = seek_s / n * 1e6;
    j["mean_rotation_us"] = rotation_s / n * 1e6;
    j["mean_transfer_us"] = transfer_s / n * 1e6;
    j["task_set_full"] = commands_rejected;
    j["read_announcements"] = announcements;
    j["media_pauses"] = media_pauses;
    j["writes_cached"] = writes_cached;
    j["commands_aborted"] = commands_aborted;
}

}  // namespace fcal::disk
