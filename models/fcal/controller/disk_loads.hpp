#pragma once
// Each member disk's load as the controller sees it (docs/model.md, "DECODE"): the sum of the
// estimated service times (controller/service_estimate.hpp) of the commands it has sent to the disk
// and not yet seen complete, queued or in service alike. SystemC-free.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "fcal/controller/service_estimate.hpp"

namespace fcal::controller {

class DiskLoads {
public:
    DiskLoads(unsigned disks, const DriveSheet& sheet);

    const std::vector<double>& seconds() const { return load_; }  // per disk
    // What `io` would add to its disk's load if it were sent now.
    double estimate(const MemberIo& io) const { return estimate_.seconds(head_.at(io.disk), io); }

    // Command `id` (unique among those outstanding) sent, or completed.
    void sent(std::uint64_t id, const MemberIo& io);
    void completed(std::uint64_t id);

private:
    struct Outstanding {
        unsigned disk = 0;
        double seconds = 0;
    };
    ServiceEstimate estimate_;
    std::vector<double> load_;
    std::vector<std::uint64_t> commands_;  // outstanding per disk
    std::vector<std::uint64_t> head_;      // where the last command sent to each disk ends
    std::unordered_map<std::uint64_t, Outstanding> outstanding_;
};

}  // namespace fcal::controller
