#include "fcal/host/disk_outstanding_limit.hpp"

#include <algorithm>

namespace fcal::host {

bool DiskOutstandingLimit::admit(hba::IoRequest* io)
{
    if (limit_ == 0) return true;
    Disk& d = disks_[io->target];
    if (d.outstanding >= limit_) {
        d.waiting.push_back(io);
        ++waiting_;
        return false;
    }
    max_outstanding_ = std::max(max_outstanding_, ++d.outstanding);
    return true;
}

hba::IoRequest* DiskOutstandingLimit::release(phy::AlPa target)
{
    if (limit_ == 0) return nullptr;
    Disk& d = disks_.at(target);
    if (d.waiting.empty()) {
        --d.outstanding;
        return nullptr;
    }
    // The place goes straight to the oldest request waiting for this disk.
    hba::IoRequest* next = d.waiting.front();
    d.waiting.pop_front();
    --waiting_;
    return next;
}

}  // namespace fcal::host
