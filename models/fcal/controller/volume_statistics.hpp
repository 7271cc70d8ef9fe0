#pragma once
// What the host saw of a volume through its failures (docs/controller.md, "Degraded mode and
// rebuild"): response times by phase — before the first failure, degraded,
// rebuilding, after (optimal again), failed — with each request counted in the phase it arrived in;
// the host reads and writes planned around a missing member; the state's changes over time.
// Over the whole run, not the measurement window. Response times go into bounded histograms, as the
// run's own (kernel::LogHistogram): the state stays the same size however long the run, the mean is
// exact and the p99 (nearest rank) within LogHistogram::kRelativeError.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "fcal/controller/volume_health.hpp"
#include "fcal/kernel/log_histogram.hpp"

namespace fcal::controller {

enum class VolumePhase { Before, Degraded, Rebuilding, After, Failed };

std::string to_string(VolumePhase phase);  // "before", "degraded", "rebuilding", "after", "failed"

class VolumeStatistics {
public:
    // The phase of a request arriving now.
    VolumePhase phase() const;
    // The volume's state may have changed (the same state again is ignored).
    void state_is(const sc_core::sc_time& at, VolumeState state);
    void completed(VolumePhase phase, const sc_core::sc_time& response);
    void failed(VolumePhase phase);
    void planned_degraded(bool read) { ++(read ? degraded_reads_ : degraded_writes_); }

    std::uint64_t degraded_reads() const { return degraded_reads_; }
    std::uint64_t degraded_writes() const { return degraded_writes_; }
    std::uint64_t completed(VolumePhase phase) const { return phases_.at(index(phase)).response.count(); }
    std::uint64_t failed(VolumePhase phase) const { return phases_.at(index(phase)).failed; }
    double mean_s(VolumePhase phase) const;
    double p99_s(VolumePhase phase) const;

    // state_changes, degraded_reads, degraded_writes, phases.
    void report(nlohmann::json& volume) const;

private:
    struct Phase {
        kernel::LogHistogram response;
        std::uint64_t failed = 0;
    };
    static std::size_t index(VolumePhase phase) { return static_cast<std::size_t>(phase); }

    std::array<Phase, 5> phases_;
    VolumeState state_ = VolumeState::Optimal;
    bool failed_before_ = false;  // a member has failed at some time
    std::vector<std::pair<double, VolumeState>> changes_;
    std::uint64_t degraded_reads_ = 0, degraded_writes_ = 0;
};

}  // namespace fcal::controller
