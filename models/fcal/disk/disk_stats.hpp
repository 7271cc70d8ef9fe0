#pragma once
// What one disk did over a run (warm-up included), or several disks summed.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <systemc>

namespace fcal::disk {

struct DiskStats {
    std::uint64_t commands_accepted = 0;
    std::uint64_t commands_rejected = 0;    // TASK SET FULL: every queue slot was taken
    std::uint64_t commands_served = 0;      // Ready notices sent
    std::uint64_t commands_aborted = 0;     // dropped while holding a slot (CommandKind::Abort)
    std::uint64_t reads_served = 0;
    std::uint64_t writes_served = 0;
    std::uint64_t writes_cached = 0;        // write-back: complete before their media write
    sc_core::sc_time busy_time;             // actuator: positioning + media transfer (+ pauses); with
                                            // max_concurrent > 1: some command in service
    std::size_t max_queue = 0;              // most slots held at once
    std::uint64_t buffer_bytes_in = 0;      // write data put into the buffer
    std::uint64_t buffer_bytes_out = 0;     // read data taken from the buffer
    std::uint64_t media_bytes = 0;          // moved to or from the medium (a WRITE SAME: its whole range)
    std::uint64_t announcements = 0;        // ReadData notices (partial reads handed to the HBA)
    std::uint64_t media_pauses = 0;         // the medium waited for buffer room
    // Sums over every positioning, seconds.
    std::uint64_t positionings = 0;
    double overhead_s = 0, seek_s = 0, rotation_s = 0, transfer_s = 0;

    // Adds `other`'s counts and sums (max_queue: the larger), for the figures of several disks.
    DiskStats& operator+=(const DiskStats& other);
    // What the actuator did, as means per positioning in us (0 without a positioning), and the
    // counts of rejected, announced, paused, cached and aborted commands (disk_mechanics).
    void report(nlohmann::json& j) const;
};

}  // namespace fcal::disk
