#pragma once
// The driver's cap on the requests outstanding per disk (driver.disk_outstanding; docs/hba.md,
// "Outstanding commands per disk"): at most `limit` requests to one disk are past this
// gate at once (in the driver's FIFO to the HBA, in the HBA, at the disk); the others wait here, one
// FIFO per disk, until a request to that disk comes back. 0 = no limit: every request goes on and
// nothing is counted. SystemC-free.
#include <cstddef>
#include <map>

#include "fcal/hba/io_request.hpp"
#include "fcal/kernel/ring_queue.hpp"

namespace fcal::host {

class DiskOutstandingLimit {
public:
    explicit DiskOutstandingLimit(unsigned limit) : limit_(limit) {}

    // True: `io` goes on and holds a place of its disk. False: it waits here.
    bool admit(hba::IoRequest* io);
    // A request to disk `target` came back (completed or aborted): its place is free. Returns the next
    // request waiting for that disk, which holds the place now, or nullptr.
    hba::IoRequest* release(phy::AlPa target);

    std::size_t waiting() const { return waiting_; }
    // Most requests past the gate at once for one disk, over the run (0 without a limit).
    unsigned max_outstanding() const { return max_outstanding_; }

private:
    struct Disk {
        unsigned outstanding = 0;
        kernel::RingQueue<hba::IoRequest*> waiting;
    };

    unsigned limit_;
    std::map<phy::AlPa, Disk> disks_;  // a node per disk, made on its first request
    std::size_t waiting_ = 0;
    unsigned max_outstanding_ = 0;
};

}  // namespace fcal::host
