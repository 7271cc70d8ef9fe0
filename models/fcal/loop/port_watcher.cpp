#include "fcal/loop/port_watcher.hpp"

#include <cstdio>

namespace fcal::loop {

void PortWatcher::record(double time_ns, phy::AlPa port, LpsmState state, std::uint64_t previous_words,
                         const std::string& previous, const std::string& next)
{
    char head[96];
    std::snprintf(head, sizeof head, "%.3f %s%s%02X %s %llu ", time_ns, loop_.c_str(), loop_.empty() ? "" : " ", port,
                  name(state), static_cast<unsigned long long>(previous_words));
    out_ << head << previous << "=>" << next << '\n';
}

}  // namespace fcal::loop
