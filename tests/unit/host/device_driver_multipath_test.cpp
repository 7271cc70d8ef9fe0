// Device driver with two paths (docs/host.md, "Dual loops and multipath"; docs/faults.md, "Loop failure"):
// the policy chooses each request's HBA, each HBA has its own max_outstanding, and an HBA whose link went
// down gives its requests back, each issued again once on the path still up.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <systemc>
#include <vector>

#include "fcal/host/device_driver.hpp"

using namespace fcal;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

// An HBA that keeps what it is given until the test completes it.
struct HoldingHba : hba::HbaFrontEnd {
    std::vector<hba::IoRequest*> held;
    std::vector<std::uint64_t> given;  // ids, in order
    void submit(hba::IoRequest* io) override
    {
        held.push_back(io);
        given.push_back(io->id);
    }
    hba::IoRequest* take(std::uint64_t id)
    {
        for (auto it = held.begin(); it != held.end(); ++it)
            if ((*it)->id == id) {
                hba::IoRequest* io = *it;
                held.erase(it);
                return io;
            }
        FAIL("the HBA does not hold I/O " << id);
        return nullptr;
    }
};

}  // namespace

TEST_CASE("multipath: round robin, per-HBA limits, and a link down re-issues each request once on the other path")
{
    host::DeviceDriverParams p;
    p.completion_processing_s = 1e-6;
    p.max_outstanding = 2;
    p.multipath = host::Multipath::RoundRobin;
    host::DeviceDriver driver("driver", p);
    HoldingHba a, b;
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
