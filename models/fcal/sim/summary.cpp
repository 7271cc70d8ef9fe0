#include "fcal/sim/summary.hpp"

#include <cstdio>
#include <string>

namespace fcal::sim {

namespace {

unsigned long long count(const nlohmann::json& value) { return value.get<unsigned long long>(); }

// The first line: what ran. Only what the run used: a queue depth for the closed workload, a rate for
// the open one, sizes and mix for neither with an erase job, the schedule only with an HBA.
void print_scenario(const SimConfig& c, const nlohmann::json& echo)
{
    const bool loop = c.transport == Transport::Loop;
    std::string text = std::to_string(c.disk_count) + " disks " +
                       (loop ? "on a " + phy::to_string(c.loop.rate) + " loop (" + std::to_string(c.loop.nodes.size()) + " nodes)"
                             : std::string("behind the ideal transport"));
    char buffer[160];
    switch (c.workload_type) {
    case WorkloadType::Erase: text += ", erase job"; break;
    case WorkloadType::Open:
        std::snprintf(buffer, sizeof buffer, ", open workload at %.1f IOPS", c.rate_iops);
        text += buffer;
        break;
    case WorkloadType::Closed:
        text += ", closed workload, queue depth " + std::to_string(c.queue_depth);
        break;
    }
    if (c.workload_type != WorkloadType::Erase) {
        const auto size = static_cast<unsigned long long>(c.workload.io_size_bytes);
        if (c.workload.io_size_max_bytes > 0)
            std::snprintf(buffer, sizeof buffer, ", %llu- to %llu-byte I/Os, %.0f%% reads", size,
                          static_cast<unsigned long long>(c.workload.io_size_max_bytes), c.workload.read_fraction * 100);
        else
            std::snprintf(buffer, sizeof buffer, ", %llu-byte I/Os, %.0f%% reads", size, c.workload.read_fraction * 100);
        text += buffer;
    }
    if (loop) text += ", schedule " + echo["schedule"].get<std::string>();
    std::printf("fcal-sim: %s\n", text.c_str());
}

// Which implementation of the controller's transmit queue decided (docs/rtl.md, "Lock-step checker").
void print_transmit_queue(const SimConfig& c, const nlohmann::json& r)
{
    if (c.cmdf_impl == CmdfImpl::Model) {
        std::printf("  transmit queue     SystemC model\n");
        return;
    }
    const auto& rtl = r["rtl"];
    std::printf("  transmit queue     RTL (Verilated), %llu cycles", count(rtl["cycles"]));
    if (c.rtl.lockstep)
        std::printf(", in lock-step with the SystemC model: %llu decisions compared", count(rtl["decisions_compared"]));
    std::printf("\n");
}

}  // namespace

void print_summary(const SimConfig& c, const nlohmann::json& echo, const nlohmann::json& r)
{
    const bool loop = c.transport == Transport::Loop;
    print_scenario(c, echo);
    if (c.workload_type == WorkloadType::Erase) {
        // An erase job is measured by its duration: its commands are few and huge, and the bytes it
        // moves are not FCP_DATA, so IOPS and MB/s would say nothing (docs/erasure.md, "Erasure").
        const double seconds = r["erase_time_s"].get<double>();
        const auto& e = r["erase"];
        std::printf("  erase              %s, %s, %u disks, %u blocks per command: %.3f s\n", host::to_string(c.erase.command),
                    host::to_string(c.erase.strategy), c.erase_disks, e["blocks_per_command"].get<unsigned>(), seconds);
        std::printf("  media written      %.3f GB (%.2f MB/s) by %llu commands, %.3f MB on the loop\n",
                    count(e["media_bytes"]) / 1e9, seconds > 0 ? count(e["media_bytes"]) / seconds / 1e6 : 0.0,
                    count(e["commands"]), count(e["wire_bytes"]) / 1e6);
        std::printf("  command response   mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us\n", r["mean_response_us"].get<double>(),
                    r["p50_response_us"].get<double>(), r["p99_response_us"].get<double>(), r["max_response_us"].get<double>());
    } else {
        std::printf("  measured I/Os      %llu over %.6f s (warm-up and cool-down %llu each)\n", count(r["measured_ios"]),
                    r["measured_time_s"].get<double>(), count(r["warmup_ios"]));
        std::printf("  throughput         %.1f IOPS, %.2f MB/s\n", r["iops"].get<double>(), r["mb_per_s"].get<double>());
        std::printf("  response time      mean %.1f us, p50 %.1f us, p99 %.1f us, max %.1f us\n", r["mean_response_us"].get<double>(),
                    r["p50_response_us"].get<double>(), r["p99_response_us"].get<double>(), r["max_response_us"].get<double>());
    }
    if (loop)
        std::printf("  command wait (HBA) mean %.1f us, p99 %.1f us\n", r["command_wait_mean_us"].get<double>(),
                    r["command_wait_p99_us"].get<double>());
    if (c.volume.raid != controller::RaidLevel::None)
        std::printf("  volume             %s over %u disks, %llu KiB stripe unit, %s\n", controller::to_string(c.volume.raid).c_str(),
                    c.disk_count, static_cast<unsigned long long>(c.volume.stripe_bytes / 1024), controller::to_string(c.volume.split_merge).c_str());
    const auto& m = r["disk_mechanics"];
    // Disk 0's geometry (disk.<i>.* overrides may make the others differ), its rpm as given.
    const nlohmann::json& disk0 = echo["disk"].contains("0") && echo["disk"]["0"].contains("rpm") ? echo["disk"]["0"] : echo["disk"];
    if (c.disk.model == disk::DiskModel::Zoned)
        std::printf("  zoned disks        capacity %.3f GB each (%u cylinders x %u heads, %u rpm); mean seek %.1f us, rotation %.1f us, transfer %.1f us\n",
                    m["capacity_bytes"].get<std::uint64_t>() / 1e9, c.disks.front().zoned.geometry.cylinders,
                    c.disks.front().zoned.geometry.heads, static_cast<unsigned>(disk0["rpm"].get<double>()), m["mean_seek_us"].get<double>(), m["mean_rotation_us"].get<double>(),
                    m["mean_transfer_us"].get<double>());
    if (!loop) {
        std::printf("  transport          ideal; simulated %.6f s in %.3f s wall\n", r["sim_time_s"].get<double>(),
                    r["wall_time_s"].get<double>());
        return;
    }
    print_transmit_queue(c, r);
    const auto& ctl = r["ports"][0];
    std::printf("  controller port    arbitration wait mean %.2f us, max %.2f us; loop tenancy %.1f%%\n",
                ctl["arbitration_wait_mean_us"].get<double>(), ctl["arbitration_wait_max_us"].get<double>(),
                ctl["tenancy_share"].get<double>() * 100);
    if (count(r["task_set_full_retries"]) > 0)
        std::printf("  TASK SET FULL      %llu commands retried\n", count(r["task_set_full_retries"]));
    double tenancy = 0;
    for (const auto& p : r["ports"]) tenancy += p["tenancy_share"].get<double>();
    if (count(r["aborts"]) > 0 || count(r["failed_ios"]) > 0)
        std::printf("  recovery           %llu exchanges aborted, %llu retries, %llu I/Os failed, %llu late frames dropped\n",
                    count(r["aborts"]), count(r["retries"]), count(r["failed_ios"]), count(r["late_frames"]));
    // A bypass that never went: its port got no AL_PA before the run ended (docs/faults.md, "Scheduled events").
    for (const auto& d : r["disks"]) {
        if (!d.contains("lpb_waiting_on_loops")) continue;
        std::string loops;
        for (const auto& l : d["lpb_waiting_on_loops"]) loops += (loops.empty() ? "" : " and ") + std::to_string(count(l));
        std::printf("  bypass waiting     disk %llu: its LPB still waits on loop %s for an initialization that gives the port an AL_PA\n",
                    count(d["disk"]), loops.c_str());
    }
    // Two loops (docs/host.md, "Dual loops and multipath"): each one's share, and the failovers.
    if (r["loops"].size() > 1) {
        for (const auto& l : r["loops"])
            std::printf("  loop %llu             %.2f MB/s, %.1f IOPS, owned %.1f%% of the time, %s\n", count(l["loop"]),
                        l["mb_per_s"].get<double>(), l["iops"].get<double>(), l["utilisation"].get<double>() * 100,
                        l["state"].get<std::string>().c_str());
        if (count(r["failovers"]) > 0)
            std::printf("  failover           %llu I/Os moved to the other loop; failover time mean %.1f us, max %.1f us\n",
                        count(r["failovers"]), r["failover_time_us"]["mean"].get<double>(), r["failover_time_us"]["max"].get<double>());
    }
    std::printf("  loop               owned %.1f%% of the time; simulated %.6f s in %.3f s wall\n", tenancy * 100,
                r["sim_time_s"].get<double>(), r["wall_time_s"].get<double>());
}

}  // namespace fcal::sim
