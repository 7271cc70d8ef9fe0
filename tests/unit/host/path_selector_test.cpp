// host::PathSelector (docs/host.md, "Dual loops and multipath"): which path each policy chooses.
#include <catch2/catch.hpp>

#include "fcal/host/path_selector.hpp"

using fcal::host::Multipath;
using fcal::host::PathSelector;
using fcal::host::PathState;

TEST_CASE("path selector: failover keeps to the first path that is up, and waits for its room")
{
    PathSelector s(Multipath::Failover);
    std::vector<PathState> p(2);
    for (int i = 0; i < 5; ++i) CHECK(s.choose(p) == 0u);
    p[0].room = false;
    CHECK_FALSE(s.choose(p).has_value());  // loop 1 has room, but failover does not spread
    p[0].up = false;
    CHECK(s.choose(p) == 1u);
    p[1].room = false;
    CHECK_FALSE(s.choose(p).has_value());
    p[0] = PathState{};  // loop 0 back: the I/Os return to it
    CHECK(s.choose(p) == 0u);
}

TEST_CASE("path selector: round robin alternates and skips a path down or full")
{
    PathSelector s(Multipath::RoundRobin);
    std::vector<PathState> p(2);
    CHECK(s.choose(p) == 0u);
    CHECK(s.choose(p) == 1u);
    CHECK(s.choose(p) == 0u);
    p[1].up = false;
    CHECK(s.choose(p) == 0u);
    CHECK(s.choose(p) == 0u);
    p[1].up = true;
    p[0].room = false;
    CHECK(s.choose(p) == 1u);
    CHECK(s.choose(p) == 1u);
    p[1].room = false;
    CHECK_FALSE(s.choose(p).has_value());
    // One path: always it.
    PathSelector one(Multipath::RoundRobin);
    std::vector<PathState> single(1);
    for (int i = 0; i < 3; ++i) CHECK(one.choose(single) == 0u);
}

TEST_CASE("path selector: least queue takes the path with the fewest I/Os out, the lower on a tie")
{
    PathSelector s(Multipath::LeastQueue);
    std::vector<PathState> p(2);
    p[0].outstanding = 3;
    p[1].outstanding = 2;
    CHECK(s.choose(p) == 1u);
    p[1].outstanding = 3;
    CHECK(s.choose(p) == 0u);
    p[0].room = false;
    CHECK(s.choose(p) == 1u);
    p[1].up = false;
    CHECK_FALSE(s.choose(p).has_value());
}
