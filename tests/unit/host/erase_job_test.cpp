// The erasure job over a real device driver and a fake HBA (every command takes 1 ms): command
// counts, ranges and the order the three strategies serve the disks in (docs/erasure.md, "Erasure").
#include <catch2/catch.hpp>

#include <sstream>
#include <systemc>
#include <vector>

#include "fake_hba.hpp"
#include "fcal/host/device_driver.hpp"
#include "fcal/host/erase_job.hpp"

using namespace fcal;
using sc_core::SC_MS;
using sc_core::sc_start;
using sc_core::sc_time;

namespace {

// Three disks of 10, 5 and 7 blocks, 4 blocks per command: 3 + 2 + 2 commands.
host::EraseParams three_disks(host::EraseStrategy strategy, host::EraseCommand command = host::EraseCommand::Write)
{
    host::EraseParams p;
    p.disks = {0xEF, 0xE8, 0xE4};
    p.capacity_blocks = {10, 5, 7};
    p.command = command;
    p.strategy = strategy;
    p.transfer_blocks = p.same_blocks = 4;
    p.block_bytes = 512;
    return p;
}

struct Bench {
    host::DeviceDriver driver;
    test::FakeHba hba;
    host::EraseJob job;
    std::vector<hba::IoRequest> completed;  // copies, in completion order
    std::vector<std::uint64_t> progress;

    explicit Bench(const host::EraseParams& params)
        : driver("driver", host::DeviceDriverParams{0, 0, 255}), hba("hba", driver, test::fixed_latency(sc_time(1, SC_MS))),
          job("erase", driver, params)
    {
        driver.set_hba(&hba);
        job.on_completed([this](const hba::IoRequest& io) { completed.push_back(io); });
        job.on_progress([this](std::uint64_t done, std::uint64_t total) {
            REQUIRE(total == 7);
            progress.push_back(done);
        });
    }

    std::vector<unsigned> disks_served() const
    {
        std::vector<unsigned> order;
        for (const auto& s : hba.seen) order.push_back(s.disk);
        return order;
    }
};

}  // namespace

TEST_CASE("Erase sequential: each disk from its first block to its last with one command at a time", "[host][erase]")
{
    Bench b(three_disks(host::EraseStrategy::Sequential));
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(b.job.params().total_ios == 7);
    REQUIRE(b.disks_served() == std::vector<unsigned>{0, 0, 0, 1, 1, 2, 2});
    REQUIRE(b.job.issue_order() == b.disks_served());
    // LBAs and transfer lengths: 4 blocks, the last command of a disk what is left.
    const std::vector<std::uint64_t> lbas{0, 4, 8, 0, 4, 0, 4};
    const std::vector<std::uint32_t> bytes{2048, 2048, 1024, 2048, 512, 2048, 1536};
    for (std::size_t i = 0; i < 7; ++i) {
        REQUIRE(b.completed[i].lba == lbas[i]);
        REQUIRE(b.completed[i].bytes == bytes[i]);
        REQUIRE_FALSE(b.completed[i].read);
        REQUIRE(b.completed[i].same_blocks == 0);
    }
    REQUIRE(b.hba.max_in_flight == 1);
    REQUIRE(b.job.erase_time() == sc_time(7, SC_MS));
    // Disk 1 starts when disk 0 is done (3 ms) and takes 2 ms.
    REQUIRE(b.job.progress()[1].first_issued == sc_time(3, SC_MS));
    REQUIRE(b.job.progress()[1].finished == sc_time(5, SC_MS));
    REQUIRE(b.job.progress()[0].commands == 3);
    REQUIRE(b.progress == std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7});  // every tenth of 7 commands
}

TEST_CASE("Erase round robin: one command to each disk with blocks left in turn", "[host][erase]")
{
    Bench b(three_disks(host::EraseStrategy::RoundRobin));
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(b.disks_served() == std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0});
    REQUIRE(b.hba.max_in_flight == 1);
    REQUIRE(b.job.erase_time() == sc_time(7, SC_MS));
    REQUIRE(b.job.progress()[2].finished == sc_time(6, SC_MS));
}

TEST_CASE("Erase parallel: one stream per disk with one command outstanding on each", "[host][erase]")
{
    Bench b(three_disks(host::EraseStrategy::Parallel));
    sc_start(1, sc_core::SC_SEC);
    REQUIRE(b.disks_served() == std::vector<unsigned>{0, 1, 2, 0, 1, 2, 0});
    REQUIRE(b.hba.max_in_flight == 3);
    for (std::size_t d = 0; d < 3; ++d) REQUIRE(b.hba.max_in_flight_per_disk[d] == 1);
    REQUIRE(b.job.erase_time() == sc_time(3, SC_MS));  // the longest stream: 3 commands
    REQUIRE(b.job.progress()[1].finished == sc_time(2, SC_MS));
    REQUIRE(b.job.progress()[2].finished == sc_time(2, SC_MS));
}

TEST_CASE("Erase with WRITE SAME: one block of data and the range in the command", "[host][erase]")
{
    Bench b(three_disks(host::EraseStrategy::Sequential, host::EraseCommand::WriteSame));
    sc_start(1, sc_core::SC_SEC);
    const std::vector<std::uint32_t> ranges{4, 4, 2, 4, 1, 4, 3};
    REQUIRE(b.completed.size() == 7);
    for (std::size_t i = 0; i < 7; ++i) {
        REQUIRE(b.completed[i].bytes == 512);
        REQUIRE(b.completed[i].same_blocks == ranges[i]);
    }
    REQUIRE(host::erase_commands(10, 4) == 3);
    REQUIRE(host::erase_commands(8, 4) == 2);
}

TEST_CASE("Erase report: the I/O account and the job's figures from what it was given and did", "[host][erase]")
{
    Bench b(three_disks(host::EraseStrategy::Sequential));
    sc_start(1, sc_core::SC_SEC);
    nlohmann::json j;
    b.job.report(j);
    // 3 + 2 + 2 commands of at most 4 blocks, all complete, none failed.
    CHECK(j["issued_ios"] == 7);
    CHECK(j["completed_ios"] == 7);
    CHECK(j["outstanding_ios"] == 0);
    CHECK(j["failed_ios"] == 0);
    CHECK(j["failures"].empty());
    // One command at a time, 1 ms each.
    CHECK(j["erase_time_s"].get<double>() == Approx(7e-3));
    CHECK(j["disks"][1]["erase_time_s"].get<double>() == Approx(2e-3));
    CHECK(j["disks"][0]["commands"] == 3);
    CHECK(j["disks"][2]["capacity_bytes"] == 7 * 512);
    CHECK(j["erase"]["command"] == "write");
    CHECK(j["erase"]["strategy"] == "sequential");
    CHECK(j["erase"]["blocks_per_command"] == 4);
    CHECK(j["erase"]["disks"] == 3);
    CHECK(j["erase"]["commands"] == 7);
    std::ostringstream state;
    b.job.print_state(state);
    CHECK(state.str() == "issued 7, completed 7, outstanding 0");
}
