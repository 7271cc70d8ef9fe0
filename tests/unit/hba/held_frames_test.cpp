// The frames an HBA holds while its FIFO is full (hba/held_frames.hpp), without SystemC, against a
// FIFO whose room per frame class the test sets: the oldest held frame that fits goes first, a held
// command first with the reorder policy, an aborted exchange's frames never go.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/held_frames.hpp"

using namespace fcal;
using loop::FrameClass;
using FramePtr = hba::HeldFrames::FramePtr;

namespace {

// A FIFO that only says whether it has room, per class.
struct Room : loop::TransmitQueue {
    std::array<unsigned, 3> room{};
    unsigned& of(FrameClass c) { return room[static_cast<std::size_t>(c)]; }
    bool can_push(FrameClass c) const override { return room[static_cast<std::size_t>(c)] > 0; }
    bool empty() const override { return true; }
    const loop::OutgoingFrame* front() const override { return nullptr; }
    const loop::OutgoingFrame* front_for(phy::AlPa) const override { return nullptr; }

protected:
    void do_push(loop::OutgoingFrame) override {}
    loop::OutgoingFrame do_pop_for(phy::AlPa) override { return {}; }
};

// An FCP frame of exchange `ox_id`; `seq` tells the frames apart (its relative offset).
FramePtr frame(fcp::InformationUnit iu, std::uint16_t ox_id, std::uint32_t seq)
{
    fcp::FcFrame f;
    f.s_id = 0x01;
    f.d_id = 0x02;
    f.iu = iu;
    f.ox_id = ox_id;
    f.relative_offset = seq;
    return fcp::make_loop_frame(f);
}
FramePtr data(std::uint16_t ox_id, std::uint32_t seq) { return frame(fcp::InformationUnit::Data, ox_id, seq); }
FramePtr command(std::uint16_t ox_id, std::uint32_t seq) { return frame(fcp::InformationUnit::Command, ox_id, seq); }
FramePtr abts(std::uint16_t ox_id, std::uint32_t seq) { return frame(fcp::InformationUnit::Abts, ox_id, seq); }

// What went into the FIFO, by `seq`; each frame sent takes its class's room.
struct Sink {
    Room& fifo;
    std::vector<std::uint32_t> sent;
    void operator()(FramePtr f)
    {
        REQUIRE(fifo.can_push(f->frame_class));
        --fifo.of(f->frame_class);
        sent.push_back(fcp::fc_frame_of(*f).relative_offset);
    }
};

}  // namespace

TEST_CASE("Held frames: a frame with room goes at once, the others wait and go oldest first", "[hba][held_frames]")
{
    Room fifo;
    Sink sink{fifo, {}};
    hba::HeldFrames held(false);
    fifo.of(FrameClass::Data) = 1;
    held.transmit(data(1, 10), fifo, sink);
    held.transmit(data(1, 11), fifo, sink);  // no room: held
    held.transmit(abts(2, 12), fifo, sink);  // no room for "other": held
    CHECK(sink.sent == std::vector<std::uint32_t>{10});
    CHECK(held.size() == 2);
    CHECK(held.frames_held() == 2);
    // A command has room of its own: it passes the held frames of other classes.
    fifo.of(FrameClass::Command) = 1;
    held.transmit(command(3, 13), fifo, sink);
    CHECK(sink.sent == std::vector<std::uint32_t>{10, 13});
    CHECK(held.frames_held() == 2);
    // Room for one frame of each class: the oldest held first.
    fifo.of(FrameClass::Data) = 1;
    fifo.of(FrameClass::Other) = 1;
    held.release(fifo, sink);
    CHECK(sink.sent == std::vector<std::uint32_t>{10, 13, 11, 12});
    CHECK(held.size() == 0);
}

TEST_CASE("Held frames: a new frame waits behind an older held one of its class", "[hba][held_frames]")
{
    Room fifo;
    Sink sink{fifo, {}};
    hba::HeldFrames held(false);
    held.transmit(data(1, 1), fifo, sink);  // held
    fifo.of(FrameClass::Data) = 2;
    held.transmit(data(1, 2), fifo, sink);  // room now: the held one goes first, then this one
    CHECK(sink.sent == std::vector<std::uint32_t>{1, 2});
    CHECK(held.frames_held() == 1);
}

TEST_CASE("Held frames: with the reorder policy a held command goes before older held data", "[hba][held_frames]")
{
    for (const bool commands_first : {false, true}) {
        Room fifo;
        Sink sink{fifo, {}};
        hba::HeldFrames held(commands_first);
        held.transmit(data(1, 1), fifo, sink);
        held.transmit(command(2, 2), fifo, sink);
        held.transmit(data(1, 3), fifo, sink);
        // Room for two data frames and one command.
        fifo.room = {2, 1, 0};
        held.release(fifo, sink);
        if (commands_first)
            CHECK(sink.sent == std::vector<std::uint32_t>{2, 1, 3});
        else
            CHECK(sink.sent == std::vector<std::uint32_t>{1, 2, 3});
    }
}

TEST_CASE("Held frames: an aborted exchange's held frames are dropped", "[hba][held_frames]")
{
    Room fifo;
    Sink sink{fifo, {}};
    hba::HeldFrames held(false);
    held.transmit(data(7, 1), fifo, sink);
    held.transmit(data(8, 2), fifo, sink);
    held.transmit(command(7, 3), fifo, sink);
    held.transmit(data(7, 4), fifo, sink);
    CHECK(held.drop_exchange(7) == 3);
    fifo.room = {5, 5, 5};
    held.release(fifo, sink);
    CHECK(sink.sent == std::vector<std::uint32_t>{2});
}

TEST_CASE("Held frames: a send that frees its slot at once lets the next one follow in order", "[hba][held_frames]")
{
    Room fifo;
    hba::HeldFrames held(false);
    std::vector<std::uint32_t> sent;
    // The port takes each frame off the FIFO as it arrives, which frees the slot and asks for more.
    std::function<void(FramePtr)> send = [&](FramePtr f) {
        sent.push_back(fcp::fc_frame_of(*f).relative_offset);
        held.release(fifo, send);
    };
    for (std::uint32_t i = 1; i <= 4; ++i) held.transmit(data(1, i), fifo, send);
    CHECK(sent.empty());
    fifo.of(FrameClass::Data) = 1;
    held.release(fifo, send);
    CHECK(sent == std::vector<std::uint32_t>{1, 2, 3, 4});
}
