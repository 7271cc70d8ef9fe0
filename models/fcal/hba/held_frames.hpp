#pragma once
// Frames an HBA built while their transmit FIFO had no room (back-pressure: docs/hba.md, "The HBAs",
// `tx_frames_held`). They wait here per frame class, in the order built and numbered across classes;
// whenever the FIFO may have room, the oldest held frame whose class it can take goes in, and so on
// while it can. With the reorder policy (one FIFO, commands first: docs/hba.md, "Command-First") a
// held command goes before held data: the command producer has the first claim on a free slot, so a
// command never waits behind data that is itself waiting for room. SystemC-free.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include "fcal/kernel/ring_queue.hpp"
#include "fcal/loop/loop_frame.hpp"
#include "fcal/loop/transmit_queue.hpp"

namespace fcal::hba {

class HeldFrames {
public:
    using FramePtr = loop::FrameRef;

    explicit HeldFrames(bool commands_first) : commands_first_(commands_first) {}

    // A new frame: it goes to the FIFO through `send(FramePtr)` at once unless it has to wait (its
    // FIFO is full, or an older held frame goes first), and is then counted in frames_held().
    template <class Send>
    void transmit(FramePtr frame, const loop::TransmitQueue& fifo, Send&& send)
    {
        auto& line = lines_[static_cast<std::size_t>(frame->frame_class)];
        line.push_back({next_number_++, std::move(frame)});
        release(fifo, send);
        if (!line.empty() && line.back().number == next_number_ - 1) ++frames_held_;
    }

    // The FIFO may have room: held frames go in while it takes them. `send` may call back into
    // release() (a frame pushed and popped at once frees its slot again).
    template <class Send>
    void release(const loop::TransmitQueue& fifo, Send&& send)
    {
        auto& commands = lines_[static_cast<std::size_t>(loop::FrameClass::Command)];
        for (;;) {
            Line* next = nullptr;
            if (commands_first_ && !commands.empty() && fifo.can_push(loop::FrameClass::Command)) {
                next = &commands;
            } else {
                for (auto& line : lines_)
                    if (!line.empty() && (!next || line.front().number < next->front().number) &&
                        fifo.can_push(line.front().frame->frame_class))
                        next = &line;
            }
            if (!next) return;
            FramePtr frame = std::move(next->front().frame);
            next->pop_front();
            send(std::move(frame));
        }
    }

    // Drops the held frames of the exchange `ox_id` (it was aborted); returns how many.
    std::size_t drop_exchange(std::uint16_t ox_id);

    std::size_t size() const;
    // Frames that had to wait here, since the start.
    std::uint64_t frames_held() const { return frames_held_; }

private:
    struct Held {
        std::uint64_t number = 0;
        FramePtr frame;
    };
    using Line = kernel::RingQueue<Held>;

    bool commands_first_;
    std::array<Line, 3> lines_;  // by loop::FrameClass
    std::uint64_t next_number_ = 0;
    std::uint64_t frames_held_ = 0;
};

}  // namespace fcal::hba
