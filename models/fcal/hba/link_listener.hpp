#pragma once
// Where an initiator HBA reports its loop going down and coming back (the device driver;
// docs/faults.md, "Loop failure"). The loop itself does not model loss of signal: the HBA is told
// by the system (InitiatorHba::link_lost) and reports after its detection time.
#include <systemc>
#include <vector>

#include "fcal/hba/io_request.hpp"

namespace fcal::hba {

class LinkListener {
public:
    virtual ~LinkListener() = default;
    // The HBA's link went down at `lost_at`; it holds nothing of `ios` any more (every I/O it had been
    // given and not yet given back, in the order it was given them).
    virtual void link_down(const HbaFrontEnd* hba, const std::vector<IoRequest*>& ios, const sc_core::sc_time& lost_at) = 0;
    // The HBA's link is back: it takes I/Os again.
    virtual void link_up(const HbaFrontEnd* hba) = 0;
};

}  // namespace fcal::hba
