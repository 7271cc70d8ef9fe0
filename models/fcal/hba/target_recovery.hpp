#pragma once
// The target HBA's part of FCP recovery (docs/faults.md, "FCP recovery"): which RX_IDs were aborted
// and what comes for them late, write data out of sequence, and the counts. It decides and counts;
// the HBA drops the exchange (its DMA, timer and disk command). SystemC-free.
//
// - An exchange dropped (ABTS received, or its write data not in within data_timeout) leaves its
//   RX_ID marked aborted until the RX_ID is reused: frames that still come for it are late (dropped,
//   counted), and a disk notice for it is ignored.
// - A write data frame at an offset other than the next expected shows a lost frame: the exchange is
//   broken, and it and every later data frame of it are dropped (counted); the initiator's timer
//   aborts it.
#include <cstdint>
#include <set>

#include <nlohmann/json.hpp>

namespace fcal::hba {

class TargetRecovery {
public:
    void exchange_opened(std::uint16_t rx_id) { aborted_.erase(rx_id); }  // its RX_ID (re)used
    void exchange_dropped(std::uint16_t rx_id) { aborted_.insert(rx_id); }
    // Not an open exchange: was it aborted (and its notices to be ignored)?
    bool was_aborted(std::uint16_t rx_id) const { return aborted_.count(rx_id) != 0; }
    // A frame for an RX_ID with no open exchange: true (and counted late) if it was aborted.
    bool late(std::uint16_t rx_id);
    // A write data frame at `offset` of an exchange with `expected` bytes in: false (dropped, counted)
    // once one went missing; `broken` is the exchange's own mark.
    bool in_sequence(bool& broken, std::uint32_t offset, std::uint32_t expected);
    void abts_received() { ++aborts_received_; }
    void data_timed_out() { ++data_timeouts_; }

    std::uint64_t aborts_received() const { return aborts_received_; }
    std::uint64_t late_frames() const { return late_frames_; }
    std::uint64_t sequence_errors() const { return sequence_errors_; }
    std::uint64_t data_timeouts() const { return data_timeouts_; }
    void report(nlohmann::json& j) const;  // late_frames, data_timeouts, sequence_errors, whole run

private:
    std::set<std::uint16_t> aborted_;  // RX_IDs aborted and not yet reused
    std::uint64_t aborts_received_ = 0, late_frames_ = 0, sequence_errors_ = 0, data_timeouts_ = 0;
};

}  // namespace fcal::hba
