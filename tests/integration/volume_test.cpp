// The storage controller's volume in the whole system (docs/controller.md, "Volumes and
// RAID"): split-merge disciplines, member command counts per RAID 5 write shape, RAID 1
// read balancing, conservation of the data split over members.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/run_controller.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

TEST_CASE("strict split-merge never has two requests' commands out at once", "[integration][volume]")
{
    const auto config = configure({{"volume.raid", "raid5"}, {"disk.count", "5"}, {"volume.split_merge", "strict"},
                                   {"workload.queue_depth", "6"}, {"workload.read_fraction", "0.5"},
                                   {"workload.io_size", "96K"}, {"workload.measured_ios", "300"}, {"workload.warmup_ios", "20"}});
    sim::StorageSystem system("system", config);
    sim::RunController controller(system);
    controller::VolumeController* volume = system.volume();
    REQUIRE(volume != nullptr);
    std::uint64_t started = 0, max_waiting = 0;
    volume->on_started([&](const hba::IoRequest&) {
        ++started;
        CHECK(volume->active() == 0);  // this request is not yet active; no other may be
        max_waiting = std::max<std::uint64_t>(max_waiting, volume->waiting());
    });
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    CHECK(started == system.workload().issued());
    CHECK(max_waiting >= 4);  // the closed workload's other requests queued behind the active one
}

namespace {

// A strict split-merge volume (queue depth 2, one request at a time) over four disks, with `events`:
// the run must end with every I/O back, the failed ones failed, none left waiting in the volume.
void strict_volume_fails_every_request(const std::string& raid, const std::vector<std::pair<std::string, std::string>>& events)
{
    std::vector<std::pair<std::string, std::string>> sets{{"volume.raid", raid}, {"disk.count", "4"}, {"volume.split_merge", "strict"},
                                                          {"workload.queue_depth", "2"}};
    sets.insert(sets.end(), events.begin(), events.end());
    sim::StorageSystem system("system", configure(sets));
    sim::RunController controller(system);
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    const nlohmann::json r = controller.results();
    CHECK(r["failed_ios"].get<std::uint64_t>() > 0);
    CHECK(r["outstanding_ios"] == 0);
    CHECK(system.volume()->waiting() == 0);
    CHECK(controller.account_violation().empty());
}

}  // namespace

TEST_CASE("strict split-merge: when the volume fails, the requests waiting behind fail too", "[integration][volume]")
{
    // RAID 0 loses a member with two requests in flight: the active one is planned again and fails
    // at once, and so must every request queued behind it (they used to wait for ever: "deadlock",
    // two I/Os outstanding).
    strict_volume_fails_every_request("raid0", {{"event.0.kind", "fail"}, {"event.0.at_ms", "10"}, {"event.0.disk", "1"}});
}

TEST_CASE("strict split-merge: when RAID 5 loses a second member, the requests waiting behind fail too", "[integration][volume]")
{
    // The second failure fails the volume: the next waiting request fails at once as it starts, and
    // the one behind it must start (and fail) then, not wait for an end that never comes.
    strict_volume_fails_every_request("raid5", {{"event.0.kind", "fail"}, {"event.0.at_ms", "10"}, {"event.0.disk", "1"},
                                                {"event.1.kind", "fail"}, {"event.1.at_ms", "11"}, {"event.1.disk", "2"}});
}

TEST_CASE("fork-join lets several requests' commands interleave", "[integration][volume]")
{
    const auto config = configure({{"volume.raid", "raid5"}, {"disk.count", "5"}, {"volume.split_merge", "fork_join"},
                                   {"workload.queue_depth", "6"}, {"workload.read_fraction", "0.5"},
                                   {"workload.io_size", "96K"}, {"workload.measured_ios", "300"}, {"workload.warmup_ios", "20"}});
    sim::StorageSystem system("system", config);
    sim::RunController controller(system);
    controller::VolumeController* volume = system.volume();
    std::size_t most_active = 0;
    volume->on_started([&](const hba::IoRequest&) { most_active = std::max(most_active, volume->active() + 1); });
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    CHECK(most_active == 6);  // the closed workload keeps queue_depth requests on the volume
    CHECK(volume->waiting() == 0);
}

