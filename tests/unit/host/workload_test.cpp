// Closed and open workloads over a real device driver and a fake HBA; the random stream itself.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <systemc>
#include <tuple>
#include <vector>

#include "fake_hba.hpp"
#include "fcal/host/closed_workload.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/open_workload.hpp"
#include "fcal/host/split_mix64.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::SC_SEC;
using sc_core::SC_US;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

const std::vector<phy::AlPa> kFourDisks{0xE8, 0xE4, 0xE2, 0xE1};

host::WorkloadParams workload_params(std::vector<phy::AlPa> disks, double read_fraction, std::uint64_t total,
                                     std::uint64_t seed = 1)
{
    host::WorkloadParams p;
    p.disks = std::move(disks);
    p.read_fraction = read_fraction;
    p.io_size_bytes = 65536;
    p.total_ios = total;
    p.seed = seed;
    return p;
}

// Zero processing and the simulator's default window (initiator.max_outstanding).
host::DeviceDriverParams unlimited_driver()
{
    host::DeviceDriverParams p;
    p.arrival_processing_s = 0;
    p.completion_processing_s = 0;
    p.max_outstanding = 255;
    return p;
}

// driver (zero processing, unlimited window) + fake HBA + one workload.
template <class W>
struct Bench {
    host::DeviceDriver driver;
    test::FakeHba hba;
    W workload;
    std::vector<hba::IoRequest> completed;  // copies, in completion order
    unsigned done_calls = 0;
    sc_time done_at;

    template <class Latency, class... Args>
    Bench(const char* prefix, Latency latency, const host::WorkloadParams& params, Args... args)
        : driver((std::string(prefix) + "_driver").c_str(), unlimited_driver()),
          hba((std::string(prefix) + "_hba").c_str(), driver, latency),
          workload((std::string(prefix) + "_workload").c_str(), driver, params, args...)
    {
        driver.set_hba(&hba);
        workload.on_completed([this](const hba::IoRequest& io) { completed.push_back(io); });
        workload.on_done([this] {
            ++done_calls;
            done_at = sc_core::sc_time_stamp();
        });
    }
};

// 100 us for disk 0, 200 us for disk 1, ...
sc_time per_disk_latency(const hba::IoRequest& io) { return sc_time(100.0 * (io.disk + 1), SC_US); }

}  // namespace

TEST_CASE("SplitMix64 gives the published sequence", "[random]")
{
    // Reference outputs of SplitMix64 seeded with 0.
    host::SplitMix64 r(0);
    REQUIRE(r.next() == 0xE220A8397B1DCDAFULL);
    REQUIRE(r.next() == 0x6E789E6AA1B965F4ULL);
    REQUIRE(r.next() == 0x06C45D188009454FULL);
}

TEST_CASE("SplitMix64 uniform and below stay in range", "[random]")
{
    host::SplitMix64 r(42);
    std::vector<unsigned> counts(5, 0);
    for (int i = 0; i < 10000; ++i) {
        const double u = r.uniform();
        REQUIRE(u >= 0.0);
        REQUIRE(u < 1.0);
        const auto k = r.below(5);
        REQUIRE(k < 5);
        ++counts[k];
    }
    // Binomial(10000, 1/5): sd = sqrt(10000 x 0.2 x 0.8) = 40; allow 4 sd.
    for (unsigned c : counts) REQUIRE(std::abs(static_cast<double>(c) - 2000.0) <= 160.0);
}

TEST_CASE("Closed workload keeps queue_depth outstanding per disk", "[workload]")
{
    Bench<host::ClosedWorkload> b("closed", per_disk_latency, workload_params(kFourDisks, 1.0, 400), 2u);
    // Completions happen at multiples of 100 us; in between every disk has exactly 2 in the HBA
    // (the replacement is issued in the instant of the completion) until the issuing stops.
    for (int k = 0; k < 50; ++k) {
        sc_start(k == 0 ? sc_time(50, SC_US) : sc_time(100, SC_US));
        REQUIRE(b.workload.issued() < 400);
        for (unsigned d = 0; d < 4; ++d) {
            REQUIRE(b.workload.outstanding(d) == 2);
            REQUIRE(b.hba.in_flight_per_disk.at(d) == 2);
        }
    }
    sc_start(1, SC_SEC);
    REQUIRE(b.workload.issued() == 400);
    REQUIRE(b.workload.completed() == 400);
    REQUIRE(b.completed.size() == 400);
    REQUIRE(b.done_calls == 1);
    REQUIRE(b.done_at == b.completed.back().completed);
    for (unsigned d = 0; d < 4; ++d) REQUIRE(b.hba.max_in_flight_per_disk.at(d) == 2);
    // Each completion was replaced by an I/O to the same disk: the faster disks got more.
    std::vector<unsigned> per_disk(4, 0);
    for (const auto& s : b.hba.seen) ++per_disk[s.disk];
    REQUIRE(per_disk[0] > per_disk[1]);
    REQUIRE(per_disk[1] > per_disk[2]);
    REQUIRE(per_disk[2] > per_disk[3]);
    for (const auto& s : b.hba.seen) REQUIRE(s.target == kFourDisks[s.disk]);
}

