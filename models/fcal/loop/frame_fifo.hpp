#pragma once
// A transmit queue's FIFO of outgoing frames, oldest first, that finds the oldest frame for a
// destination (docs/hba.md, "The transmit queue"). While a circuit is open the port asks for the
// peer's next frame several times per frame it sends (its decisions), the queue asks for the frame's
// destination at each push (is it the first for it?), and a controller's FIFO holds frames for
// other ports ahead of the peer's (a write's data for another disk). So the FIFO remembers, for the
// two destinations asked about last (the peer, and the one its producer is pushing frames for), how
// many frames at its front are known to be for others, and a search for that destination starts
// behind them. Pushes, inserts and removals keep those counts true, so every answer is the one a
// search from the front gives (writes: 15 000 instructions per I/O fewer; docs/speed.md, "Speed
// benchmark"). A ring that grows to its peak and stays (docs/kernel.md, "No allocation per frame").
#include <cstddef>

#include "fcal/kernel/ring_queue.hpp"
#include "fcal/loop/outgoing_frame.hpp"

namespace fcal::loop {

class FrameFifo {
public:
    bool empty() const { return frames_.empty(); }
    std::size_t size() const { return frames_.size(); }
    const OutgoingFrame& front() const { return frames_.front(); }
    const OutgoingFrame& operator[](std::size_t i) const { return frames_[i]; }

    // The position of the oldest frame for `dest`, or size() if there is none.
    std::size_t oldest_for(phy::AlPa dest) const
    {
        if (frames_.empty()) return 0;
        if (frames_.front().frame->destination == dest) return 0;  // (no count can then be above 0)
        Known& k = known_[0].dest == dest ? known_[0] : known_[1].dest == dest ? known_[1] : forget_older();
        std::size_t i = k.others_ahead;
        while (i < frames_.size() && frames_[i].frame->destination != dest) ++i;
        k.dest = dest;
        k.others_ahead = i;
        last_ = static_cast<std::size_t>(&k - known_);
        return i;
    }

    void push_back(OutgoingFrame&& f) { frames_.push_back(std::move(f)); }  // behind all: the count holds
    // At the i-th place from the front (i <= size()).
    void insert(std::size_t i, OutgoingFrame&& f)
    {
        for (Known& k : known_)
            if (i < k.others_ahead) k.others_ahead = f.frame->destination == k.dest ? i : k.others_ahead + 1;
        frames_.insert(i, std::move(f));
    }
    // Removes and returns the i-th frame from the front (i < size()).
    OutgoingFrame take(std::size_t i)
    {
        OutgoingFrame out = i == 0 ? frames_.take_front() : std::move(frames_[i]);
        if (i > 0) frames_.erase(i);
        for (Known& k : known_)
            if (i < k.others_ahead) --k.others_ahead;
        return out;
    }

private:
    kernel::RingQueue<OutgoingFrame> frames_;
    // For the two destinations asked about last: the frames [0, others_ahead) are for others.
    struct Known {
        phy::AlPa dest = 0;
        std::size_t others_ahead = 0;  // (0: nothing known)
    };
    mutable Known known_[2];
    mutable std::size_t last_ = 0;  // the one asked about last
    Known& forget_older() const
    {
        Known& k = known_[1 - last_];
        k.others_ahead = 0;
        return k;
    }
};

}  // namespace fcal::loop