// Sequential, aligned writes of whole units over a 4+P RAID 5 volume (64 KiB units) all have one write
// shape; the member command counts per request follow from docs/controller.md: one unit is a
// read-modify-write (2 reads, 2 writes), two units (half a row) a reconstruct-write (2 reads, 3
// writes), four units (a row) a full-row write (5 writes, no reads).
static void check_raid5_writes(unsigned units, std::uint64_t reads, std::uint64_t writes)
{
    const auto config = configure({{"volume.raid", "raid5"}, {"disk.count", "5"}, {"volume.stripe_kib", "64"},
                                   {"workload.io_size", std::to_string(64 * units) + "K"}, {"workload.lba", "sequential"},
                                   {"workload.read_fraction", "0"}, {"workload.queue_depth", "3"}, {"transport", "ideal"},
                                   {"workload.measured_ios", "200"}, {"workload.warmup_ios", "10"}});
    sim::StorageSystem system("system", config);
    sim::RunController controller(system);
    std::uint64_t member_reads = 0, member_writes = 0, member_bytes = 0;
    system.volume()->on_member_completed([&](const hba::IoRequest& io) {
        ++(io.read ? member_reads : member_writes);
        member_bytes += io.bytes;
        CHECK(io.bytes % (64 * 1024) == 0);
    });
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    const std::uint64_t requests = system.workload().completed();
    CHECK(requests == 220);
    CHECK(member_reads == reads * requests);
    CHECK(member_writes == writes * requests);
    const auto r = controller.results();
    CHECK(r["volume"]["full_row_writes"] == (reads == 0 ? requests : 0));
}

TEST_CASE("raid5: one-unit writes are read-modify-writes, 2 reads then 2 writes", "[integration][volume][raid5]")
{
    check_raid5_writes(1, 2, 2);
}

TEST_CASE("raid5: half-row writes are reconstruct-writes, 2 reads then 3 writes", "[integration][volume][raid5]")
{
    check_raid5_writes(2, 2, 3);
}

TEST_CASE("raid5: full-row writes read nothing and write n units", "[integration][volume][raid5]")
{
    check_raid5_writes(4, 0, 5);
}

TEST_CASE("raid1: reads balance over the two copies, writes go to both", "[integration][volume][raid1]")
{
    const auto config = configure({{"volume.raid", "raid1"}, {"disk.count", "2"}, {"workload.queue_depth", "5"},
                                   {"workload.read_fraction", "0.7"}, {"workload.measured_ios", "2000"},
                                   {"workload.warmup_ios", "50"}, {"transport", "ideal"}});
    sim::StorageSystem system("system", config);
    sim::RunController controller(system);
    std::uint64_t reads[2] = {0, 0}, writes[2] = {0, 0};
    controller::VolumeController* volume = system.volume();
    volume->on_member_completed([&](const hba::IoRequest& io) { ++(io.read ? reads : writes)[io.disk]; });
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    // Every write reached both disks, every read one.
    CHECK(writes[0] == writes[1]);
    CHECK(reads[0] + reads[1] + writes[0] == system.workload().completed());
    // With 5 requests always out and the less busy copy chosen, neither copy falls far behind.
    const double share = static_cast<double>(reads[0]) / static_cast<double>(reads[0] + reads[1]);
    CHECK(share == Approx(0.5).margin(0.05));
}

TEST_CASE("raid0 reads over the loop: members carry the request's data exactly", "[integration][volume][raid0]")
{
    const auto config = configure({{"volume.raid", "raid0"}, {"disk.count", "4"}, {"volume.stripe_kib", "16"},
                                   {"workload.io_size", "40K"}, {"workload.queue_depth", "4"},
                                   {"workload.measured_ios", "200"}, {"workload.warmup_ios", "10"}});
    sim::StorageSystem system("system", config);
    sim::RunController controller(system);
    const std::uint64_t disk_blocks = host::kDiskCapacityBlocks;
    std::uint64_t member_bytes = 0, member_ios = 0;
    system.volume()->on_member_completed([&](const hba::IoRequest& io) {
        member_bytes += io.bytes;
        ++member_ios;
        CHECK(io.read);
        CHECK(io.lba + io.bytes / 512 <= disk_blocks);
        CHECK(io.target == system.disk_al_pas().at(io.disk));
    });
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    const std::uint64_t requests = system.workload().completed();
    CHECK(member_bytes == requests * 40 * 1024);
    // 40 KiB = 2.5 units of 16 KiB: every request touches 3 or 4 units on distinct disks of 4.
    CHECK(member_ios >= 3 * requests);
    CHECK(member_ios <= 4 * requests);
    CHECK(controller.results()["reads"].get<std::uint64_t>() == 200);
}