TEST_CASE("Closed workload issues exactly the requested total", "[workload]")
{
    Bench<host::ClosedWorkload> b("closed", test::fixed_latency(sc_time(1, SC_MS)),
                                  workload_params(kFourDisks, 0.5, 37), 3u);
    // 12 at time 0, then one per completion: 12 complete at each whole ms, the last 37 - 36 = 1
    // is issued at 3 ms and completes at 4 ms.
    sc_start(1, SC_SEC);
    REQUIRE(b.workload.issued() == 37);
    REQUIRE(b.workload.completed() == 37);
    REQUIRE(b.done_calls == 1);
    REQUIRE(b.done_at == sc_time(4, SC_MS));
    std::set<std::uint64_t> ids;
    for (const auto& io : b.completed) {
        ids.insert(io.id);
        REQUIRE(io.completed - io.issued == sc_time(1, SC_MS));
        REQUIRE(io.bytes == 65536);
    }
    REQUIRE(ids.size() == 37);
    REQUIRE(*ids.rbegin() == 36);
}

TEST_CASE("Closed workload with a total below the window issues only the total", "[workload]")
{
    Bench<host::ClosedWorkload> b("closed", test::fixed_latency(sc_time(1, SC_MS)),
                                  workload_params(kFourDisks, 1.0, 3), 2u);
    sc_start(10, SC_MS);
    REQUIRE(b.hba.seen.size() == 3);
    REQUIRE(b.done_calls == 1);
    REQUIRE(b.done_at == sc_time(1, SC_MS));
}

TEST_CASE("Read fraction 0 gives only writes and 1 only reads", "[workload]")
{
    Bench<host::ClosedWorkload> writes("w", test::fixed_latency(sc_time(10, SC_US)),
                                       workload_params(kFourDisks, 0.0, 1000), 1u);
    Bench<host::ClosedWorkload> reads("r", test::fixed_latency(sc_time(10, SC_US)),
                                      workload_params(kFourDisks, 1.0, 1000), 1u);
    sc_start(1, SC_SEC);
    REQUIRE(writes.completed.size() == 1000);
    REQUIRE(reads.completed.size() == 1000);
    for (const auto& io : writes.completed) REQUIRE_FALSE(io.read);
    for (const auto& io : reads.completed) REQUIRE(io.read);
    REQUIRE(writes.workload.reads_issued() == 0);
    REQUIRE(reads.workload.reads_issued() == 1000);
}

TEST_CASE("Read fraction 0.66 gives about 66 percent reads", "[workload]")
{
    Bench<host::ClosedWorkload> b("closed", test::fixed_latency(sc_time(10, SC_US)),
                                  workload_params(kFourDisks, 0.66, 10000), 4u);
    sc_start(10, SC_SEC);
    REQUIRE(b.completed.size() == 10000);
    const auto reads = std::count_if(b.completed.begin(), b.completed.end(), [](const auto& io) { return io.read; });
    // Binomial(10000, 0.66): sd = sqrt(10000 x 0.66 x 0.34) = 47.4; allow 4 sd.
    const double sd = std::sqrt(10000 * 0.66 * 0.34);
    REQUIRE(std::abs(static_cast<double>(reads) - 6600.0) <= 4 * sd);
    REQUIRE(static_cast<std::uint64_t>(reads) == b.workload.reads_issued());
}

