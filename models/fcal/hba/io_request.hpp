#pragma once
// One host I/O as it travels workload -> driver -> initiator HBA -> loop -> target HBA -> disk and
// back. Owned by whoever issued it (the workload); the layers below only keep pointers.
#include <cstdint>
#include <string>
#include <systemc>

#include "fcal/phy/al_pa.hpp"

namespace fcal::hba {

struct IoRequest {
    std::uint64_t id = 0;
    unsigned disk = 0;          // index of the disk (0-based)
    phy::AlPa target = 0;       // the disk's AL_PA
    bool read = true;
    std::uint32_t bytes = 0;
    std::uint64_t lba = 0;
    // WRITE SAME(10) of this many blocks from `lba` (`bytes`: the one block of data); 0 = READ/WRITE(10).
    std::uint32_t same_blocks = 0;
    // Timestamps, filled in on the way.
    sc_core::sc_time issued;         // the workload created it
    sc_core::sc_time to_hba;         // the driver handed it to the HBA
    sc_core::sc_time completed;      // the driver reported it complete (or failed)
    // Recovery (docs/faults.md, "FCP recovery"): times the driver reissued it
    // after an abort, and, once it has failed for good, why (empty: it completed).
    unsigned retries = 0;
    std::string failure;
    // The target answered with SCSI status CHECK CONDITION (its drive failed; set by the initiator HBA).
    bool check_condition = false;
    // Multipath (docs/host.md, "Dual loops and multipath"): the loop (path) the driver sent it on, and,
    // once the driver has moved it off a failed loop, when that loop failed.
    unsigned path = 0;
    bool failed_over = false;
    sc_core::sc_time failover_from;
    bool failed() const { return !failure.empty(); }
};

// The initiator HBA as the device driver sees it.
class HbaFrontEnd {
public:
    virtual ~HbaFrontEnd() = default;
    virtual void submit(IoRequest* io) = 0;
};

// Where the HBA reports finished I/Os (the device driver).
class HbaCompletion {
public:
    virtual ~HbaCompletion() = default;
    virtual void io_complete(IoRequest* io) = 0;
    // The HBA aborted the I/O's exchange (it did not complete in time) and holds nothing of it any
    // more; `reason` says what was missing.
    virtual void io_aborted(IoRequest* io, const std::string& reason) = 0;
};

}  // namespace fcal::hba
