#include "fcal/loop/port_statistics.hpp"

#include <algorithm>

namespace fcal::loop {

void PortStatistics::on(LpsmObserver::Event e, const sc_core::sc_time& now)
{
    using E = LpsmObserver::Event;
    switch (e) {
    case E::Requesting: request_since_ = now; break;
    case E::ArbitrationWithoutAccess: ++stats_.arbitrations_without_access; break;
    case E::Won: {
        owner_since_ = now;
        ++stats_.arbitrations_won;
        const double wait = (now - request_since_).to_seconds();
        stats_.arbitration_wait_total_s += wait;
        stats_.arbitration_wait_max_s = std::max(stats_.arbitration_wait_max_s, wait);
        break;
    }
    case E::Transfer: ++stats_.transfers; break;
    case E::LeftLoop: stats_.tenancy_s += (now - owner_since_).to_seconds(); break;
    case E::CircuitOpened: ++stats_.circuits_opened; break;
    case E::Preempted: ++stats_.preemptions; break;
    case E::RRdySent: ++stats_.r_rdys_sent; break;
    case E::RRdyReceived: ++stats_.r_rdys_received; break;
    case E::FrameDiscarded: ++stats_.frames_discarded; break;
    case E::AlTimeExpired: ++stats_.al_timeouts; break;
    case E::CircuitAbandoned: ++stats_.circuits_abandoned; break;
    }
}

}  // namespace fcal::loop
