// driver.disk_outstanding end to end (docs/hba.md, "Outstanding commands per disk"): the
// commands a disk holds, counted at the disk, never exceed the driver's per-disk limit, and every
// I/O is accounted for. (That 0, the default, changes nothing: tools/tests/cli/test_fcal_sim_outputs.py.)
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "fcal/sim/run_controller.hpp"
#include "fcal/sim/storage_system.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

// Two disks, eight I/Os kept at each (fewer than the disk's 16 queue slots: no TASK SET FULL).
Settings deep_queues(const std::string& limit)
{
    Settings s{{"disk.count", "2"}, {"workload.queue_depth", "8"}, {"workload.io_size", "4K"},
               {"workload.read_fraction", "0.5"}, {"workload.measured_ios", "300"}};
    if (!limit.empty()) s.emplace_back("driver.disk_outstanding", limit);
    return s;
}

nlohmann::json run(const Settings& settings, std::vector<std::size_t>* max_at_disk = nullptr)
{
    sim::StorageSystem system("system", configure(settings));
    sim::RunController controller(system);
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    if (max_at_disk)
        for (unsigned d = 0; d < 2; ++d) max_at_disk->push_back(system.disk_model(d).stats().max_queue);
    nlohmann::json r = controller.results();
    return r;
}

// One system per process (SystemC elaborates once): one case per limit.
void require_limit(unsigned k)
{
    std::vector<std::size_t> max_at_disk;
    const nlohmann::json r = run(deep_queues(std::to_string(k)), &max_at_disk);
    // Eight I/Os wait per disk, so each disk reaches the limit, and never passes it.
    REQUIRE(max_at_disk == std::vector<std::size_t>{k, k});
    REQUIRE(r["completed_ios"] == r["issued_ios"]);
    REQUIRE(r["outstanding_ios"] == 0);
    REQUIRE(r["task_set_full_retries"] == 0);
}

}  // namespace

TEST_CASE("A per-disk limit of 1: no disk ever holds more than one command, and the account balances", "[driver][validation]")
{
    require_limit(1);
}

TEST_CASE("A per-disk limit of 3: no disk ever holds more than three commands, and the account balances", "[driver][validation]")
{
    require_limit(3);
}

TEST_CASE("Without a per-disk limit every outstanding I/O reaches its disk", "[driver][validation]")
{
    std::vector<std::size_t> max_at_disk;
    run(deep_queues(""), &max_at_disk);
    REQUIRE(max_at_disk == std::vector<std::size_t>{8, 8});
}
