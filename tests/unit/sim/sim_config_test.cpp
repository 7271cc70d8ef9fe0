// SimConfig: derived defaults, rules across keys, and the JSON echo. Expected values are written
// out from the specification's list, not read back from the table.
#include <catch2/catch.hpp>

#include <functional>
#include <utility>
#include <vector>

#include "fcal/sim/sim_config.hpp"

using namespace fcal::sim;
using fcal::hba::CommandFifo;
using fcal::hba::DmaPolicy;
using fcal::phy::LineRate;

namespace {

template <typename F>
std::string error_of(F&& action)
{
    try {
        action();
    } catch (const ConfigError& e) {
        return e.what();
    }
    FAIL("no ConfigError was thrown");
    return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("sim_config: the baseline resolves to the specification's defaults")
{
    const SimConfig c = default_config();

    // The modules' own fields in SI units: a key's value times its unit's scale.
    CHECK(c.loop.rate == LineRate::G2);
    CHECK(c.loop.nodes.size() == 17);
    CHECK(c.loop.hop_m.front() == 2.0);
    CHECK(c.loop.port_delay_words == 6);
    CHECK(c.loop.propagation_ns_per_m == 5.0);

    CHECK(c.initiator_port.al_pa == 0x01);
    CHECK(c.initiator_port.fair);
    CHECK(c.initiator_port.incoming_buffers == 3);
    CHECK(c.initiator_port.login_bb_credit == 0);
    CHECK_FALSE(c.initiator_port.full_duplex);
    CHECK(c.initiator.max_payload == 2048);
    CHECK(c.initiator.cmd_exec_s == 43.9 * 1e-6);
    CHECK(c.initiator.xfer_rdy_or_rsp_s == 11.8 * 1e-6);
    CHECK(c.initiator.dma.bandwidth_bytes_per_s == 1064.0 * 1e6);
    CHECK(c.initiator.dma.sched_overhead_s == 15.5 * 1e-6);
    CHECK(c.initiator.dma.policy == DmaPolicy::Fcfs);
    CHECK(c.initiator.frame_proc_s == 400.0 * 1e-9);
    CHECK(c.initiator.single_frame_transfer_s == 20.2 * 1e-6);
    CHECK(c.driver.max_outstanding == 255);

    CHECK(c.target_port.fair);
    CHECK(c.target_port.incoming_buffers == 2);
    CHECK(c.target_port.login_bb_credit == 0);
    CHECK_FALSE(c.target_port.full_duplex);
    CHECK(c.target.max_payload == 2048);
    CHECK(c.target.cmd_exec_s == 47.4 * 1e-6);
    CHECK(c.target.xfer_rdy_or_rsp_s == 10.3 * 1e-6);
    CHECK(c.target.dma.bandwidth_bytes_per_s == 1064.0 * 1e6);
    CHECK(c.target.dma.sched_overhead_s == 15.5 * 1e-6);
    CHECK(c.target.frame_proc_s == 400.0 * 1e-9);
    CHECK(c.target.single_frame_transfer_s == 20.2 * 1e-6);
    CHECK(c.target.burst_bytes == 0);

    CHECK(c.driver.arrival_processing_s == 0.0);
    CHECK(c.driver.completion_processing_s == 0.0);

    CHECK(c.disk_count == 16);
    CHECK(c.disk.access_time_s == 2.0 * 1e-3);
    CHECK(c.disk.media_rate_bytes_per_s == 50.0 * 1e6);
    CHECK(c.disk.queue_slots == 16);

    CHECK(c.workload_type == WorkloadType::Closed);
    CHECK(c.queue_depth == 1);
    CHECK(c.workload.io_size_bytes == 65536);
    CHECK(c.workload.read_fraction == 1.0);
    CHECK(c.rate_iops == 0.0);
    CHECK(c.measured_ios == 2000);
    CHECK(c.warmup_ios == 160);  // 10 x 1 x 16
    CHECK(c.workload.seed == 1);

    CHECK(c.schedule == Schedule::Cmdf);  // docs/model.md, "The baseline scenario": CMDF on
    CHECK(c.time_limit_s == 100.0);
}

TEST_CASE("sim_config: derived defaults follow the keys they come from")
{
    auto t = fcal_parameters();
    t.set("disk.count", "8");
    t.set("workload.queue_depth", "4");
    SimConfig c = build_config(t);
    CHECK(c.loop.nodes.size() == 9);
    CHECK(c.warmup_ios == 320);  // 10 x 4 x 8

    t.set("workload.warmup_ios", "0");
    t.set("loop.nodes", "12");
    c = build_config(t);
    CHECK(c.warmup_ios == 0);
    CHECK(c.loop.nodes.size() == 12);
    CHECK(c.loop.hop_m.front() == 2.0);

    // A loop of 12 ports has 12 cables.
    t.set("loop.length_m", "30");
    c = build_config(t);
    CHECK(c.loop.hop_m.front() == Approx(2.5));
    t.set("loop.hop_m", "7");  // length_m still wins
    CHECK(build_config(t).loop.hop_m.front() == Approx(2.5));
}

TEST_CASE("sim_config: fewer loop nodes than disks plus controller is refused")
{
    auto t = fcal_parameters();
    t.set("loop.nodes", "10");
    CHECK(error_of([&] { build_config(t); }) == "loop.nodes: 10 is fewer than disk.count + 1 = 17");
    t.set("loop.nodes", "17");
    CHECK(build_config(t).loop.nodes.size() == 17);
}

TEST_CASE("sim_config: Login_BB_Credit above the incoming buffers is refused")
{
    auto t = fcal_parameters();
    t.set("initiator.login_bb_credit", "3");
    CHECK(build_config(t).initiator_port.login_bb_credit == 3);
    t.set("initiator.login_bb_credit", "4");
    CHECK(contains(error_of([&] { build_config(t); }), "initiator.login_bb_credit: 4 exceeds initiator.incoming_buffers = 3"));

    auto u = fcal_parameters();
    u.set("target.login_bb_credit", "3");
    CHECK(contains(error_of([&] { build_config(u); }), "target.login_bb_credit: 3 exceeds target.incoming_buffers = 2"));
}

TEST_CASE("sim_config: an open workload needs an arrival rate")
{
    auto t = fcal_parameters();
    t.set("workload.type", "open");
    CHECK(contains(error_of([&] { build_config(t); }), "workload.rate_iops"));
    t.set("workload.rate_iops", "2500");
    const SimConfig c = build_config(t);
    CHECK(c.workload_type == WorkloadType::Open);
    CHECK(c.rate_iops == 2500.0);
}

TEST_CASE("sim_config: the schedule presets the Command-First levels and explicit keys override it")
{
    auto t = fcal_parameters();
    t.set("schedule", "normal");
    auto c = build_config(t);  // normal: everything off
    CHECK(c.schedule == Schedule::Normal);
    CHECK(c.initiator.cmdf.fifo == CommandFifo::Off);
    CHECK_FALSE(c.initiator.cmdf.arbitration);
    CHECK_FALSE(c.initiator.cmdf.preempt);
    t.set("schedule", "cmdf");  // issue 5: command_queue + arbitration + preempt
    c = build_config(t);
    CHECK(c.schedule == Schedule::Cmdf);
    CHECK(c.initiator.cmdf.fifo == CommandFifo::CommandQueue);
    CHECK(c.initiator.cmdf.arbitration);
    CHECK(c.initiator.cmdf.preempt);
    t.set("cmdf.preempt", "false");
    t.set("cmdf.fifo", "reorder");
    c = build_config(t);
    CHECK(c.initiator.cmdf.fifo == CommandFifo::Reorder);
    CHECK(c.initiator.cmdf.arbitration);
    CHECK_FALSE(c.initiator.cmdf.preempt);
    auto n = fcal_parameters();  // a level switched on under the normal schedule
    n.set("schedule", "normal");
    n.set("cmdf.arbitration", "true");
    CHECK(build_config(n).initiator.cmdf.arbitration);
    CHECK(build_config(n).initiator.cmdf.fifo == CommandFifo::Off);
    CHECK(error_of([&] { n.set("cmdf.fifo", "sideways"); }).find("cmdf.fifo") != std::string::npos);
}

TEST_CASE("sim_config: choices map to their enums")
{
    auto t = fcal_parameters();
    t.set("loop.speed", "8GFC");
    t.set("initiator.dma_policy", "round_robin");
    t.set("initiator.al_pa", "0xE8");
    t.set("target.burst_bytes", "16K");
    const SimConfig c = build_config(t);
    CHECK(c.loop.rate == LineRate::G8);
    CHECK(c.initiator.dma.policy == DmaPolicy::RoundRobin);
    CHECK(c.initiator_port.al_pa == 0xE8);
    CHECK(c.target.burst_bytes == 16384);
}

TEST_CASE("sim_config: a choice's text is the name its module gives the value")
{
    // The echo prints choices from their declarations' tables; results and summaries print the
    // modules' own names. Every value of every such choice, filled into a configuration, must read
    // back under the module's name.
    using namespace fcal;
    const std::vector<std::pair<std::string, std::function<std::string(const SimConfig&)>>> named = {
        {"loop.speed", [](const SimConfig& c) { return phy::to_string(c.loop.rate); }},
        {"initiator.dma_policy", [](const SimConfig& c) { return std::string(hba::to_string(c.initiator.dma.policy)); }},
        {"disk.model", [](const SimConfig& c) { return std::string(disk::to_string(c.disk.model)); }},
        {"disk.access_dist", [](const SimConfig& c) { return std::string(disk::to_string(c.disk.access_dist)); }},
        {"disk.positioning", [](const SimConfig& c) { return std::string(disk::to_string(c.disk.zoned.positioning)); }},
        {"disk.scheduler", [](const SimConfig& c) { return std::string(disk::to_string(c.disk.scheduler)); }},
        {"erase.command", [](const SimConfig& c) { return std::string(host::to_string(c.erase.command)); }},
        {"erase.strategy", [](const SimConfig& c) { return std::string(host::to_string(c.erase.strategy)); }},
        {"volume.raid", [](const SimConfig& c) { return controller::to_string(c.volume.raid); }},
        {"volume.split_merge", [](const SimConfig& c) { return controller::to_string(c.volume.split_merge); }},
        {"cmdf.fifo", [](const SimConfig& c) { return std::string(hba::to_string(c.initiator.cmdf.fifo)); }}};
    int values = 0;
    for (const auto& [key, name_of] : named)
        for (const std::string& text : fcal_parameters().find(key)->choice_texts()) {
            auto t = fcal_parameters();
            t.set(key, text);
            SimConfig c;
            t.fill(c);
            INFO(key << "=" << text);
            CHECK(name_of(c) == text);
            ++values;
        }
    CHECK(values == 29);
}

TEST_CASE("sim_config: to_json echoes every resolved value and loads back")
{
    auto t = fcal_parameters();
    t.set("disk.count", "6");
    t.set("loop.length_m", "70");
    t.set("workload.io_size", "8K");
    t.set("disk.2.port_name", "12345");
    const SimConfig c = build_config(t);
    const nlohmann::json j = to_json(c);
    // A port name is given per disk (each disk's default derives from its ring position): echoed
    // for the disk it was given for.
    CHECK(j["disk"]["2"]["port_name"] == 12345);

    // Every key, loop.length_m too since it was given (it is also resolved into loop.hop_m).
    for (const auto& p : t.parameters()) {
        if (p.per_event) continue;  // echoed only for the events given
        if (p.key == "disk.port_name") continue;  // per disk, above
        std::string pointer = "/" + p.key;
        for (auto& ch : pointer)
            if (ch == '.') ch = '/';
        INFO(p.key);
        CHECK(j.contains(nlohmann::json::json_pointer(pointer)));
    }
    CHECK(j["loop"]["speed"] == "2GFC");
    CHECK(j["loop"]["nodes"] == 7);
    CHECK(j["loop"]["hop_m"] == 10.0);
    CHECK(j["initiator"]["al_pa"] == "0x01");
    CHECK(j["initiator"]["cmd_exec_us"] == 43.9);
    CHECK(j["workload"]["io_size"] == 8192);
    CHECK(j["workload"]["warmup_ios"] == 60);
    CHECK(j["schedule"] == "cmdf");
    CHECK(j["sim"]["time_limit_s"] == 100.0);

    CHECK(j["loop"]["length_m"] == 70.0);
    CHECK_FALSE(to_json(default_config())["loop"].contains("length_m"));  // unset, an optional key is left out

    auto again = fcal_parameters();
    again.load_json(j, "echo");
    CHECK(to_json(build_config(again)) == j);
}
