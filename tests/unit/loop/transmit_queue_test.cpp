// The transmit queue's hardware-shaped interface (issue 8): the producer sees capacity, the port is
// told only when a push can change its next decision, the producer is told when a pop frees a slot.
#include <catch2/catch.hpp>

#include "fcal/loop/transmit_queue.hpp"

using namespace fcal;

namespace {

loop::OutgoingFrame frame(phy::AlPa dest, loop::FrameClass c = loop::FrameClass::Data)
{
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->source = 0x01;
    f->destination = dest;
    f->payload_bytes = 64;
    f->frame_class = c;
    return loop::OutgoingFrame{f};
}

}  // namespace

TEST_CASE("the port is told of a push only when its head or a destination's first frame changed", "[loop][transmit_queue]")
{
    loop::FifoTransmitQueue q;
    int told = 0, freed = 0;
    q.set_head_listener([&] { ++told; });
    q.set_space_listener([&] { ++freed; });

    q.push(frame(0xE8));  // new head
    CHECK(told == 1);
    q.push(frame(0xE8));  // behind the head, and 0xE8 already had a frame
    CHECK(told == 1);
    q.push(frame(0xE4));  // the first frame for 0xE4: a circuit to 0xE4 would now have something to send
    CHECK(told == 2);
    CHECK(freed == 0);

    CHECK(q.pop_for(0xE4).frame->destination == 0xE4);
    CHECK(freed == 1);
    q.pop_for(0xE8);
    q.pop_for(0xE8);
    CHECK(freed == 3);
    CHECK(q.empty());
    q.push(frame(0xE8));  // into an empty queue: new head
    CHECK(told == 3);
}

TEST_CASE("frames carry their class for the scheduler, named in messages", "[loop][transmit_queue]")
{
    CHECK(std::string(loop::to_string(loop::FrameClass::Command)) == "command");
    CHECK(std::string(loop::to_string(loop::FrameClass::Data)) == "data");
    CHECK(std::string(loop::to_string(loop::FrameClass::Other)) == "other");
    CHECK(frame(0xE8, loop::FrameClass::Command).frame_class() == loop::FrameClass::Command);
    // The plain FIFO has no limit.
    loop::FifoTransmitQueue q;
    for (int i = 0; i < 5000; ++i) q.push(frame(0xE8));
    CHECK(q.can_push(loop::FrameClass::Data));
}
