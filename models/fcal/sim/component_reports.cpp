#include "fcal/sim/component_reports.hpp"

namespace fcal::sim {

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
    for (const auto& [key, count] : part.items()) {
        // A block of counts (an initiator's "logins") is summed key by key.
        if (count.is_object()) {
            if (!total.contains(key)) total[key] = nlohmann::json::object();
            add_counts(total[key], count);
        } else {
            total[key] = total.value(key, std::uint64_t{0}) + count.get<std::uint64_t>();
        }
    }
}

}  // namespace fcal::sim
