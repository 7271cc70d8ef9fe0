#pragma once
// Where a workload sends its I/Os and hears of their completion: the device driver (each I/O to one
// disk) or, above it, the storage controller's volume (each I/O split over member disks). An
// interface here so that the workloads need not know which layer above them they drive.
#include <functional>

#include "fcal/hba/io_request.hpp"

namespace fcal::host {

class IoTarget {
public:
    using CompletionCallback = std::function<void(hba::IoRequest*)>;

    virtual ~IoTarget() = default;
    // The request must stay valid until the completion callback has seen it.
    virtual void submit(hba::IoRequest* io) = 0;
    virtual void set_completion_callback(CompletionCallback callback) = 0;
};

}  // namespace fcal::host