TEST_CASE("Workload sequence depends on the seed only", "[workload]")
{
    using Draw = std::tuple<std::uint64_t, unsigned, bool, std::uint64_t>;
    auto draws = [](const std::vector<test::FakeHba::Seen>& seen) {
        std::vector<Draw> out;
        for (const auto& s : seen) out.emplace_back(s.id, s.disk, s.read, s.lba);
        return out;
    };
    // Open workloads: the seed drives arrival times, disks, directions and LBAs.
    Bench<host::OpenWorkload> a1("a1", test::fixed_latency(sc_time(10, SC_US)),
                                 workload_params(kFourDisks, 0.5, 500, 7), 1000.0);
    Bench<host::OpenWorkload> a2("a2", test::fixed_latency(sc_time(10, SC_US)),
                                 workload_params(kFourDisks, 0.5, 500, 7), 1000.0);
    Bench<host::OpenWorkload> b1("b1", test::fixed_latency(sc_time(10, SC_US)),
                                 workload_params(kFourDisks, 0.5, 500, 8), 1000.0);
    sc_start(10, SC_SEC);
    REQUIRE(a1.hba.seen.size() == 500);
    REQUIRE(draws(a1.hba.seen) == draws(a2.hba.seen));
    REQUIRE(draws(a1.hba.seen) != draws(b1.hba.seen));
    std::vector<sc_time> t1, t2, t3;
    for (std::size_t i = 0; i < 500; ++i) {
        t1.push_back(a1.hba.seen[i].issued);
        t2.push_back(a2.hba.seen[i].issued);
        t3.push_back(b1.hba.seen[i].issued);
    }
    REQUIRE(t1 == t2);
    REQUIRE(t1 != t3);
    // LBAs fit the disk: 64 KiB = 128 blocks must end inside the capacity.
    for (const auto& s : a1.hba.seen) REQUIRE(s.lba + 128 <= host::WorkloadParams{}.disk_capacity_blocks);
}

TEST_CASE("Closed workload sequence depends on the seed only", "[workload]")
{
    auto run_params = [](std::uint64_t seed) { return workload_params(kFourDisks, 0.5, 300, seed); };
    Bench<host::ClosedWorkload> a1("a1", test::fixed_latency(sc_time(10, SC_US)), run_params(3), 2u);
    Bench<host::ClosedWorkload> a2("a2", test::fixed_latency(sc_time(10, SC_US)), run_params(3), 2u);
    Bench<host::ClosedWorkload> b1("b1", test::fixed_latency(sc_time(10, SC_US)), run_params(4), 2u);
    sc_start(1, SC_SEC);
    auto key = [](const std::vector<test::FakeHba::Seen>& seen) {
        std::vector<std::tuple<bool, std::uint64_t>> out;
        for (const auto& s : seen) out.emplace_back(s.read, s.lba);
        return out;
    };
    REQUIRE(a1.hba.seen.size() == 300);
    REQUIRE(key(a1.hba.seen) == key(a2.hba.seen));
    REQUIRE(key(a1.hba.seen) != key(b1.hba.seen));
}

TEST_CASE("Open workload mean inter-arrival time is one over the rate", "[workload]")
{
    const double rate = 1000.0;  // I/O per second
    const std::uint64_t n = 10000;
    const std::vector<phy::AlPa> disks{0xE8, 0xE4, 0xE2, 0xE1, 0xE0, 0xDC, 0xDA, 0xD9};
    Bench<host::OpenWorkload> b("open", test::fixed_latency(sc_time(10, SC_US)), workload_params(disks, 1.0, n),
                                rate);
    sc_start(100, SC_SEC);
    REQUIRE(b.workload.issued() == n);
    REQUIRE(b.completed.size() == n);
    REQUIRE(b.done_calls == 1);
    sc_time last = sc_core::SC_ZERO_TIME;
    for (const auto& s : b.hba.seen) last = std::max(last, s.issued);
    // The first gap counts from time 0, so n gaps end at the last arrival. Exponential gaps with
    // mean 1/rate: the mean of n has sd (1/rate)/sqrt(n) = 10 us; allow 4 sd.
    const double mean_gap = last.to_seconds() / static_cast<double>(n);
    REQUIRE(std::abs(mean_gap - 1.0 / rate) <= 4 * (1.0 / rate) / std::sqrt(static_cast<double>(n)));
    // Disks uniform: Binomial(10000, 1/8), sd = sqrt(10000 x 1/8 x 7/8) = 33.1; allow 4 sd.
    std::vector<unsigned> per_disk(disks.size(), 0);
    for (const auto& s : b.hba.seen) ++per_disk[s.disk];
    for (unsigned c : per_disk) REQUIRE(std::abs(static_cast<double>(c) - 1250.0) <= 4 * 33.1);
}

TEST_CASE("Open workload arrivals do not wait for completions", "[workload]")
{
    // The HBA takes far longer than the mean gap: the arrivals still come at the Poisson rate and
    // pile up in the HBA (the driver's window is 255).
    Bench<host::OpenWorkload> b("open", test::fixed_latency(sc_time(1, SC_SEC)),
                                workload_params(kFourDisks, 1.0, 100), 10000.0);
    sc_start(500, SC_MS);
    REQUIRE(b.workload.issued() == 100);  // 100 arrivals at 10000/s take about 10 ms
    REQUIRE(b.workload.completed() == 0);
    REQUIRE(b.workload.outstanding() == 100);
    sc_start(2, SC_SEC);
    REQUIRE(b.workload.completed() == 100);
    REQUIRE(b.done_calls == 1);
}

