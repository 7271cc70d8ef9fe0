#include "fcal/controller/volume_statistics.hpp"

#include <stdexcept>

namespace fcal::controller {

std::string to_string(VolumePhase phase)
{
    switch (phase) {
    case VolumePhase::Before: return "before";
    case VolumePhase::Degraded: return "degraded";
    case VolumePhase::Rebuilding: return "rebuilding";
    case VolumePhase::After: return "after";
    case VolumePhase::Failed: return "failed";
    }
    throw std::logic_error("unknown volume phase");
}

VolumePhase VolumeStatistics::phase() const
{
    switch (state_) {
    case VolumeState::Optimal: return failed_before_ ? VolumePhase::After : VolumePhase::Before;
    case VolumeState::Degraded: return VolumePhase::Degraded;
    case VolumeState::Rebuilding: return VolumePhase::Rebuilding;
    case VolumeState::Failed: return VolumePhase::Failed;
    }
    throw std::logic_error("unknown volume state");
}

void VolumeStatistics::state_is(const sc_core::sc_time& at, VolumeState state)
{
    if (state == state_) return;
    state_ = state;
    failed_before_ = true;  // the first change away from optimal is a failure
    changes_.emplace_back(at.to_seconds(), state);
}

void VolumeStatistics::completed(VolumePhase phase, const sc_core::sc_time& response)
{
    phases_.at(index(phase)).response.add(response.to_seconds());
}

void VolumeStatistics::failed(VolumePhase phase) { ++phases_.at(index(phase)).failed; }

double VolumeStatistics::mean_s(VolumePhase phase) const { return phases_.at(index(phase)).response.mean(); }

double VolumeStatistics::p99_s(VolumePhase phase) const { return phases_.at(index(phase)).response.percentile(99); }

void VolumeStatistics::report(nlohmann::json& volume) const
{
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& [t, s] : changes_) changes.push_back({{"t_s", t}, {"state", to_string(s)}});
    volume["state_changes"] = changes;
    volume["degraded_reads"] = degraded_reads_;
    volume["degraded_writes"] = degraded_writes_;
    nlohmann::json phases = nlohmann::json::object();
    for (VolumePhase p : {VolumePhase::Before, VolumePhase::Degraded, VolumePhase::Rebuilding, VolumePhase::After, VolumePhase::Failed})
        phases[to_string(p)] = {{"completed", completed(p)},
                                {"failed", failed(p)},
                                {"mean_response_us", mean_s(p) * 1e6},
                                {"p99_response_us", p99_s(p) * 1e6}};
    volume["phases"] = phases;
}

}  // namespace fcal::controller
