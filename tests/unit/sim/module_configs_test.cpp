// module_configs(): the configuration turned into what each module is built with, without building
// anything (issue 20, "A builder that only builds"). Expected values are worked out here from the
// keys' units and the ring's layout (docs/model.md, "The modelled system"), not read from the code.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "fcal/hba/hba_delays.hpp"
#include "fcal/sim/module_configs.hpp"

using namespace fcal;
using namespace fcal::sim;
using sc_core::SC_MS;
using sc_core::SC_NS;
using sc_core::SC_US;
using sc_core::sc_time;

namespace {

SimConfig config(const std::map<std::string, std::string>& sets)
{
    auto t = fcal_parameters();
    for (const auto& [key, value] : sets) t.set(key, value);
    return build_config(t);
}

}  // namespace

TEST_CASE("module configs: the baseline's HBAs, driver and loop in the modules' units")
{
    const ModuleConfigs m = module_configs(default_config());

    // Times in seconds from the keys' microseconds, nanoseconds and milliseconds, and as the HBA
    // schedules them: the same sc_time as the key's value in its own unit. Rates in bytes per second.
    const hba::HbaDelays initiator(m.initiator);
    CHECK(m.initiator.cmd_exec_s == Approx(43.9e-6).epsilon(1e-15));
    CHECK(initiator.cmd_exec == sc_time(43.9, SC_US));
    CHECK(initiator.xfer_rdy_or_rsp == sc_time(11.8, SC_US));
    CHECK(m.initiator.frame_proc_s == Approx(400e-9).epsilon(1e-15));
    CHECK(initiator.frame_proc == sc_time(400, SC_NS));
    CHECK(initiator.single_frame_transfer == sc_time(20.2, SC_US));
    CHECK(m.initiator.dma.bandwidth_bytes_per_s == 1064e6);
    CHECK(m.initiator.dma.sched_overhead_s == Approx(15.5e-6).epsilon(1e-15));
    CHECK(initiator.task_set_full_retry == sc_time(500, SC_US));
    CHECK(m.initiator.exchange_timeout_s == 30.0);
    CHECK(initiator.exchange_timeout == sc_time(30000, SC_MS));
    CHECK(initiator.abts_timeout == sc_time(20000, SC_MS));
    CHECK(m.initiator.max_payload == 2048);
    CHECK(m.initiator.burst_bytes == 0);
    CHECK(m.initiator.block_bytes == 512);
    // The baseline's schedule is CMDF: all three levels.
    CHECK(m.initiator.cmdf.fifo == hba::CommandFifo::CommandQueue);
    CHECK(m.initiator.cmdf.arbitration);
    CHECK(m.initiator.cmdf.preempt);
    CHECK(m.controller_fifos.frames == 64);
    CHECK(m.controller_fifos.commands == 16);
    // The target's "XFER_RDY or RSP" time is its response generation.
    const hba::HbaDelays target(m.target);
    CHECK(target.cmd_exec == sc_time(47.4, SC_US));
    CHECK(target.xfer_rdy_or_rsp == sc_time(10.3, SC_US));
    CHECK(target.data_timeout == sc_time(60000, SC_MS));
    CHECK(m.target.dma.policy == hba::DmaPolicy::Fcfs);

    CHECK(m.driver.arrival_processing_s == 0.0);
    CHECK(m.driver.max_outstanding == 255);
    CHECK(m.driver.retries == 3);

    // 16 disks: the controller at node 0, disk i at node i + 1, no repeat-only node.
    REQUIRE(m.loop.nodes.size() == 17);
    CHECK(m.loop.nodes[0].port.name == "controller");
    CHECK(m.loop.nodes[0].port.al_pa == 0x01);
    CHECK(m.loop.nodes[0].port.incoming_buffers == 3);
    CHECK(m.loop.nodes[5].port.name == "disk4");
    CHECK(m.loop.nodes[5].port.incoming_buffers == 2);
    CHECK(m.loop.rate == phy::LineRate::G2);
    CHECK(m.loop.baud == 2.125e9);
    CHECK(m.loop.hop_m == std::vector<double>{2.0});
    CHECK(m.loop.al_time_s == 15000 * 1e-6);
}

