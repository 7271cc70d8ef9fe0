// The disk's command scheduler (disk/command_scheduler.hpp), without SystemC: FCFS serves in the order
// commands became eligible; SPTF the shortest estimated positioning, the oldest on a tie; a command can
// be taken out (an abort) from anywhere in the queue.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "fcal/disk/command_scheduler.hpp"

using fcal::disk::CommandScheduler;
using fcal::disk::Scheduler;

namespace {

struct Command {
    int tag = 0;
    double positioning_s = 0;  // what the mechanism would estimate for it
};

std::vector<int> serve_all(CommandScheduler<Command>& s, int* estimates = nullptr)
{
    std::vector<int> order;
    while (!s.empty())
        order.push_back(s.take([estimates](const Command& c) {
                             if (estimates) ++*estimates;
                             return c.positioning_s;
                         }).tag);
    return order;
}

}  // namespace

TEST_CASE("FCFS serves in arrival order and never asks for an estimate", "[disk][scheduler]")
{
    CommandScheduler<Command> s(Scheduler::Fcfs);
    s.push({1, 9.0});
    s.push({2, 1.0});
    s.push({3, 5.0});
    int estimates = 0;
    CHECK(serve_all(s, &estimates) == std::vector<int>{1, 2, 3});
    CHECK(estimates == 0);
}

TEST_CASE("SPTF serves the shortest positioning first, the oldest on a tie", "[disk][scheduler]")
{
    CommandScheduler<Command> s(Scheduler::Sptf);
    s.push({1, 3.0});
    s.push({2, 1.0});
    s.push({3, 2.0});
    s.push({4, 1.0});  // ties with 2, which is older
    CHECK(serve_all(s) == std::vector<int>{2, 4, 3, 1});
}

TEST_CASE("SPTF with one command waiting takes it without an estimate", "[disk][scheduler]")
{
    CommandScheduler<Command> s(Scheduler::Sptf);
    s.push({7, 3.0});
    int estimates = 0;
    CHECK(serve_all(s, &estimates) == std::vector<int>{7});
    CHECK(estimates == 0);
}

TEST_CASE("A command can be removed from the scheduler's queue; the others keep their order", "[disk][scheduler]")
{
    CommandScheduler<Command> s(Scheduler::Fcfs);
    for (int t = 1; t <= 4; ++t) s.push({t, 0});
    CHECK(s.remove([](const Command& c) { return c.tag == 3; }));
    CHECK_FALSE(s.remove([](const Command& c) { return c.tag == 3; }));
    CHECK(s.size() == 3);
    CHECK(serve_all(s) == std::vector<int>{1, 2, 4});
}
