#pragma once
// Measurement between warm-up and cool-down (docs/cli.md, "Statistics and the measurement window"): it
// opens when the warm-up-th I/O completes and closes when the (warm-up + measured)-th completes.
// Response times go into bounded histograms (kernel/log_histogram.hpp): means exact, percentiles within
// LogHistogram::kRelativeError.
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <systemc>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/loop/lport.hpp"
#include "fcal/kernel/log_histogram.hpp"

namespace fcal::sim {

class Statistics {
public:
    // `disks`: the member disks, for their utilisation. With `volume`, the I/Os completed are a
    // volume's and each disk's figures come from member_completed() instead.
    Statistics(std::uint64_t warmup_ios, std::uint64_t measured_ios, std::vector<const disk::Disk*> disks,
               std::vector<loop::LPort*> ports, bool volume = false);

    void io_completed(const hba::IoRequest& io);
    void member_completed(const hba::IoRequest& sub_io);  // a volume's command to one member disk
    void command_sent(const sc_core::sc_time& wait);
    void data_moved(std::uint32_t bytes);

    bool window_open() const { return opened_ && !closed_; }
    bool window_closed() const { return closed_; }
    std::uint64_t completed() const { return completed_; }

    // The measured results; wall time and run-level fields are added by the caller.
    nlohmann::json to_json() const;
    // The measured response times as CSV "quantile,response_us": the minimum (quantile 0), then
    // quantiles 0.001, 0.002, ..., 1 (nearest rank, within LogHistogram::kRelativeError).
    void write_cdf(std::ostream& out) const;

private:
    void open_window();
    void close_window();
    double disk_busy(std::size_t d) const;

    std::uint64_t warmup_, measured_;
    std::vector<const disk::Disk*> disk_models_;
    std::vector<loop::LPort*> ports_;
    bool volume_;
    std::uint64_t completed_ = 0;
    bool opened_ = false, closed_ = false;
    sc_core::sc_time t_open_, t_close_;
    kernel::LogHistogram response_;
    std::uint64_t reads_ = 0, writes_ = 0, io_bytes_ = 0, data_bytes_ = 0;
    double read_response_sum_s_ = 0, write_response_sum_s_ = 0;
    std::vector<std::uint64_t> disk_ios_;
    std::vector<double> disk_response_sum_s_;
    kernel::LogHistogram command_wait_;
    std::vector<sc_core::sc_time> disk_busy_at_open_, disk_busy_at_close_;
    std::vector<loop::PortStats> port_at_open_, port_at_close_;
};

}  // namespace fcal::sim