TEST_CASE("module configs: disks take the lowest priorities in loop_ID order, skipping the controller's")
{
    const ModuleConfigs m = module_configs(config({{"disk.count", "4"}, {"initiator.al_pa", "0xE8"}, {"loop.nodes", "7"}}));
    // loop_IDs 0, 1, 2, ... are AL_PAs 0xEF, 0xE8, 0xE4, 0xE2, 0xE1 (FC-AL's table); 0xE8 is the controller's.
    CHECK(m.disk_al_pas == std::vector<phy::AlPa>{0xEF, 0xE4, 0xE2, 0xE1});
    REQUIRE(m.loop.nodes.size() == 7);
    CHECK(m.loop.nodes[0].port.al_pa == 0xE8);
    CHECK(m.loop.nodes[1].port.al_pa == 0xEF);
    CHECK_FALSE(m.loop.nodes[4].passive);
    CHECK(m.loop.nodes[5].passive);
    CHECK(m.loop.nodes[6].passive);
    CHECK(m.workload.disks == m.disk_al_pas);
    CHECK(m.disks.size() == 4);
}

TEST_CASE("module configs: a ring length spread over the hops, circuit hold in seconds")
{
    const ModuleConfigs m = module_configs(config({{"disk.count", "3"}, {"loop.length_m", "40"}, {"target.circuit_hold_us", "5"}}));
    CHECK(m.loop.hop_m == std::vector<double>{10.0});  // 4 cables
    CHECK(m.loop.nodes[1].port.circuit_hold_s == Approx(5e-6).epsilon(1e-15));
    CHECK(m.loop.nodes[0].port.circuit_hold_s == 0.0);
}

TEST_CASE("module configs: the workload's window, and a volume the workload sees as one disk")
{
    const ModuleConfigs plain = module_configs(config({{"disk.count", "4"}, {"workload.queue_depth", "2"}}));
    // Warm-up 10 x 2 x 4 = 80 left out at both ends of 2000 measured.
    CHECK(plain.workload.total_ios == 80 + 2000 + 80);
    CHECK(plain.workload.io_size_bytes == 65536);
    CHECK_FALSE(plain.volume);
    CHECK_FALSE(plain.erase);

    const ModuleConfigs raid = module_configs(config({{"disk.count", "4"}, {"volume.raid", "raid5"}, {"volume.stripe_kib", "32"}}));
    REQUIRE(raid.volume);
    CHECK(raid.volume->geometry.level == controller::RaidLevel::Raid5);
    CHECK(raid.volume->geometry.disks == 4);
    CHECK(raid.volume->geometry.unit_blocks == 32 * 1024 / 512);
    CHECK(raid.volume->member_al_pas == raid.disk_al_pas);
    CHECK_FALSE(raid.volume->decode);
    CHECK(raid.workload.disks == std::vector<phy::AlPa>{0});
}

TEST_CASE("module configs: an erase job's disks, capacities and command size")
{
    const ModuleConfigs m = module_configs(config({{"workload.type", "erase"},
                                                   {"disk.count", "4"},
                                                   {"erase.disks", "3"},
                                                   {"disk.capacity_gb", "0.02"},
                                                   {"disk.1.capacity_gb", "0.01"},
                                                   {"erase.command", "write"},
                                                   {"erase.transfer_blocks", "128"}}));
    REQUIRE(m.erase);
    CHECK(m.erase->disks == std::vector<phy::AlPa>(m.disk_al_pas.begin(), m.disk_al_pas.begin() + 3));
    // 0.02 GB = 2e7 bytes in 512-byte blocks, rounded down; disk 1 its own 0.01 GB.
    CHECK(m.erase->capacity_blocks == std::vector<std::uint64_t>{39062, 19531, 39062});
    CHECK(m.erase->command == host::EraseCommand::Write);
    CHECK(m.erase->blocks_per_command() == 128);
    CHECK(m.erase->block_bytes == 512);
    // Each disk's own parameters: disk 1's capacity, the others' the same.
    CHECK(m.disks[1].capacity_bytes == 0.01e9);
    CHECK(disk::fixed_capacity_sectors(m.disks[1]) == 19531);
    CHECK(disk::fixed_capacity_sectors(m.disks[3]) == 39062);
}
