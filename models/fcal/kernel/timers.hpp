#pragma once
// A module's deadlines on the one timer facility (kernel/timer_facility.hpp; docs/kernel.md,
// "Timers"): start() a deadline carrying a payload, cancel() it with the handle
// start() returned; when its time comes the `expired` callback gets the payload. Deadlines due at the
// same time expire in the order they were started.
//
// The deadlines are a binary heap over a reused slot table, so that starting and cancelling cost no
// allocation once the tables have grown to the module's peak: a cancelled deadline stays in the heap
// until it surfaces, or until cancelled ones outnumber the running ones and the heap is rebuilt.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "fcal/kernel/timer_facility.hpp"

namespace fcal::kernel {

// Names one started deadline of a Timers. A handle of a deadline that expired or was cancelled, or
// TimerHandle{}, names none: cancel() ignores it. One type for every payload, so that a piece that
// only keeps and hands back handles need not know its module's payload.
struct TimerHandle {
    std::uint32_t slot = ~0u;
    std::uint32_t generation = 0;
};

template <class Payload>
class Timers : public TimerFacility {
public:
    using Handle = TimerHandle;
    using Expired = std::function<void(Payload&)>;

    Timers(sc_core::sc_module_name name, Expired expired) : TimerFacility(name), expired_(std::move(expired)) {}

    Handle start(const sc_core::sc_time& delay, Payload payload)
    {
        std::uint32_t slot;
        if (free_.empty()) {
            slot = static_cast<std::uint32_t>(slots_.size());
            slots_.emplace_back();
        } else {
            slot = free_.back();
            free_.pop_back();
        }
        Slot& s = slots_[slot];
        s.payload = std::move(payload);
        s.live = true;
        ++running_;
        heap_.push_back({sc_core::sc_time_stamp() + delay, next_order_++, slot, s.generation});
        std::push_heap(heap_.begin(), heap_.end(), later);
        schedule();
        return {slot, s.generation};
    }

    void cancel(Handle h)
    {
        if (!is_running(h)) return;
        release(h.slot);
        ++cancelled_;
        prune();
    }

    bool is_running(Handle h) const
    {
        return h.slot < slots_.size() && slots_[h.slot].live && slots_[h.slot].generation == h.generation;
    }
    std::size_t running() const { return running_; }

private:
    struct Slot {
        Payload payload{};
        std::uint32_t generation = 0;
        bool live = false;
    };
    struct Entry {
        sc_core::sc_time at;
        std::uint64_t order;  // start order: ties expire first started, first
        std::uint32_t slot;
        std::uint32_t generation;
    };
    // The heap's "less": the later deadline, so that the earliest is on top.
    static bool later(const Entry& a, const Entry& b) { return b.at < a.at || (a.at == b.at && b.order < a.order); }
    bool live(const Entry& e) const { return slots_[e.slot].live && slots_[e.slot].generation == e.generation; }

    void release(std::uint32_t slot)
    {
        Slot& s = slots_[slot];
        s.live = false;
        ++s.generation;
        s.payload = Payload{};
        free_.push_back(slot);
        --running_;
    }

    void pop()
    {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        heap_.pop_back();
    }

    // Cancelled deadlines leave the top at once (earliest() is then the true one), the others when
    // they surface, or all together once they outnumber the running ones.
    void prune()
    {
        while (!heap_.empty() && !live(heap_.front())) {
            pop();
            --cancelled_;
        }
        if (cancelled_ > running_ + 16) {
            heap_.erase(std::remove_if(heap_.begin(), heap_.end(), [this](const Entry& e) { return !live(e); }), heap_.end());
            std::make_heap(heap_.begin(), heap_.end(), later);
            cancelled_ = 0;
        }
    }

    bool earliest(sc_core::sc_time& at) const override
    {
        if (heap_.empty()) return false;
        at = heap_.front().at;
        return true;
    }

    bool expire_due() override
    {
        bool any = false;
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        while (!heap_.empty() && heap_.front().at <= now) {
            const Entry e = heap_.front();
            pop();
            Payload payload = std::move(slots_[e.slot].payload);
            release(e.slot);
            any = true;
            expired_(payload);  // may start and cancel deadlines
            prune();
        }
        return any;
    }

    Expired expired_;
    std::vector<Slot> slots_;
    std::vector<std::uint32_t> free_;
    std::vector<Entry> heap_;  // running and cancelled deadlines
    std::size_t running_ = 0;
    std::size_t cancelled_ = 0;  // in heap_
    std::uint64_t next_order_ = 0;
};

}  // namespace fcal::kernel
