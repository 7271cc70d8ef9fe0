// The disk's read buffer (disk/read_buffer.hpp), without SystemC: room reserved per media step, the
// full-ratio announcement, reads out of announced bytes only, room given back, aborts.
#include <catch2/catch.hpp>

#include "fcal/disk/read_buffer.hpp"

using fcal::disk::ReadBuffer;
using Arrival = ReadBuffer::Arrival;

TEST_CASE("Read buffer: steps fill it, the full ratio announces, reading out makes room", "[disk][read_buffer]")
{
    // 16 KiB of room, announce at a quarter (4 KiB); a 20 KiB read in 4 KiB steps.
    ReadBuffer b(16384, 0.25);
    b.open(1, 20480);
    CHECK(b.holds(1));
    CHECK(b.next_step(1, 4096) == 4096);
    CHECK(b.next_step(1, 65536) == 16384);  // never more than the buffer holds
    REQUIRE(b.reserve(4096));
    CHECK(b.arrived(1, 4096) == Arrival::Announce);  // 4096 not announced >= 0.25 x 16384
    CHECK(b.announce(1) == 4096);
    CHECK_FALSE(b.unannounced(1));
    // Only announced bytes may be read.
    CHECK_FALSE(b.take(1, 0, 8192));
    CHECK(b.take(1, 0, 4096));
    b.release(4096);
    CHECK(b.used() == 0);
    // Three more steps that nobody reads (12 KiB), then room for the last one: the buffer is full.
    for (int i = 0; i < 3; ++i) {
        REQUIRE(b.reserve(4096));
        CHECK(b.arrived(1, 4096) == Arrival::Announce);
        b.announce(1);
    }
    REQUIRE(b.reserve(4096));
    CHECK(b.used() == 16384);
    CHECK_FALSE(b.reserve(1));
    // The last step completes the read: it counts as announced, all of it may be read.
    CHECK(b.next_step(1, 4096) == 4096);
    CHECK(b.arrived(1, 4096) == Arrival::Complete);
    CHECK(b.take(1, 4096, 16384));
    CHECK_FALSE(b.holds(1));  // all taken: forgotten
    b.release(16384);
    CHECK(b.used() == 0);
}

TEST_CASE("Read buffer: below the full ratio a step is not announced", "[disk][read_buffer]")
{
    ReadBuffer b(16384, 0.5);
    b.open(2, 32768);
    REQUIRE(b.reserve(4096));
    CHECK(b.arrived(2, 4096) == Arrival::More);
    CHECK(b.unannounced(2));
    REQUIRE(b.reserve(4096));
    CHECK(b.arrived(2, 4096) == Arrival::Announce);  // 8192 >= 0.5 x 16384
}

TEST_CASE("Read buffer: an aborted read gives back what it held", "[disk][read_buffer]")
{
    ReadBuffer b(16384, 1.0);
    b.open(3, 16384);
    for (int i = 0; i < 3; ++i) {
        REQUIRE(b.reserve(4096));
        b.arrived(3, 4096);
    }
    b.announce(3);
    REQUIRE(b.take(3, 0, 4096));
    b.release(4096);
    CHECK(b.used() == 8192);
    b.drop(3);
    CHECK(b.used() == 0);
    CHECK_FALSE(b.holds(3));
    b.drop(3);  // nothing left: no effect
    CHECK(b.used() == 0);
}

TEST_CASE("Read buffer without a limit (fixed disk): a read is filled whole, nothing is accounted", "[disk][read_buffer]")
{
    ReadBuffer b(0, 0.25);
    b.open(4, 1 << 20);
    CHECK_FALSE(b.take(4, 0, 1));
    b.fill(4);
    CHECK(b.take(4, 0, 1 << 19));
    b.drop(4);
    CHECK(b.used() == 0);
}
