#include "fcal/host/path_selector.hpp"

namespace fcal::host {

const char* to_string(Multipath policy)
{
    switch (policy) {
    case Multipath::Failover: return "failover";
    case Multipath::RoundRobin: return "round_robin";
    case Multipath::LeastQueue: return "least_queue";
    }
    return "?";
}

std::optional<std::size_t> PathSelector::choose(const std::vector<PathState>& paths)
{
    const std::size_t n = paths.size();
    switch (policy_) {
    case Multipath::Failover:
        for (std::size_t p = 0; p < n; ++p)
            if (paths[p].up) return paths[p].room ? std::optional<std::size_t>(p) : std::nullopt;
        return std::nullopt;
    case Multipath::RoundRobin:
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t p = (next_ + i) % n;
            if (paths[p].up && paths[p].room) {
                next_ = (p + 1) % n;
                return p;
            }
        }
        return std::nullopt;
    case Multipath::LeastQueue: {
        std::optional<std::size_t> best;
        for (std::size_t p = 0; p < n; ++p)
            if (paths[p].up && paths[p].room && (!best || paths[p].outstanding < paths[*best].outstanding)) best = p;
        return best;
    }
    }
    return std::nullopt;
}

}  // namespace fcal::host
