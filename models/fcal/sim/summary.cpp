#include "fcal/sim/summary.hpp"

#include <cstdio>
#include <string>

namespace fcal::sim {

void print_summary(const SimConfig& c, const nlohmann::json& echo, const nlohmann::json& r)
{
    const std::string schedule = echo["schedule"].get<std::string>();
    const std::string where = c.transport == Transport::Ideal
                                  ? std::string("behind the ideal transport")
                                  : "on a " + phy::to_string(c.loop.rate) + " loop (" + std::to_string(c.ring.nodes) + " nodes)";
    if (c.workload.type == WorkloadType::Erase)
        std::printf("fcal-sim: %u disks %s, erase workload, schedule %s\n", c.disk_count, where.c_str(), schedule.c_str());
    else
        std::printf("fcal-sim: %u disks %s, %s workload, queue depth %u, %llu-byte I/Os, %.0f%% reads, schedule %s\n",
                    c.disk_count, where.c_str(), echo["workload"]["type"].get<std::string>().c_str(), c.workload.queue_depth,
                    static_cast<unsigned long long>(c.workload.io_size), c.workload.read_fraction * 100, schedule.c_str());
    std::printf("  measured I/Os      %llu over %.6f s (warm-up and cool-down %llu each)\n",
                static_cast<unsigned long long>(r["measured_ios"].get<std::uint64_t>()), r["measured_time_s"].get<double>(),
                static_cast<unsigned long long>(r["warmup_ios"].get<std::uint64_t>()));
    std::printf("  throughput         %.1f IOPS, %.2f MB/s\n", r["iops"].get<double>(), r["mb_per_s"].get<double>());
    std::printf("  response time      mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us\n", r["mean_response_us"].get<double>(),
                r["p50_response_us"].get<double>(), r["p99_response_us"].get<double>(), r["max_response_us"].get<double>());
    std::printf("  command wait (HBA) mean %.1f us, p99 %.1f us\n", r["command_wait_mean_us"].get<double>(), r["command_wait_p99_us"].get<double>());
    if (c.volume.raid != controller::RaidLevel::None)
        std::printf("  volume             %s over %u disks, %llu KiB stripe unit, %s\n", controller::to_string(c.volume.raid).c_str(),
                    c.disk_count, static_cast<unsigned long long>(c.volume.stripe_bytes / 1024), controller::to_string(c.volume.split_merge).c_str());
    if (r.contains("erase_time_s"))
        std::printf("  erase              %s, %s, %u disks, %u blocks per command: %.3f s\n", host::to_string(c.erase.command),
                    host::to_string(c.erase.strategy), c.erase.disks, r["erase"]["blocks_per_command"].get<unsigned>(),
                    r["erase_time_s"].get<double>());
    const auto& m = r["disk_mechanics"];
    // Disk 0's geometry (disk.<i>.* overrides may make the others differ), its rpm as given.
    const nlohmann::json& disk0 = echo["disk"].contains("0") && echo["disk"]["0"].contains("rpm") ? echo["disk"]["0"] : echo["disk"];
    if (c.disk.model == disk::DiskModel::Zoned)
        std::printf("  zoned disks        capacity %.3f GB each (%u cylinders x %u heads, %u rpm); mean seek %.1f us, rotation %.1f us, transfer %.1f us\n",
                    m["capacity_bytes"].get<std::uint64_t>() / 1e9, c.disks.front().zoned.geometry.cylinders,
                    c.disks.front().zoned.geometry.heads, static_cast<unsigned>(disk0["rpm"].get<double>()), m["mean_seek_us"].get<double>(), m["mean_rotation_us"].get<double>(),
                    m["mean_transfer_us"].get<double>());
    if (r["ports"].empty()) {  // transport=ideal
        std::printf("  transport          ideal; simulated %.6f s in %.3f s wall\n", r["sim_time_s"].get<double>(),
                    r["wall_time_s"].get<double>());
        return;
    }
    const auto& ctl = r["ports"][0];
    std::printf("  controller port    arbitration wait mean %.2f us, max %.2f us; loop tenancy %.1f%%\n",
                ctl["arbitration_wait_mean_us"].get<double>(), ctl["arbitration_wait_max_us"].get<double>(),
                ctl["tenancy_share"].get<double>() * 100);
    if (r["task_set_full_retries"].get<std::uint64_t>() > 0)
        std::printf("  TASK SET FULL      %llu commands retried\n",
                    static_cast<unsigned long long>(r["task_set_full_retries"].get<std::uint64_t>()));
    double tenancy = 0;
    for (const auto& p : r["ports"]) tenancy += p["tenancy_share"].get<double>();
    if (r["aborts"].get<std::uint64_t>() > 0 || r["failed_ios"].get<std::uint64_t>() > 0)
        std::printf("  recovery           %llu exchanges aborted, %llu retries, %llu I/Os failed, %llu late frames dropped\n",
                    static_cast<unsigned long long>(r["aborts"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["retries"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["failed_ios"].get<std::uint64_t>()),
                    static_cast<unsigned long long>(r["late_frames"].get<std::uint64_t>()));
    std::printf("  loop               owned %.1f%% of the time; simulated %.6f s in %.3f s wall\n", tenancy * 100,
                r["sim_time_s"].get<double>(), r["wall_time_s"].get<double>());
}

}  // namespace fcal::sim
