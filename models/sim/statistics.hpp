#pragma once
// Measurement between warm-up and cool-down (docs/model.md, "Statistics and the measurement window"): it
// opens when the warm-up-th I/O completes and closes when the (warm-up + measured)-th completes.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <systemc>
#include <vector>

#include "hba/io_request.hpp"
#include "loop/lport.hpp"

namespace fcal::sim {

class Statistics {
public:
    Statistics(std::uint64_t warmup_ios, std::uint64_t measured_ios, unsigned disks, std::vector<loop::LPort*> ports);

    void io_completed(const hba::IoRequest& io);
    void command_sent(const sc_core::sc_time& wait);
    void data_moved(std::uint32_t bytes);

    bool window_open() const { return opened_ && !closed_; }
    bool window_closed() const { return closed_; }
    std::uint64_t completed() const { return completed_; }

    // The measured results; wall time and run-level fields are added by the caller.
    nlohmann::json to_json() const;

private:
    void open_window();
    void close_window();

    std::uint64_t warmup_, measured_;
    std::vector<loop::LPort*> ports_;
    std::uint64_t completed_ = 0;
    bool opened_ = false, closed_ = false;
    sc_core::sc_time t_open_, t_close_;
    std::vector<double> response_s_;
    std::uint64_t reads_ = 0, writes_ = 0, io_bytes_ = 0, data_bytes_ = 0;
    std::vector<std::uint64_t> disk_ios_;
    std::vector<double> disk_response_sum_s_;
    std::vector<double> command_wait_s_;
    std::vector<loop::PortStats> port_at_open_, port_at_close_;
};

// Mean and the p-th percentile (nearest rank) of a sample; 0 for an empty one.
double mean(const std::vector<double>& v);
double percentile(std::vector<double> v, double p);

}  // namespace fcal::sim
