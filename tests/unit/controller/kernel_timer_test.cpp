// The controller's timer on the SystemC kernel: one call at a time, a later start() replacing the
// pending call whether it is due earlier or later, stop() cancelling it.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/controller/kernel_timer.hpp"

using namespace fcal;
using sc_core::SC_US;
using sc_core::sc_time;

TEST_CASE("kernel timer: calls once at its time; a new start replaces the pending call; stop cancels")
{
    controller::KernelTimer timer("timer");
    std::vector<std::pair<double, int>> calls;
    const auto record = [&](int tag) { return [&, tag] { calls.emplace_back(timer.now().to_seconds() * 1e6, tag); }; };
    timer.start(sc_time(10, SC_US), record(1));
    sc_core::sc_start(sc_time(5, SC_US));
    timer.start(sc_time(20, SC_US), record(2));  // due at 25 us: the event pending for 10 us re-arms
    sc_core::sc_start(sc_time(30, SC_US));       // to 35 us
    timer.start(sc_time(50, SC_US), record(3));  // due at 85 us
    sc_core::sc_start(sc_time(5, SC_US));
    timer.start(sc_time(5, SC_US), record(4));   // due at 45 us, earlier than the pending 85 us
    sc_core::sc_start(sc_time(100, SC_US));
    timer.start(sc_time(10, SC_US), record(5));
    timer.stop();
    sc_core::sc_start(sc_time(100, SC_US));
    CHECK(calls == std::vector<std::pair<double, int>>{{25, 2}, {45, 4}});
    // A call may start the next one.
    std::function<void()> again = [&] {
        calls.emplace_back(timer.now().to_seconds() * 1e6, 6);
        if (calls.size() < 4) timer.start(sc_time(1, SC_US), again);
    };
    timer.start(sc_time(1, SC_US), again);
    sc_core::sc_start(sc_time(10, SC_US));
    CHECK(calls.size() == 4);
    CHECK(calls.back().first == Approx(calls[2].first + 1));
}
