// Frames handed to a port before they are due (loop/frames_ahead.hpp): each enters the queue at its
// due time or later when its entry would tell the port nothing; the port is to wake at the due time
// of any other.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/loop/frames_ahead.hpp"

using namespace fcal;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

loop::OutgoingFrame frame(phy::AlPa dest, std::uint32_t bytes = 64)
{
    auto f = kernel::make_ref<loop::LoopFrame>();
    f->source = 0x01;
    f->destination = dest;
    f->payload_bytes = bytes;
    return loop::OutgoingFrame{f};
}

sc_time ns(double v) { return sc_time(v, SC_NS); }

}  // namespace

TEST_CASE("frames ahead: a wake is needed only where the entry would tell the port something", "[loop][frames_ahead]")
{
    loop::FifoTransmitQueue q;
    int told = 0;
    q.set_head_listener([&] { ++told; });
    loop::FramesAhead ahead;
    CHECK(!ahead.wake_for(q, true));  // nothing ahead
    ahead.add(frame(0xE8), ns(100), 7);
    ahead.add(frame(0xE8), ns(200), 7);
    // An empty queue: the first frame would be its head.
    REQUIRE(ahead.wake_for(q, false));
    CHECK(*ahead.wake_for(q, false) == ns(100));
    q.push(frame(0xE4));
    CHECK(*ahead.wake_for(q, false) == ns(100));  // the first frame for 0xE8 all the same
    q.push(frame(0xE8));
    CHECK(!ahead.wake_for(q, false));  // behind a frame for 0xE8: the push would tell nothing
    CHECK(*ahead.wake_for(q, true) == ns(100));  // a port that reports every change wakes anyway
    told = 0;
    std::vector<std::uint32_t> admitted;
    ahead.admit_due(ns(150), [&](loop::OutgoingFrame f) {
        admitted.push_back(static_cast<std::uint32_t>(f.frame->payload_bytes));
        q.push(std::move(f));
    });
    CHECK(admitted.size() == 1);
    CHECK(told == 0);  // as wake_for said
    CHECK(ahead.size() == 1);
}

TEST_CASE("frames ahead: in order of due time; withdrawn only after now and for their tag", "[loop][frames_ahead]")
{
    loop::FramesAhead ahead;
    ahead.add(frame(0xE8, 1), ns(100), 7);
    ahead.add(frame(0xE8, 2), ns(200), 8);
    ahead.add(frame(0xE8, 3), ns(300), 7);
    ahead.add(frame(0xE8, 4), ns(300), 7);  // the same due time is allowed
    CHECK_THROWS_AS(ahead.add(frame(0xE8, 5), ns(250), 7), std::logic_error);
    // At 100 ns: the frame due then counts as queued already; the later ones of tag 7 go.
    CHECK(ahead.withdraw(7, ns(100)) == 2);
    std::vector<std::uint32_t> order;
    ahead.admit_due(ns(1000), [&](loop::OutgoingFrame f) { order.push_back(static_cast<std::uint32_t>(f.frame->payload_bytes)); });
    CHECK(order == std::vector<std::uint32_t>{1, 2});
    CHECK(ahead.empty());
}
