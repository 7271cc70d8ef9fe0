#pragma once
// An HBA's exchange IDs (docs/hba.md, "The HBAs"): OX_IDs at the initiator, RX_IDs at a target. They
// are handed out 1, 2, ... and round again, skipping 0xFFFF (unassigned), the IDs of open exchanges
// and the quarantined ones: IDs of exchanges given up on without a BA_ACC, whose target may still send
// frames for them (docs/faults.md, "FCP recovery"). A quarantined ID is kept out of
// use until `quarantine_limit` later ones have been quarantined. SystemC-free.
//
// One bit per ID for "open" and one for "quarantined" (16 KiB in all), so that handing out and
// releasing an ID costs no lookup in a tree and allocates nothing.
#include <bitset>
#include <cstddef>
#include <cstdint>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/kernel/ring_queue.hpp"

namespace fcal::hba {

class ExchangeIdPool {
public:
    explicit ExchangeIdPool(std::size_t quarantine_limit = 0) : quarantine_limit_(quarantine_limit) {}

    // The first ID after the last one handed out that is neither open nor quarantined; it is open
    // from now on. Throws std::length_error when every ID is taken.
    std::uint16_t acquire()
    {
        for (std::size_t tried = 0; tried < kIds; ++tried) {
            last_ = static_cast<std::uint16_t>(last_ + 1);
            if (last_ == fcp::kUnassignedId || open_[last_] || quarantined_[last_]) continue;
            open_[last_] = true;
            ++open_count_;
            return last_;
        }
        exhausted();
    }
    // The exchange of `id` is closed: the ID may be handed out again (unless quarantined).
    void release(std::uint16_t id)
    {
        if (!open_[id]) return;
        open_[id] = false;
        --open_count_;
    }
    bool open(std::uint16_t id) const { return open_[id]; }
    std::size_t open_count() const { return open_count_; }

    // Keeps `id` out of use, released or not, until quarantine_limit later IDs have been quarantined.
    void quarantine(std::uint16_t id);
    bool quarantined(std::uint16_t id) const { return quarantined_[id]; }
    std::size_t quarantined_count() const { return quarantine_order_.size(); }

private:
    static constexpr std::size_t kIds = 0x10000;
    [[noreturn]] static void exhausted();
    std::bitset<kIds> open_;
    std::bitset<kIds> quarantined_;
    kernel::RingQueue<std::uint16_t> quarantine_order_;  // oldest first
    std::size_t quarantine_limit_;
    std::size_t open_count_ = 0;
    std::uint16_t last_ = 0;
};

}  // namespace fcal::hba
