#pragma once
// Frames the layer above hands to a port before they are due: a DMA engine that fetches a read's
// frames ahead of time knows when each one's transfer ends (docs/hba.md, "DMA"). Each frame counts
// as queued from its due time on, exactly as if the layer above had queued it then; the port takes
// it into its transmit queue then (LPort::admit_frames_ahead) or later, when nothing can have told
// the difference (docs/loop.md, "Frames handed over ahead"):
// - a frame whose entry would tell the port nothing (TransmitQueue::push: the head stays and a frame
//   for its destination is queued already) enters at the port's next look at its queue — its next
//   run, the next frame queued, or a discard — all of which take in every frame due by then first;
// - any other frame needs the port to take it in at its due time: wake_for() says when.
// The due times of the frames handed over never decrease. SystemC-free but for sc_time.
#include <cstdint>
#include <optional>
#include <systemc>

#include "fcal/kernel/ring_queue.hpp"
#include "fcal/loop/transmit_queue.hpp"

namespace fcal::loop {

class FramesAhead {
public:
    bool empty() const { return frames_.empty(); }
    std::size_t size() const { return frames_.size(); }
    // The i-th frame, by due time.
    const OutgoingFrame& frame(std::size_t i) const { return frames_[i].frame; }
    const sc_core::sc_time& due(std::size_t i) const { return frames_[i].due; }
    // `frame`, due at `due` (no earlier than the last one added), of the layer above's `tag` (its
    // exchange).
    void add(OutgoingFrame frame, const sc_core::sc_time& due, std::uint64_t tag);
    // Hands every frame due at `now` or before to `admit`, in order.
    template <class Admit>
    void admit_due(const sc_core::sc_time& now, Admit&& admit)
    {
        while (!frames_.empty() && frames_.front().due <= now) admit(frames_.take_front().frame);
    }
    // When the first frame must be taken in at its due time: if its entry into `queue` as it is now
    // would tell the port something, or if `always` (a port that reports every change).
    std::optional<sc_core::sc_time> wake_for(const TransmitQueue& queue, bool always) const;
    // The frames of `tag` due after `now` are taken back (their transfer had not ended): how many.
    std::size_t withdraw(std::uint64_t tag, const sc_core::sc_time& now);

private:
    struct Entry {
        sc_core::sc_time due;
        std::uint64_t tag = 0;
        OutgoingFrame frame;
    };
    kernel::RingQueue<Entry> frames_;
};

}  // namespace fcal::loop
