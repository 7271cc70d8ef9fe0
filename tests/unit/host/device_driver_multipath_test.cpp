// Device driver with two paths (docs/host.md, "Dual loops and multipath"; docs/faults.md, "Loop failure"):
// the policy chooses each request's HBA, each HBA has its own max_outstanding, and an HBA whose link went
// down gives its requests back, each issued again once on the path still up.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <systemc>
#include <vector>

#include "fake_hba.hpp"
#include "fcal/host/device_driver.hpp"

using namespace fcal;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;

TEST_CASE("multipath: round robin, per-HBA limits, and a link down re-issues each request once on the other path")
{
    host::DeviceDriverParams p;
    p.completion_processing_s = 1e-6;
    p.max_outstanding = 2;
    p.multipath = host::Multipath::RoundRobin;
    host::DeviceDriver driver("driver", p);
    test::HoldingHba a, b;
    driver.set_hba(&a);
    driver.add_path(&b);
    std::map<std::uint64_t, unsigned> ends;
    std::vector<double> failover_s;
    driver.set_completion_callback([&](hba::IoRequest* io) {
        ++ends[io->id];
        if (io->failed_over) failover_s.push_back((io->completed - io->failover_from).to_seconds());
    });
    std::deque<hba::IoRequest> ios(5);
    for (std::uint64_t i = 0; i < ios.size(); ++i) {
        ios[i].id = i;
        driver.submit(&ios[i]);
    }
    sc_start(sc_time(10, SC_US));
    CHECK(a.given == std::vector<std::uint64_t>{0, 2});
    CHECK(b.given == std::vector<std::uint64_t>{1, 3});
    CHECK(driver.waiting() == 1);  // both HBAs full

    // Path 0's link went down at 10 us; reported now (20 us): 0 and 2 come back.
    sc_start(sc_time(10, SC_US));
    std::vector<hba::IoRequest*> lost = a.held;
    a.held.clear();
    driver.link_down(&a, lost, sc_time(10, SC_US));
    CHECK_FALSE(driver.path_up(0));
    sc_start(sc_time(5, SC_US));
    CHECK(driver.failovers() == 2);
    CHECK(driver.waiting() == 3);  // 4, then 0 and 2 after their processing: path 1 is full
    CHECK(a.given.size() == 2);    // nothing more to the path that is down

    // Path 1 completes its two: the FIFO's head goes on, to path 1 only.
    for (std::uint64_t id : {1, 3}) driver.io_complete(b.take(id));
    sc_start(sc_time(5, SC_US));
    CHECK(b.given == std::vector<std::uint64_t>{1, 3, 4, 0});
    driver.link_up(&a);  // path 0 back: the rest may go to it
    sc_start(sc_time(5, SC_US));
    CHECK(a.given == std::vector<std::uint64_t>{0, 2, 2});
    for (std::uint64_t id : {4, 0}) driver.io_complete(b.take(id));
    driver.io_complete(a.take(2));
    sc_start(sc_time(5, SC_US));
    // Each I/O ended exactly once; the two failed over were timed from the failure (10 us).
    REQUIRE(ends.size() == 5);
    for (const auto& [id, n] : ends) CHECK(n == 1);
    REQUIRE(failover_s.size() == 2);
    for (double t : failover_s) CHECK(t > 10e-6);
    CHECK(driver.holding() == 0);
    CHECK(driver.failovers() == 2);
    CHECK(driver.failover_completions() == 2);
}

namespace {

// Two drivers fed the same reports of one delta in opposite orders.
struct TwoPaths {
    host::DeviceDriver driver;
    test::HoldingHba a, b;
    std::deque<hba::IoRequest> ios = std::deque<hba::IoRequest>(5);
    std::vector<std::uint64_t> ended;
    explicit TwoPaths(const char* name) : driver(name, params())
    {
        driver.set_hba(&a);
        driver.add_path(&b);
        driver.set_completion_callback([this](hba::IoRequest* io) { ended.push_back(io->id); });
        for (std::uint64_t i = 0; i < ios.size(); ++i) {
            ios[i].id = i;
            driver.submit(&ios[i]);
        }
    }
    static host::DeviceDriverParams params()
    {
        host::DeviceDriverParams p;
        p.completion_processing_s = 1e-6;
        p.max_outstanding = 2;
        p.multipath = host::Multipath::RoundRobin;
        return p;
    }
};

}  // namespace

TEST_CASE("multipath: what two HBAs report in one delta is taken in path order whichever reports first")
{
    TwoPaths first_a("first_a"), first_b("first_b");
    sc_start(sc_time(10, SC_US));
    for (TwoPaths* t : {&first_a, &first_b}) {
        REQUIRE(t->a.given == std::vector<std::uint64_t>{0, 2});
        REQUIRE(t->b.given == std::vector<std::uint64_t>{1, 3});
        REQUIRE(t->driver.waiting() == 1);
    }
    // Each path completes one I/O in the same delta: path 0 first at one driver, path 1 first at the other.
    first_a.driver.io_complete(first_a.a.take(0));
    first_a.driver.io_complete(first_a.b.take(1));
    first_b.driver.io_complete(first_b.b.take(1));
    first_b.driver.io_complete(first_b.a.take(0));
    sc_start(sc_time(10, SC_US));
    for (TwoPaths* t : {&first_a, &first_b}) {
        // Path 0's completion first: its slot takes the request waiting (round robin's turn is path 0's).
        CHECK(t->ended == std::vector<std::uint64_t>{0, 1});
        CHECK(t->a.given == std::vector<std::uint64_t>{0, 2, 4});
        CHECK(t->b.given == std::vector<std::uint64_t>{1, 3});
    }
}

TEST_CASE("multipath: a link up followed by a link down in one delta leaves the path down")
{
    TwoPaths t("driver");
    sc_start(sc_time(10, SC_US));
    std::vector<hba::IoRequest*> lost = t.a.held;
    t.a.held.clear();
    t.driver.link_down(&t.a, lost, sc_time(10, SC_US));
    sc_start(sc_time(10, SC_US));
    REQUIRE_FALSE(t.driver.path_up(0));
    REQUIRE(t.driver.waiting() == 3);  // 4, then 0 and 2 given back: path 1 is full
    // The link comes back and goes down again in one delta, before the driver took the first report.
    t.driver.link_up(&t.a);
    t.driver.link_down(&t.a, {}, sc_time(20, SC_US));
    sc_start(sc_time(10, SC_US));
    CHECK_FALSE(t.driver.path_up(0));
    CHECK(t.a.given == std::vector<std::uint64_t>{0, 2});  // nothing went to the path that is down
    CHECK(t.driver.waiting() == 3);
}