TEST_CASE("Workload parameters are checked", "[workload]")
{
    REQUIRE_NOTHROW(host::validate(workload_params(kFourDisks, 0.5, 10)));
    REQUIRE_THROWS_AS(host::validate(workload_params({}, 0.5, 10)), std::invalid_argument);
    REQUIRE_THROWS_AS(host::validate(workload_params(kFourDisks, 1.5, 10)), std::invalid_argument);
    REQUIRE_THROWS_AS(host::validate(workload_params(kFourDisks, -0.1, 10)), std::invalid_argument);
    auto p = workload_params(kFourDisks, 0.5, 10);
    p.io_size_bytes = 0;
    REQUIRE_THROWS_AS(host::validate(p), std::invalid_argument);
    p = workload_params(kFourDisks, 0.5, 10);
    p.disk_capacity_blocks = 10;  // smaller than one 64 KiB I/O
    REQUIRE_THROWS_AS(host::validate(p), std::invalid_argument);
}

TEST_CASE("Closed workload: a disk gone gets nothing new, and back gets its queue depth again", "[workload]")
{
    // Every I/O takes 100 us; 2 per disk.
    Bench<host::ClosedWorkload> b("closed", test::fixed_latency(sc_time(100, SC_US)), workload_params(kFourDisks, 1.0, 4000), 2u);
    sc_start(50, SC_US);
    b.workload.disk_gone(1);
    // Its two I/Os end at 100 us and are not replaced.
    sc_start(100, SC_US);
    CHECK(b.workload.outstanding(1) == 0);
    CHECK(b.hba.in_flight_per_disk.at(1) == 0);
    const std::uint64_t issued_to_1 = std::count_if(b.hba.seen.begin(), b.hba.seen.end(), [](const auto& s) { return s.disk == 1; });
    CHECK(issued_to_1 == 2);
    sc_start(300, SC_US);  // 450 us
    for (unsigned d : {0u, 2u, 3u}) CHECK(b.workload.outstanding(d) == 2);
    CHECK(b.workload.outstanding(1) == 0);
    b.workload.disk_back(1);
    // At once two I/Os to it; from then on 2 on every disk.
    CHECK(b.workload.outstanding(1) == 2);
    sc_start(1, SC_US);  // through the driver
    CHECK(b.hba.in_flight_per_disk.at(1) == 2);
    for (int k = 0; k < 5; ++k) {
        sc_start(100, SC_US);
        for (unsigned d = 0; d < 4; ++d) CHECK(b.workload.outstanding(d) == 2);
    }
    // Back twice changes nothing.
    b.workload.disk_back(1);
    CHECK(b.workload.outstanding(1) == 2);
}

TEST_CASE("Closed workload: a disk back while its I/Os are still out keeps queue_depth, no more", "[workload]")
{
    // Disk d takes (d + 1) x 100 us: disk 3's first two I/Os end at 400 us.
    Bench<host::ClosedWorkload> b("closed", per_disk_latency, workload_params(kFourDisks, 1.0, 4000), 2u);
    sc_start(50, SC_US);
    b.workload.disk_gone(3);
    sc_start(50, SC_US);
    b.workload.disk_back(3);  // both still out: nothing new
    CHECK(b.workload.outstanding(3) == 2);
    CHECK(b.hba.in_flight_per_disk.at(3) == 2);
    sc_start(1, SC_MS);
    CHECK(b.workload.outstanding(3) == 2);  // each completion replaced
    CHECK(b.hba.max_in_flight_per_disk.at(3) == 2);
}

TEST_CASE("Open workload: arrivals for a gone disk are dropped, and issued again once it is back", "[workload]")
{
    // 10 us per I/O, 20000 IOPS over 4 disks.
    Bench<host::OpenWorkload> b("open", test::fixed_latency(sc_time(10, SC_US)), workload_params(kFourDisks, 1.0, 100000), 20000.0);
    b.workload.disk_gone(2);
    sc_start(50, SC_MS);
    const auto to_disk = [&](unsigned d) {
        return std::count_if(b.hba.seen.begin(), b.hba.seen.end(), [d](const auto& s) { return s.disk == d; });
    };
    CHECK(to_disk(2) == 0);
    CHECK(to_disk(0) > 0);
    b.workload.disk_back(2);
    sc_start(50, SC_MS);
    // 50 ms at 5000 IOPS per disk: about 250 arrivals for disk 2 (Poisson, sd about 16; allow 5 sd).
    CHECK(std::abs(static_cast<double>(to_disk(2)) - 250.0) <= 80.0);
}
