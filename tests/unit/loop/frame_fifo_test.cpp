// FrameFifo (docs/hba.md, "The transmit queue"): the oldest frame for a destination is the one a
// search from the front finds, whatever mix of pushes, inserts, removals and questions about
// alternating destinations came before (it remembers how far the front is known to hold frames for
// others, and must keep that true).
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "fcal/loop/frame_fifo.hpp"

using namespace fcal;

namespace {

loop::OutgoingFrame frame(phy::AlPa dest, std::uint32_t id)
{
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->destination = dest;
    f->payload_bytes = id;  // tells the frames apart
    return loop::OutgoingFrame{f};
}

// The reference: a vector searched from the front.
std::size_t oldest_in(const std::vector<loop::OutgoingFrame>& frames, phy::AlPa dest)
{
    std::size_t i = 0;
    while (i < frames.size() && frames[i].frame->destination != dest) ++i;
    return i;
}

}  // namespace

TEST_CASE("a frame FIFO finds the oldest frame for a destination as a search from the front does", "[loop][transmit_queue]")
{
    // 0x00 too: the FIFO's memory starts out as "nothing known about destination 0x00".
    const phy::AlPa dests[] = {0xE8, 0xE4, 0xE2, 0x00};
    std::mt19937 rng(19);
    loop::FrameFifo fifo;
    std::vector<loop::OutgoingFrame> ref;
    std::uint32_t next_id = 1;
    // The two destinations asked about last (what the FIFO remembers counts for), and how often the
    // walk did what could break those counts: found a frame behind frames for others, and inserted
    // or took a frame in front of such a frame (inside a remembered prefix).
    phy::AlPa asked[2] = {0x00, 0x00};
    auto inside_a_prefix = [&](std::size_t i) {
        for (phy::AlPa a : asked)
            if (i < oldest_in(ref, a)) return true;
        return false;
    };
    std::size_t found_behind = 0, taken_inside = 0, inserted_inside = 0;
    for (int step = 0; step < 20000; ++step) {
        const phy::AlPa dest = dests[rng() % 4];
        switch (rng() % 5) {
        case 0:
        case 1: {  // ask (the port's decisions and the queue's push checks)
            const std::size_t expected = oldest_in(ref, dest);
            REQUIRE(fifo.oldest_for(dest) == expected);
            if (expected > 0 && expected < ref.size()) ++found_behind;
            if (asked[0] != dest) {
                asked[1] = asked[0];
                asked[0] = dest;
            }
            break;
        }
        case 2:
            if (ref.size() < 48) {
                fifo.push_back(frame(dest, next_id));
                ref.push_back(frame(dest, next_id++));
            }
            break;
        case 3:
            if (ref.size() < 48) {  // somewhere inside (a command let ahead of data)
                const std::size_t i = rng() % (ref.size() + 1);
                inserted_inside += inside_a_prefix(i);
                fifo.insert(i, frame(dest, next_id));
                ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(i), frame(dest, next_id++));
            }
            break;
        case 4: {  // the oldest for a destination leaves (pop_for), or, now and then, any frame
            std::size_t i = oldest_in(ref, dest);
            if (rng() % 4 == 0 && !ref.empty()) i = rng() % ref.size();
            if (i == ref.size()) break;
            taken_inside += inside_a_prefix(i);
            REQUIRE(fifo.take(i).frame->payload_bytes == ref[i].frame->payload_bytes);
            ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(i));
            break;
        }
        }
        REQUIRE(fifo.size() == ref.size());
    }
    for (std::size_t i = 0; i < ref.size(); ++i) CHECK(fifo[i].frame->payload_bytes == ref[i].frame->payload_bytes);
    // The walk did what it is meant to test.
    CHECK(found_behind > 1000);
    CHECK(taken_inside > 500);
    CHECK(inserted_inside > 500);
}
