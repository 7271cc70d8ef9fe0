#include "fcal/sim/statistics.hpp"

#include <cstdio>
#include <ostream>

namespace fcal::sim {

Statistics::Statistics(std::uint64_t warmup_ios, std::uint64_t measured_ios, std::vector<const disk::Disk*> disks,
                       std::vector<loop::LPort*> ports, bool volume)
    : warmup_(warmup_ios), measured_(measured_ios), disk_models_(std::move(disks)), ports_(std::move(ports)), volume_(volume),
      disk_ios_(disk_models_.size(), 0), disk_response_sum_s_(disk_models_.size(), 0.0)
{
    if (warmup_ == 0) open_window();
}

void Statistics::open_window()
{
    opened_ = true;
    t_open_ = sc_core::sc_time_stamp();
    for (auto* p : ports_) {
        p->restart_maxima();
        port_at_open_.push_back(p->stats());
    }
    for (const auto* d : disk_models_) disk_busy_at_open_.push_back(d->stats().busy_time);
}

void Statistics::close_window()
{
    closed_ = true;
    t_close_ = sc_core::sc_time_stamp();
    for (auto* p : ports_) port_at_close_.push_back(p->stats());
    for (const auto* d : disk_models_) disk_busy_at_close_.push_back(d->stats().busy_time);
}

void Statistics::io_completed(const hba::IoRequest& io)
{
    ++completed_;
    if (window_open()) {
        const double r = (io.completed - io.issued).to_seconds();
        response_.add(r);
        (io.read ? reads_ : writes_)++;
        (io.read ? read_response_sum_s_ : write_response_sum_s_) += r;
        io_bytes_ += io.bytes;
        if (!volume_ && io.disk < disk_ios_.size()) {
            ++disk_ios_[io.disk];
            disk_response_sum_s_[io.disk] += r;
        }
    }
    if (!opened_ && completed_ == warmup_) open_window();
    else if (opened_ && !closed_ && completed_ == warmup_ + measured_) close_window();
}

void Statistics::member_completed(const hba::IoRequest& sub_io)
{
    if (!window_open() || sub_io.disk >= disk_ios_.size()) return;
    ++disk_ios_[sub_io.disk];
    disk_response_sum_s_[sub_io.disk] += (sub_io.completed - sub_io.issued).to_seconds();
}

void Statistics::command_sent(const sc_core::sc_time& wait)
{
    if (window_open()) command_wait_.add(wait.to_seconds());
}

void Statistics::data_moved(std::uint32_t bytes)
{
    if (window_open()) data_bytes_ += bytes;
}

// Seconds disk d's actuator worked in the window (services finished in it).
double Statistics::disk_busy(std::size_t d) const
{
    if (!opened_ || d >= disk_busy_at_open_.size()) return 0.0;
    const sc_core::sc_time end = closed_ ? disk_busy_at_close_.at(d) : disk_models_.at(d)->stats().busy_time;
    return (end - disk_busy_at_open_[d]).to_seconds();
}

void Statistics::write_cdf(std::ostream& out) const
{
    out << "quantile,response_us\n";
    char line[64];
    for (int i = 0; i <= 1000; ++i) {
        const double us = (i == 0 ? response_.min() : response_.percentile(i / 10.0)) * 1e6;
        std::snprintf(line, sizeof line, "%.3f,%.6f\n", i / 1000.0, us);
        out << line;
    }
}

nlohmann::json Statistics::to_json() const
{
    using nlohmann::json;
    const sc_core::sc_time end = closed_ ? t_close_ : sc_core::sc_time_stamp();
    const double window = opened_ ? (end - t_open_).to_seconds() : 0.0;
    const double n = static_cast<double>(response_.count());
    json j;
    j["measured_ios"] = response_.count();
    j["measured_time_s"] = window;
    j["iops"] = window > 0 ? n / window : 0.0;
    j["mb_per_s"] = window > 0 ? static_cast<double>(data_bytes_) / window / 1e6 : 0.0;
    j["reads"] = reads_;
    j["writes"] = writes_;
    j["mean_response_us"] = response_.mean() * 1e6;
    j["p50_response_us"] = response_.percentile(50) * 1e6;
    j["p90_response_us"] = response_.percentile(90) * 1e6;
    j["p99_response_us"] = response_.percentile(99) * 1e6;
    j["max_response_us"] = response_.max() * 1e6;
    if (volume_) {
        // Volumes: reads and writes apart (a RAID 5 or DECODE write is another request than a read).
        j["read_mean_response_us"] = reads_ > 0 ? read_response_sum_s_ / static_cast<double>(reads_) * 1e6 : 0.0;
        j["write_mean_response_us"] = writes_ > 0 ? write_response_sum_s_ / static_cast<double>(writes_) * 1e6 : 0.0;
    }
    j["command_wait_mean_us"] = command_wait_.mean() * 1e6;
    j["command_wait_p99_us"] = command_wait_.percentile(99) * 1e6;
    j["commands_measured"] = command_wait_.count();

    json disks = json::array();
    for (std::size_t d = 0; d < disk_ios_.size(); ++d) {
        const double ios = static_cast<double>(disk_ios_[d]);
        disks.push_back({{"disk", d},
                         {"ios", disk_ios_[d]},
                         {"iops", window > 0 ? ios / window : 0.0},
                         {"mean_response_us", ios > 0 ? disk_response_sum_s_[d] / ios * 1e6 : 0.0},
                         {"utilisation", window > 0 ? disk_busy(d) / window : 0.0}});
    }
    j["disks"] = disks;

    json ports = json::array();
    for (std::size_t i = 0; i < ports_.size(); ++i) {
        // Counts over the window only; all zero when the run ended before the window opened.
        const loop::PortStats& b = i < port_at_close_.size() ? port_at_close_[i] : ports_[i]->stats();
        const loop::PortStats& a = i < port_at_open_.size() ? port_at_open_[i] : b;
        const auto wins = b.arbitrations_won - a.arbitrations_won;
        ports.push_back({{"port", ports_[i]->name()},
                         {"al_pa", phy::al_pa_hex(ports_[i]->al_pa())},
                         {"arbitrations_won", wins},
                         {"arbitration_wait_mean_us", wins ? (b.arbitration_wait_total_s - a.arbitration_wait_total_s) / static_cast<double>(wins) * 1e6 : 0.0},
                         {"arbitration_wait_max_us", opened_ ? b.arbitration_wait_max_s * 1e6 : 0.0},  // maximum since the window opened
                         {"tenancy_share", window > 0 ? (b.tenancy_s - a.tenancy_s) / window : 0.0},
                         {"frames_sent", b.frames_sent - a.frames_sent},
                         {"frames_received", b.frames_received - a.frames_received},
                         {"transfers", b.transfers - a.transfers},
                         {"preemptions", b.preemptions - a.preemptions},
                         {"arbitrations_without_access", b.arbitrations_without_access - a.arbitrations_without_access}});
    }
    j["ports"] = ports;
    // The controller's port is the first: how often Command-First bent the rules in the window.
    if (!ports.empty()) {
        j["unfair_command_arbitrations"] = ports[0]["arbitrations_without_access"];
        j["preemptions"] = ports[0]["preemptions"];
    }
    return j;
}

}  // namespace fcal::sim
