// The parameter table: keys, defaults and the way files and --set feed it. Expected defaults are
// written out here from the specification's list, not read back from the table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#include "fcal/sim/member_binding.hpp"
#include "fcal/sim/parameter_table.hpp"
#include "config_error.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;

namespace {

// A JSON file that exists for one test; named after the process so parallel ctest runs do not meet.
class TempFile {
public:
    explicit TempFile(const std::string& contents)
        : path_(std::filesystem::temp_directory_path() /
                ("fcal_parameter_table_test_" + std::to_string(::getpid()) + "_" + std::to_string(next_++) + ".json"))
    {
        std::ofstream(path_) << contents;
    }
    ~TempFile() { std::filesystem::remove(path_); }
    std::string path() const { return path_.string(); }

private:
    static inline int next_ = 0;
    std::filesystem::path path_;
};


const std::set<std::string> kSpecKeys = {
    "loop.speed", "loop.nodes", "loop.hop_m", "loop.length_m", "loop.port_delay_words", "loop.propagation_ns_per_m",
    "initiator.al_pa", "initiator.fair", "initiator.incoming_buffers", "initiator.login_bb_credit",
    "initiator.full_duplex", "initiator.max_payload", "initiator.cmd_exec_us", "initiator.xfer_rdy_us",
    "initiator.dma_mbs", "initiator.dma_sched_us", "initiator.dma_policy", "initiator.frame_proc_ns",
    "initiator.sft_us", "initiator.max_outstanding", "initiator.tx_fifo_frames", "initiator.cmd_fifo_frames",
    "target.fair", "target.incoming_buffers", "target.login_bb_credit", "target.full_duplex", "target.max_payload",
    "target.cmd_exec_us", "target.rsp_gen_us", "target.dma_mbs", "target.dma_sched_us", "target.frame_proc_ns",
    "target.sft_us", "target.burst_bytes",
    "initiator.circuit_hold_us", "target.circuit_hold_us",  // the ports' close timer: issue 11
    "loop.ber", "loop.al_time_us",  // bit errors on the loop and AL_TIME: issue 13
    "driver.arrival_us", "driver.completion_us",
    "disk.count", "disk.access_ms", "disk.rate_mbs", "disk.queue_slots",
    // issue 9, disks
    "disk.model", "disk.access_dist", "disk.rpm", "disk.cylinders", "disk.heads", "disk.sector_bytes",
    "disk.sector_time_inner_ms", "disk.sector_time_outer_ms", "disk.seek_read_min_ms", "disk.seek_read_max_ms",
    "disk.seek_write_min_ms", "disk.seek_write_max_ms", "disk.positioning", "disk.scheduler", "disk.write_cache",
    "disk.buffer_kib", "disk.buffer_full_ratio", "disk.command_overhead_us", "initiator.task_set_full_retry_us",
    "workload.type", "workload.queue_depth", "workload.io_size", "workload.read_fraction", "workload.rate_iops",
    "workload.measured_ios", "workload.warmup_ios", "workload.seed",
    "workload.lba", "volume.raid", "volume.stripe_kib", "volume.split_merge", "transport",  // issue 9: volumes
    "volume.decode", "decode.area_units", "decode.threshold", "decode.own_write", "decode.free_fraction",  // issue 10: DECODE
    "workload.io_size_max", "workload.span_bytes",
    "schedule", "cmdf.fifo", "cmdf.arbitration", "cmdf.preempt", "cmdf.impl", "rtl.clock_mhz", "rtl.lockstep",
    "sim.time_limit_s",
    "initiator.exchange_timeout_ms", "initiator.abts_timeout_ms", "driver.retries",  // issue 13: FCP recovery
    "target.data_timeout_ms",
    "loop.baud_gbps",  // cmdf.*: issue 5; FIFO depths, cmdf.impl, rtl.*: issue 8
    "erase.command", "erase.strategy", "erase.tl_policy", "erase.transfer_blocks", "erase.same_blocks", "erase.disks",
    "disk.capacity_gb"};  // issue 10: erasure

}  // namespace

TEST_CASE("parameter_table: holds every key of the specification")
{
    // A key added later needs no change here: its declaration is the only place it is listed.
    const auto table = fcal_parameters();
    std::set<std::string> keys;
    for (const auto& p : table.parameters()) {
        INFO(p.key);
        CHECK(keys.insert(p.key).second);
        CHECK_FALSE(p.description.empty());
        CHECK(p.description.find('\n') == std::string::npos);
    }
    for (const auto& key : kSpecKeys) {
        INFO(key);
        CHECK(keys.count(key) == 1);
    }
}

TEST_CASE("parameter_table: defaults are those of the specification")
{
    const auto t = fcal_parameters();
    for (const auto& key : kSpecKeys) {
        INFO(key);
        CHECK_FALSE(t.is_set(key));
    }

    CHECK(t.get_string("loop.speed") == "2GFC");
    CHECK_FALSE(t.has_value("loop.nodes"));
    CHECK(t.find("loop.nodes")->default_text == "disk.count+1");
    CHECK(t.get_real("loop.hop_m") == 2.0);
    CHECK_FALSE(t.has_value("loop.length_m"));
    CHECK(t.get_int("loop.port_delay_words") == 6);
    CHECK(t.get_real("loop.propagation_ns_per_m") == 5.0);
    CHECK(t.get_real("loop.ber") == 0.0);
    CHECK(t.get_real("loop.al_time_us") == 15000.0);  // FC-AL's AL_TIME, 15 ms

    CHECK(t.get_al_pa("initiator.al_pa") == 0x01);
    CHECK(t.get_bool("initiator.fair"));
    CHECK(t.get_int("initiator.incoming_buffers") == 3);
    CHECK(t.get_int("initiator.login_bb_credit") == 0);
    CHECK_FALSE(t.get_bool("initiator.full_duplex"));
    CHECK(t.get_bytes("initiator.max_payload") == 2048);
    CHECK(t.get_real("initiator.cmd_exec_us") == 43.9);
    CHECK(t.get_real("initiator.xfer_rdy_us") == 11.8);
    CHECK(t.get_real("initiator.dma_mbs") == 1064.0);
    CHECK(t.get_real("initiator.dma_sched_us") == 15.5);
    CHECK(t.get_string("initiator.dma_policy") == "fcfs");
    CHECK(t.get_real("initiator.frame_proc_ns") == 400.0);
    CHECK(t.get_real("initiator.sft_us") == 20.2);
    CHECK(t.get_int("initiator.max_outstanding") == 255);

    CHECK(t.get_bool("target.fair"));
    CHECK(t.get_int("target.incoming_buffers") == 2);
    CHECK(t.get_int("target.login_bb_credit") == 0);
    CHECK_FALSE(t.get_bool("target.full_duplex"));
    CHECK(t.get_bytes("target.max_payload") == 2048);
    CHECK(t.get_real("target.cmd_exec_us") == 47.4);
    CHECK(t.get_real("target.rsp_gen_us") == 10.3);
    CHECK(t.get_real("target.dma_mbs") == 1064.0);
    CHECK(t.get_real("target.dma_sched_us") == 15.5);
    CHECK(t.get_real("target.frame_proc_ns") == 400.0);
    CHECK(t.get_real("target.sft_us") == 20.2);
    CHECK(t.get_bytes("target.burst_bytes") == 0);

    CHECK(t.get_real("driver.arrival_us") == 0.0);
    CHECK(t.get_real("driver.completion_us") == 0.0);

    CHECK(t.get_int("disk.count") == 16);
    CHECK(t.get_real("disk.access_ms") == 2.0);
    CHECK(t.get_real("disk.rate_mbs") == 50.0);
    CHECK(t.get_int("disk.queue_slots") == 16);

    CHECK(t.get_string("workload.type") == "closed");
    CHECK(t.get_int("workload.queue_depth") == 1);
    CHECK(t.get_bytes("workload.io_size") == 64 * 1024);
    CHECK(t.get_real("workload.read_fraction") == 1.0);
    CHECK(t.get_real("workload.rate_iops") == 0.0);
    CHECK(t.get_int("workload.measured_ios") == 2000);
    CHECK_FALSE(t.has_value("workload.warmup_ios"));
    CHECK(contains(t.find("workload.warmup_ios")->default_text, "10"));
    CHECK(t.get_int("workload.seed") == 1);

    CHECK(t.get_string("schedule") == "cmdf");  // docs/model.md, "The baseline scenario": CMDF on
    CHECK(t.get_real("sim.time_limit_s") == 100.0);
}

TEST_CASE("parameter_table: units and choices")
{
    const auto t = fcal_parameters();
    CHECK(t.find("loop.hop_m")->unit == "m");
    CHECK(t.find("loop.port_delay_words")->unit == "words");
    CHECK(t.find("initiator.cmd_exec_us")->unit == "us");
    CHECK(t.find("initiator.frame_proc_ns")->unit == "ns");
    CHECK(t.find("initiator.dma_mbs")->unit == "MB/s");
    CHECK(t.find("disk.access_ms")->unit == "ms");
    CHECK(t.find("workload.io_size")->unit == "bytes");
    CHECK(t.find("sim.time_limit_s")->unit == "s");
    CHECK(t.find("loop.speed")->choice_texts() == std::vector<std::string>{"1GFC", "2GFC", "4GFC", "8GFC"});
    CHECK(t.find("initiator.dma_policy")->choice_texts() == std::vector<std::string>{"fcfs", "round_robin"});
    CHECK(t.find("workload.type")->choice_texts() == std::vector<std::string>{"closed", "open", "erase"});
    CHECK(t.find("schedule")->choice_texts() == std::vector<std::string>{"normal", "cmdf"});
}

TEST_CASE("parameter_table: list shows every key with its default")
{
    const auto t = fcal_parameters();
    std::ostringstream out;
    t.list(out);
    const std::string text = out.str();

    std::map<std::string, std::string> line_of;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) line_of[line.substr(0, line.find(' '))] = line;
    for (const auto& key : kSpecKeys) {
        INFO(key);
        REQUIRE(line_of.count(key) == 1);
        CHECK(contains(line_of[key], t.find(key)->description));
    }
    CHECK(contains(line_of["loop.nodes"], "disk.count+1"));
    CHECK(contains(line_of["loop.nodes"], "2..127"));
    CHECK(contains(line_of["loop.length_m"], "unset"));
    CHECK(contains(line_of["workload.io_size"], "64K"));
    CHECK(contains(line_of["workload.io_size"], "bytes"));
    CHECK(contains(line_of["initiator.cmd_exec_us"], "43.9"));
    CHECK(contains(line_of["initiator.max_payload"], "2048"));
    CHECK(contains(line_of["initiator.al_pa"], "0x01"));
    CHECK(contains(line_of["loop.speed"], "1GFC|2GFC|4GFC|8GFC"));
    CHECK(contains(line_of["disk.count"], "1..125"));
}

TEST_CASE("parameter_table: JSON files take nested objects and dotted keys")
{
    auto t = fcal_parameters();
    TempFile file(R"({"loop": {"speed": "4GFC", "hop_m": 0.5},
                      "disk.count": 8,
                      "initiator": {"al_pa": "0xE8", "fair": false, "dma.policy_typo_free": null} })");
    // The typo-free member above is not a key, so the whole file is refused first ...
    CHECK(contains(error_of([&] { t.load_json_file(file.path()); }), "initiator.dma.policy_typo_free"));
    CHECK_FALSE(t.is_set("loop.speed"));  // ... and nothing of it was applied.

    TempFile good(R"({"loop": {"speed": "4GFC", "hop_m": 0.5},
                      "disk.count": 8,
                      "initiator": {"al_pa": "0xE8", "fair": false, "dma_mbs": 500},
                      "target.burst_bytes": "8K",
                      "workload": {"io_size": 4096, "read_fraction": 0.25}})");
    t.load_json_file(good.path());
    CHECK(t.get_string("loop.speed") == "4GFC");
    CHECK(t.is_set("loop.speed"));
    CHECK(t.get_real("loop.hop_m") == 0.5);
    CHECK(t.get_int("disk.count") == 8);
    CHECK(t.get_al_pa("initiator.al_pa") == 0xE8);
    CHECK_FALSE(t.get_bool("initiator.fair"));
    CHECK(t.get_real("initiator.dma_mbs") == 500.0);  // a JSON integer is a fine real
    CHECK(t.get_bytes("target.burst_bytes") == 8192);
    CHECK(t.get_bytes("workload.io_size") == 4096);
    CHECK(t.get_real("workload.read_fraction") == 0.25);
    CHECK_FALSE(t.is_set("disk.access_ms"));
    CHECK(t.get_real("disk.access_ms") == 2.0);
}

TEST_CASE("parameter_table: later sources override earlier ones")
{
    auto t = fcal_parameters();
    TempFile first(R"({"disk": {"count": 8}, "workload.queue_depth": 4})");
    TempFile second(R"({"disk.count": 12})");
    t.load_json_file(first.path());
    t.load_json_file(second.path());
    CHECK(t.get_int("disk.count") == 12);
    CHECK(t.get_int("workload.queue_depth") == 4);

    t.set("disk.count", "3");
    t.set_assignment("loop.speed=8GFC");
    CHECK(t.get_int("disk.count") == 3);
    CHECK(t.get_string("loop.speed") == "8GFC");
    CHECK(t.get_int("workload.queue_depth") == 4);
}

TEST_CASE("parameter_table: byte sizes take K M and G suffixes in powers of 1024")
{
    auto t = fcal_parameters();
    t.set("workload.io_size", "64K");
    CHECK(t.get_bytes("workload.io_size") == 65536);
    t.set("workload.io_size", "1M");
    CHECK(t.get_bytes("workload.io_size") == 1048576);
    t.set("workload.io_size", "1G");
    CHECK(t.get_bytes("workload.io_size") == 1073741824);
    t.set("workload.io_size", "512");
    CHECK(t.get_bytes("workload.io_size") == 512);
    t.load_json(nlohmann::json::parse(R"({"workload.io_size": "16K"})"));
    CHECK(t.get_bytes("workload.io_size") == 16384);
    t.load_json(nlohmann::json::parse(R"({"workload.io_size": 65536})"));
    CHECK(t.get_bytes("workload.io_size") == 65536);

    for (const char* bad : {"1.5K", "64KB", "K", "", "-1", "0x10"}) {
        INFO(bad);
        CHECK(contains(error_of([&] { t.set("workload.io_size", bad); }), "workload.io_size: expected a byte size"));
    }
    CHECK(error_of([&] { t.set("workload.io_size", "2G"); }) == "workload.io_size: 2G is out of range 1..1G");
    CHECK(format_bytes(65536) == "64K");
    CHECK(format_bytes(3 * 1048576) == "3M");
    CHECK(format_bytes(2112) == "2112");
    CHECK(format_bytes(2048) == "2048");
    CHECK(format_bytes(65537) == "65537");
    CHECK(format_bytes(0) == "0");
}

TEST_CASE("parameter_table: text values parse by type")
{
    auto t = fcal_parameters();
    t.set("initiator.fair", "false");
    CHECK_FALSE(t.get_bool("initiator.fair"));
    t.set("initiator.fair", "1");
    CHECK(t.get_bool("initiator.fair"));
    t.set("initiator.fair", "0");
    CHECK_FALSE(t.get_bool("initiator.fair"));
    t.set("initiator.fair", "true");
    CHECK(t.get_bool("initiator.fair"));

    t.set("initiator.al_pa", "0xe8");
    CHECK(t.get_al_pa("initiator.al_pa") == 0xE8);
    t.set("initiator.al_pa", "2");
    CHECK(t.get_al_pa("initiator.al_pa") == 0x02);
    t.load_json(nlohmann::json::parse(R"({"initiator.al_pa": 239})"));
    CHECK(t.get_al_pa("initiator.al_pa") == 0xEF);

    t.set("disk.rate_mbs", "1e2");
    CHECK(t.get_real("disk.rate_mbs") == 100.0);
    t.set("loop.length_m", "100");
    CHECK(t.has_value("loop.length_m"));
    CHECK(t.get_real("loop.length_m") == 100.0);

    CHECK(contains(error_of([&] { t.set("initiator.fair", "yes"); }), "initiator.fair: expected true or false"));
    CHECK(contains(error_of([&] { t.set("disk.rate_mbs", "fast"); }), "disk.rate_mbs: expected a number"));
    CHECK(contains(error_of([&] { t.set("disk.rate_mbs", "inf"); }), "disk.rate_mbs: expected a number"));
    CHECK(contains(error_of([&] { t.set("loop.speed", "3GFC"); }), "loop.speed: expected one of 1GFC|2GFC|4GFC|8GFC"));
    CHECK(contains(error_of([&] { t.set_assignment("disk.count"); }), "KEY=VALUE"));
}

TEST_CASE("parameter_table: unknown keys are named")
{
    auto t = fcal_parameters();
    const auto e1 = error_of([&] { t.set("disk.cuont", "4"); });
    CHECK(contains(e1, "disk.cuont: unknown parameter"));
    CHECK(contains(e1, "disk.count"));  // the suggestion
    CHECK(contains(error_of([&] { t.set("nothing.like.it", "4"); }), "nothing.like.it: unknown parameter"));

    TempFile file(R"({"loop": {"sped": "4GFC"}})");
    const auto e2 = error_of([&] { t.load_json_file(file.path()); });
    CHECK(contains(e2, file.path()));
    CHECK(contains(e2, "loop.sped: unknown parameter"));
    CHECK(contains(error_of([&] { t.load_json(nlohmann::json::parse(R"({"loop": 3})")); }), "loop: unknown parameter"));
}

TEST_CASE("parameter_table: unknown keys with control characters are shown escaped")
{
    // Found by fuzzing (tests/fuzz/regressions): a key starting with NUL gave an empty message, since
    // what() stops at the NUL; other control characters would reach the terminal as they are.
    auto t = fcal_parameters();
    const std::string nul_key("\0mdf.impl", 9);
    const auto e1 = error_of([&] { t.set(nul_key, "rtl"); });
    CHECK(e1 == R"("\u0000mdf.impl": unknown parameter (did you mean cmdf.impl?))");
    const auto e2 = error_of([&] { t.load_json(nlohmann::json::parse(R"({"disk\u0000count": 3})")); });
    CHECK(contains(e2, R"("disk\u0000count": unknown parameter)"));
    CHECK(contains(error_of([&] { t.set("disk.\x1b[2Jcount", "3"); }), R"("disk.\u001b[2Jcount": unknown parameter)"));
    CHECK(contains(error_of([&] { t.set("disk count", "3"); }), R"("disk count": unknown parameter)"));
    // Plain keys stay as they were.
    CHECK(contains(error_of([&] { t.set("disk.cuont", "4"); }), "disk.cuont: unknown parameter"));
    // DEL, which JSON does not escape, in a value, a malformed assignment and the parser's excerpt.
    CHECK(error_of([&] { t.set("disk.count", "\x7f"); }) == R"(disk.count: expected an integer, got "\u007f")");
    CHECK(contains(error_of([&] { t.set_assignment("disk.count\x7f"); }), R"(got "disk.count\u007f")"));
    // A number beyond a double's range is malformed JSON, not an internal error (found by fuzzing).
    TempFile huge(R"({"disk.access_ms": 1e400})");
    CHECK(contains(error_of([&] { t.load_json_file(huge.path()); }), "malformed JSON: number overflow parsing '1e400'"));
    TempFile file("{\"disk\": \x7f}");
    CHECK(contains(error_of([&] { t.load_json_file(file.path()); }), R"(last read: '"disk": \u007f')"));
}

TEST_CASE("parameter_table: values of the wrong type are named")
{
    auto t = fcal_parameters();
    CHECK(error_of([&] { t.set("disk.count", "abc"); }) == R"(disk.count: expected an integer, got "abc")");
    CHECK(contains(error_of([&] { t.set("disk.count", "8.5"); }), "disk.count: expected an integer"));

    const auto json_error = [&](const char* text) { return error_of([&] { t.load_json(nlohmann::json::parse(text)); }); };
    CHECK(json_error(R"({"disk.count": "8"})") == R"(disk.count: expected an integer, got "8")");
    CHECK(contains(json_error(R"({"disk": {"count": 8.0}})"), "disk.count: expected an integer"));
    CHECK(contains(json_error(R"({"initiator.fair": "true"})"), "initiator.fair: expected true or false"));
    CHECK(contains(json_error(R"({"loop.speed": 4})"), "loop.speed: expected one of"));
    CHECK(contains(json_error(R"({"disk.access_ms": "2"})"), "disk.access_ms: expected a number"));
    CHECK(contains(json_error(R"({"disk.count": {"value": 8}})"), "disk.count: expected an integer"));
    CHECK(contains(json_error(R"({"disk.count": null})"), "disk.count: expected an integer"));
    CHECK(contains(json_error(R"({"workload.io_size": true})"), "workload.io_size: expected a byte size"));
    CHECK(contains(json_error(R"([1, 2])"), "expected a JSON object"));
    CHECK(contains(json_error(R"({"loop": {"speed": "4GFC"}, "loop.speed": "1GFC"})"), "loop.speed: given twice"));
    CHECK_FALSE(t.is_set("disk.count"));
}

TEST_CASE("parameter_table: values out of range are named")
{
    auto t = fcal_parameters();
    CHECK(error_of([&] { t.set("disk.count", "0"); }) == "disk.count: 0 is out of range 1..125");
    CHECK(error_of([&] { t.set("disk.count", "126"); }) == "disk.count: 126 is out of range 1..125");
    CHECK(error_of([&] { t.set("workload.read_fraction", "1.5"); }) == "workload.read_fraction: 1.5 is out of range 0..1");
    CHECK(error_of([&] { t.set("workload.io_size", "0"); }) == "workload.io_size: 0 is out of range 1..1G");
    CHECK(contains(error_of([&] { t.set("loop.hop_m", "-1"); }), "loop.hop_m: -1 is out of range (must be >= 0)"));
    CHECK(contains(error_of([&] { t.set("disk.rate_mbs", "0"); }), "disk.rate_mbs: 0 is out of range (must be > 0)"));
    CHECK(contains(error_of([&] { t.set("sim.time_limit_s", "0"); }), "sim.time_limit_s: 0 is out of range"));
    CHECK(contains(error_of([&] { t.set("loop.nodes", "128"); }), "loop.nodes: 128 is out of range 2..127"));
    CHECK(contains(error_of([&] { t.set("disk.count", "99999999999999999999"); }), "disk.count:"));
    CHECK(contains(error_of([&] { t.set("initiator.max_payload", "2050"); }),
                   "initiator.max_payload: 2050 is not a multiple of 4"));
    CHECK(contains(error_of([&] { t.set("target.max_payload", "2116"); }), "target.max_payload: 2116 is out of range 4..2112"));
    CHECK(contains(error_of([&] { t.load_json(nlohmann::json::parse(R"({"disk": {"count": 0}})")); }),
                   "disk.count: 0 is out of range 1..125"));
    CHECK(t.get_int("disk.count") == 16);
}

TEST_CASE("parameter_table: invalid AL_PAs are refused")
{
    auto t = fcal_parameters();
    const auto e = error_of([&] { t.set("initiator.al_pa", "0xF0"); });
    CHECK(contains(e, "initiator.al_pa: 0xF0 is not a valid AL_PA"));
    CHECK(contains(error_of([&] { t.set("initiator.al_pa", "3"); }), "initiator.al_pa: 0x03 is not a valid AL_PA"));
    CHECK(contains(error_of([&] { t.set("initiator.al_pa", "0x102"); }), "initiator.al_pa: 0x102 is not a valid AL_PA"));
    CHECK(contains(error_of([&] { t.set("initiator.al_pa", "0xZZ"); }), "initiator.al_pa: expected an AL_PA"));
    CHECK(contains(error_of([&] { t.load_json(nlohmann::json::parse(R"({"initiator": {"al_pa": 240}})")); }),
                   "initiator.al_pa: 0xF0 is not a valid AL_PA"));
    CHECK(t.get_al_pa("initiator.al_pa") == 0x01);
}

TEST_CASE("parameter_table: malformed and missing files are named")
{
    auto t = fcal_parameters();
    TempFile broken("{\n  \"disk.count\": 8,\n  \"loop\": {\"speed\": \"4GFC\",}\n}\n");
    const auto e1 = error_of([&] { t.load_json_file(broken.path()); });
    CHECK(contains(e1, broken.path() + ": malformed JSON"));
    CHECK(contains(e1, "line 3"));
    CHECK_FALSE(contains(e1, "[json.exception"));
    CHECK_FALSE(t.is_set("disk.count"));

    TempFile empty("");
    CHECK(contains(error_of([&] { t.load_json_file(empty.path()); }), empty.path() + ": malformed JSON"));

    const std::string missing = "/nonexistent/fcal/no_such_config.json";
    const auto e2 = error_of([&] { t.load_json_file(missing); });
    CHECK(contains(e2, missing));
    CHECK(contains(e2, "cannot open"));

    const auto dir = std::filesystem::temp_directory_path().string();
    CHECK(contains(error_of([&] { t.load_json_file(dir); }), dir));
}

TEST_CASE("parameter_table: a table checks its own declarations")
{
    ParameterTable t;
    Parameter p;
    p.key = "x.count";
    p.type = ParamType::Integer;
    p.default_value = std::int64_t{2};
    p.int_min = 1;
    p.int_max = 4;
    p.description = "a count";
    CHECK_THROWS_AS(t.add(p), std::logic_error);  // no field to fill
    p.field = at(&SimConfig::disk_count);
    p.default_value = std::int64_t{0};
    CHECK_THROWS_AS(t.add(p), std::logic_error);  // a default out of its own range
    p.default_value = std::int64_t{2};
    p.per_disk = true;
    CHECK_THROWS_AS(t.add(p), std::logic_error);  // per disk, but not a disk.* key
    p.per_disk = false;
    t.add(p);
    CHECK_THROWS_AS(t.add(p), std::logic_error);
    CHECK(t.get_int("x.count") == 2);
    CHECK_THROWS_AS(t.get_real("x.count"), std::logic_error);  // reading as the wrong type is a program bug
    CHECK_THROWS_AS(t.get_int("y.count"), std::logic_error);
}

TEST_CASE("parameter_table: a key's range must fit its field's integer type")
{
    ParameterTable t;
    Parameter p;
    p.key = "x.size";
    p.type = ParamType::Bytes;
    p.default_value = std::int64_t{512};
    p.description = "a size";
    p.field = at(&SimConfig::workload, &fcal::host::WorkloadParams::io_size_bytes);  // 32 bits, unsigned
    p.int_min = 1;
    p.int_max = std::int64_t{1} << 32;  // one more than the field holds
    CHECK_THROWS_AS(t.add(p), std::logic_error);
    p.int_min = -1;
    p.int_max = 1024;
    CHECK_THROWS_AS(t.add(p), std::logic_error);  // a negative value in an unsigned field
    p.int_min = 1;
    p.int_max = 1024;
    p.field_scale = std::int64_t{1} << 22;  // 1024 KiB-like units of 4 MiB: 2^32 again
    CHECK_THROWS_AS(t.add(p), std::logic_error);
    p.field_scale = 1;
    p.int_max = (std::int64_t{1} << 32) - 1;  // exactly what it holds
    t.add(p);
    CHECK(t.get_bytes("x.size") == 512);
    // A 64-bit field takes a 64-bit range.
    p.key = "x.ios";
    p.field = at(&SimConfig::measured_ios);
    p.int_max = std::numeric_limits<std::int64_t>::max();
    t.add(p);
}

// Issue 18 (a red-team pass): what a parsed JSON object no longer shows, and messages that must stay
// short and true.

namespace {

std::string nested(int depth, const std::string& inner)
{
    std::string text;
    for (int i = 0; i < depth; ++i) text += R"({"a":)";
    text += inner;
    for (int i = 0; i < depth; ++i) text += "}";
    return text;
}

}  // namespace

TEST_CASE("parameter_table: deep nesting is refused with a short message, not a crash")
{
    auto t = fcal_parameters();
    // 10 000 levels used to exhaust the stack of the recursive walk (exit 139).
    TempFile deep(nested(10000, "1"));
    const auto e1 = error_of([&] { t.load_json_file(deep.path()); });
    CHECK(contains(e1, "nested deeper than 16 levels"));
    CHECK(e1.size() < deep.path().size() + 100);
    // Arrays count as levels too; 16 levels of objects are not refused for their depth.
    TempFile arrays("{\"disk\":" + std::string(5000, '[') + std::string(5000, ']') + "}");
    CHECK(contains(error_of([&] { t.load_json_file(arrays.path()); }), "nested deeper than 16 levels"));
    TempFile sixteen(nested(15, "1"));
    CHECK(contains(error_of([&] { t.load_json_file(sixteen.path()); }), "unknown parameter"));
    // The walk bounds itself for an object parsed elsewhere.
    CHECK(contains(error_of([&] { t.load_json(nlohmann::json::parse(nested(40, "1"))); }), "nested deeper than 16 levels"));
    CHECK_FALSE(t.is_set("disk.count"));
}

TEST_CASE("parameter_table: a key given twice in a JSON file is refused in every spelling")
{
    auto t = fcal_parameters();
    TempFile nested_twice(R"({"disk": {"count": 4}, "disk": {"count": 5}})");
    CHECK(contains(error_of([&] { t.load_json_file(nested_twice.path()); }), ": disk: given twice"));
    TempFile dotted_twice(R"({"disk.count": 4, "disk.count": 6})");
    CHECK(contains(error_of([&] { t.load_json_file(dotted_twice.path()); }), ": disk.count: given twice"));
    TempFile inner_twice(R"({"disk": {"count": 4, "count": 6}})");
    CHECK(contains(error_of([&] { t.load_json_file(inner_twice.path()); }), ": disk.count: given twice"));
    TempFile override_twice(R"({"disk": {"3": {"access_ms": 4, "access_ms": 5}}})");
    CHECK(contains(error_of([&] { t.load_json_file(override_twice.path()); }), ": disk.3.access_ms: given twice"));
    CHECK_FALSE(t.is_set("disk.count"));
    CHECK(t.override_disks().empty());
    // The same key in two different objects is no repetition.
    TempFile two_objects(R"({"initiator": {"fair": false}, "target": {"fair": false}})");
    t.load_json_file(two_objects.path());
    CHECK_FALSE(t.get_bool("target.fair"));
}

TEST_CASE("parameter_table: an empty key is refused, not unwrapped")
{
    auto t = fcal_parameters();
    const auto json_error = [&](const char* text) { return error_of([&] { t.load_json(nlohmann::json::parse(text)); }); };
    CHECK(contains(json_error(R"({"": {"disk": {"count": 4}}})"), R"("": an empty key names no parameter)"));
    CHECK(contains(json_error(R"({"disk": {"": {"count": 4}}})"), R"(disk."": an empty key names no parameter)"));
    CHECK(contains(json_error(R"({"": 4})"), "an empty key"));
    CHECK_FALSE(t.is_set("disk.count"));
}

TEST_CASE("parameter_table: long keys and values are cut in messages")
{
    auto t = fcal_parameters();
    const std::string long_key(10000, 'k');
    const auto e1 = error_of([&] { t.set(long_key, "1"); });
    CHECK(contains(e1, "... (10000 bytes)"));
    CHECK(contains(e1, "unknown parameter"));
    CHECK(e1.size() < 200);
    const auto e2 = error_of([&] { t.load_json(nlohmann::json::parse(nested(8, R"({")" + long_key + R"(": 1})"))); });
    CHECK(e2.size() < 200);
    const std::string long_value(3000000, '7');
    const auto e3 = error_of([&] { t.set("disk.count", long_value); });
    CHECK(contains(e3, "disk.count: 7777"));
    CHECK(contains(e3, "(3000000 bytes)"));
    CHECK(e3.size() < 200);
    CHECK(error_of([&] { t.set("loop.speed", std::string(500, 'x')); }).size() < 250);
    // A string token the parser quotes (cut at a control character) is cut too.
    TempFile token("{\"loop.speed\": \"" + std::string(100000, 'x') + "\x01\"}");
    CHECK(error_of([&] { t.load_json_file(token.path()); }).size() < token.path().size() + 300);
}

TEST_CASE("parameter_table: a disk index has no leading zeros")
{
    auto t = fcal_parameters();
    // "0004" used to be called out of range 0..124.
    CHECK(error_of([&] { t.set("disk.0004.access_ms", "3"); }) ==
          "disk.0004.access_ms: a disk index has no leading zeros (disk.4.access_ms)");
    CHECK(contains(error_of([&] { t.set("disk.00.access_ms", "3"); }), "(disk.0.access_ms)"));
    CHECK(contains(error_of([&] { t.set("disk.0125.access_ms", "3"); }), "disk index 125 is out of range 0..124"));
    t.set("disk.0.access_ms", "3");
    t.set("disk.10.access_ms", "3");
    CHECK(t.override_disks() == std::vector<unsigned>{0, 10});
}

TEST_CASE("parameter_table: messages agree with themselves")
{
    auto t = fcal_parameters();
    // An excluded lower end: 0 used to be "out of range 0..1e+07".
    CHECK(error_of([&] { t.set("loop.al_time_us", "0"); }) == "loop.al_time_us: 0 is out of range (must be > 0 and <= 1e+07)");
    CHECK(contains(error_of([&] { t.set("disk.buffer_full_ratio", "0"); }), "(must be > 0 and <= 1)"));
    std::ostringstream listing;
    t.list(listing);
    CHECK(contains(listing.str(), "> 0 and <= 1e+07"));
    // A whole number beyond 64 bits reaches the table as a double: too large, not "not an integer".
    const auto json_error = [&](const char* text) { return error_of([&] { t.load_json(nlohmann::json::parse(text)); }); };
    CHECK(json_error(R"({"disk.count": 99999999999999999999})") == "disk.count: 1e+20 is out of range 1..125");
    CHECK(contains(json_error(R"({"workload.seed": 1e30})"), "workload.seed: 1e+30 is out of range"));
    CHECK(contains(json_error(R"({"disk.count": 4.5})"), "disk.count: expected an integer"));
}

TEST_CASE("parameter_table: a value beyond 64 bits is told the largest value, not only the open range")
{
    auto t = fcal_parameters();
    // workload.seed's range is open above (">= 0"); its field is an int64_t, so 2^63 - 1 is the top.
    const std::string top = std::to_string(std::numeric_limits<std::int64_t>::max());
    const std::string two_64 = "18446744073709551615", two_63 = "9223372036854775808";  // 2^64 - 1, 2^63
    const std::string too_large = " is out of range (must be >= 0 and <= " + top + ")";
    CHECK(error_of([&] { t.set("workload.seed", two_64); }) == "workload.seed: " + two_64 + too_large);
    CHECK(error_of([&] { t.set("workload.seed", two_63); }) == "workload.seed: " + two_63 + too_large);
    CHECK(error_of([&] { t.load_json(nlohmann::json::parse("{\"workload.seed\": " + two_64 + "}")); }) ==
          "workload.seed: " + two_64 + too_large);
    CHECK(error_of([&] { t.load_json(nlohmann::json::parse(R"({"workload.seed": 1e30})")); }) == "workload.seed: 1e+30" + too_large);
    t.set("workload.seed", top);
    CHECK(t.get_int("workload.seed") == std::numeric_limits<std::int64_t>::max());
    // Below the range "must be >= 0" is the whole truth.
    CHECK(error_of([&] { t.set("workload.seed", "-" + two_64); }) == "workload.seed: -" + two_64 + " is out of range (must be >= 0)");
    // A closed range names its top already.
    CHECK(error_of([&] { t.set("disk.count", two_64); }) == "disk.count: " + two_64 + " is out of range 1..125");
}

TEST_CASE("parameter_table: --list-params --json lists what --list-params lists")
{
    const auto t = fcal_parameters();
    std::ostringstream text, json_text;
    t.list(text);
    t.list_json(json_text);
    const auto all = nlohmann::json::parse(json_text.str());
    REQUIRE(all.size() == t.parameters().size());
    std::istringstream lines(text.str());
    std::string line;
    std::getline(lines, line);  // the header
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& p = all[i];
        std::getline(lines, line);
        CHECK(line.rfind(p["key"].get<std::string>() + " ", 0) == 0);
        CHECK(contains(line, p["description"].get<std::string>()));
        CHECK(p["key"] == t.parameters()[i].key);
        CHECK(p["per_disk"].get<bool>() == t.parameters()[i].per_disk);
    }
    CHECK(all[0]["key"] == "loop.speed");
    CHECK(all[0]["type"] == "choice");
}

// Issue 20: one declaration per parameter. What a declaration binds, fills, echoes and lists.

namespace {

// The leaves of a JSON object by dotted key.
void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, nlohmann::json>& out)
{
    for (const auto& [k, v] : j.items()) {
        const std::string key = prefix.empty() ? k : prefix + "." + k;
        if (v.is_object())
            flatten(v, key, out);
        else
            out[key] = v;
    }
}

std::map<std::string, nlohmann::json> echo_of(const ParameterTable& t)
{
    SimConfig c;
    t.fill(c);
    std::map<std::string, nlohmann::json> flat;
    flatten(t.echo(c), "", flat);
    return flat;
}

std::string exact(double v)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// A valid value of `p` other than its default (any valid value for a derived key), as --set text
// and as the echo must show it. Worked out from the declared limits, not from the table's code.
std::pair<std::string, nlohmann::json> another_value(const Parameter& p)
{
    const auto is_default = [&](const ParamValue& v) { return p.default_value && *p.default_value == v; };
    switch (p.type) {
    case ParamType::Bool: {
        const bool v = !is_default(ParamValue{true});
        return {v ? "true" : "false", v};
    }
    case ParamType::Choice:
        for (const auto& text : p.choice_texts())
            if (!is_default(ParamValue{text})) return {text, text};
        break;
    case ParamType::AlPa: return {"0xE8", "0xE8"};
    case ParamType::Integer:
    case ParamType::Bytes:
        for (std::int64_t v : {p.int_min, p.int_min + p.multiple_of, p.int_max})
            if (v >= p.int_min && v <= p.int_max && v % p.multiple_of == 0 && !is_default(ParamValue{v})) return {std::to_string(v), v};
        break;
    case ParamType::Real: {
        std::vector<double> candidates;
        if (std::isfinite(p.real_min) && !p.real_min_exclusive) candidates.push_back(p.real_min);
        if (std::isfinite(p.real_max)) candidates.push_back(p.real_max);
        if (p.default_value) candidates.push_back(2 * std::get<double>(*p.default_value) + 1);
        for (double v : candidates)
            if (!is_default(ParamValue{v})) return {exact(v), v};
        break;
    }
    }
    FAIL("no other value for " << p.key);
    return {};
}

bool derived(const ParameterTable& t, const std::string& key)
{
    const Parameter* p = t.find(key);
    return p != nullptr && !p->default_value;
}

}  // namespace

TEST_CASE("parameter_table: every key fills a field of its own and is echoed from it")
{
    const auto defaults = fcal_parameters();
    const auto before = echo_of(defaults);
    for (const auto& p : defaults.parameters()) {
        if (p.per_event) continue;  // given only with an event's number (scheduled_events_test.cpp)
        const auto [text, shown] = another_value(p);
        INFO(p.key << "=" << text);
        auto t = fcal_parameters();
        t.set(p.key, text);
        const auto after = echo_of(t);
        REQUIRE(after.count(p.key) == 1);
        CHECK(after.at(p.key) == shown);
        // Nothing else moves but what is derived from it (disk.count moves loop.nodes, ...).
        for (const auto& [key, value] : after)
            if (key != p.key && !derived(defaults, key)) {
                INFO(key);
                CHECK((before.count(key) == 1 && before.at(key) == value));
            }
        if (!p.per_disk) continue;
        // The same field of one disk: only that disk's echo shows it.
        auto one = fcal_parameters();
        const std::string override_key = "disk.3." + p.key.substr(5);
        one.set(override_key, text);
        auto echoed = echo_of(one);
        CHECK(echoed.at(override_key) == shown);
        echoed.erase(override_key);
        CHECK(echoed == before);
    }
}

TEST_CASE("parameter_table: a field in other units holds the value times its scale")
{
    // SI fields: driver.arrival_us filling the driver's own field in seconds.
    ParameterTable t;
    Parameter p;
    p.key = "driver.arrival_us";
    p.type = ParamType::Real;
    p.unit = "us";
    p.real_min = 0.0;
    p.default_value = 2.5;
    p.description = "test";
    p.field = at(&SimConfig::driver, &fcal::host::DeviceDriverParams::arrival_processing_s);
    p.field_scale = 1e-6;
    t.add(p);
    SimConfig c;
    t.fill(c);
    CHECK(c.driver.arrival_processing_s == 2.5 * 1e-6);
    t.set("driver.arrival_us", "40");
    t.fill(c);
    CHECK(c.driver.arrival_processing_s == 40 * 1e-6);
    CHECK(t.echo(c)["driver"]["arrival_us"].get<double>() == 40.0);
    // 15.5 us as seconds and back is not 15.5 in binary floating point; the echo still says 15.5,
    // the value given, as long as the field holds what that value gives.
    REQUIRE(15.5 * 1e-6 / 1e-6 != 15.5);
    t.set("driver.arrival_us", "15.5");
    t.fill(c);
    CHECK(c.driver.arrival_processing_s == 15.5 * 1e-6);
    CHECK(t.echo(c)["driver"]["arrival_us"].get<double>() == 15.5);
    // A field changed since (a test's or a tool's own config) is shown from the field.
    c.driver.arrival_processing_s = 1e-6;
    CHECK(t.echo(c)["driver"]["arrival_us"].get<double>() == 1.0);
}

TEST_CASE("parameter_table: the unit says the field's SI scale")
{
    CHECK(si_scale("us").factor == 1e-6);
    CHECK(si_scale("ms").factor == 1e-3);
    CHECK(si_scale("ns").factor == 1e-9);
    CHECK(si_scale("MB/s").factor == 1e6);
    CHECK(si_scale("KiB").factor == 1024);
    CHECK(si_scale("rpm").reciprocal);
    CHECK(si_scale("rpm").factor == 60);
    CHECK(si_scale("frames").factor == 1);
    const auto t = fcal_parameters();
    // Every time-valued key fills seconds; disk.rpm a revolution time; disk.buffer_kib bytes.
    SimConfig c = default_config();
    CHECK(c.disk.access_time_s == 2.0 * 1e-3);
    CHECK(c.disk.zoned.geometry.revolution_s == 60.0 / 7200);
    CHECK(c.disk.buffer_bytes == 1024u * 1024);
    CHECK(c.initiator.dma.sched_overhead_s == 15.5 * 1e-6);
    CHECK(c.loop.al_time_s == 15000 * 1e-6);
    CHECK(c.loop.baud == 2.125e9);
    // Each is echoed in its key's unit, exactly as declared.
    const auto echo = t.echo(c);
    CHECK(echo["disk"]["access_ms"].get<double>() == 2.0);
    CHECK(echo["disk"]["rpm"].get<double>() == 7200.0);
    CHECK(echo["disk"]["buffer_kib"].get<std::int64_t>() == 1024);
    CHECK(echo["initiator"]["dma_sched_us"].get<double>() == 15.5);
    CHECK(echo["loop"]["baud_gbps"].get<double>() == 2.125);
}

TEST_CASE("parameter_table: --list-params --json is typed, and its defaults load back")
{
    const auto t = fcal_parameters();
    std::ostringstream text;
    t.list_json(text);
    const auto all = nlohmann::json::parse(text.str());
    std::map<std::string, nlohmann::json> by_key;
    for (const auto& p : all) by_key[p["key"].get<std::string>()] = p;

    CHECK(by_key["loop.speed"]["default"] == "2GFC");
    CHECK(by_key["loop.speed"]["choices"] == nlohmann::json({"1GFC", "2GFC", "4GFC", "8GFC"}));
    CHECK(by_key["initiator.al_pa"]["default"] == "0x01");
    CHECK(by_key["initiator.cmd_exec_us"]["default"] == 43.9);
    CHECK(by_key["initiator.cmd_exec_us"]["unit"] == "us");
    CHECK(by_key["initiator.cmd_exec_us"]["min"] == 0.0);
    CHECK(by_key["initiator.cmd_exec_us"]["min_exclusive"] == false);
    CHECK_FALSE(by_key["initiator.cmd_exec_us"].contains("max"));
    CHECK(by_key["initiator.max_payload"]["multiple_of"] == 4);
    CHECK(by_key["workload.io_size"]["default"] == 65536);
    CHECK(by_key["workload.io_size"]["default_text"] == "64K");
    CHECK(by_key["workload.io_size"]["min"] == 1);
    CHECK(by_key["workload.io_size"]["max"] == 1073741824);
    CHECK(by_key["loop.al_time_us"]["min_exclusive"] == true);
    CHECK(by_key["loop.al_time_us"]["max"] == 1e7);
    CHECK(by_key["loop.nodes"]["default"].is_null());
    CHECK(by_key["loop.nodes"]["default_text"] == "disk.count+1");
    CHECK(by_key["disk.access_ms"]["per_disk"] == true);
    CHECK(by_key["disk.model"]["per_disk"] == false);
    CHECK(by_key["schedule"]["type"] == "choice");

    // Each typed default is a value the loader takes, and it is the default.
    for (const auto& p : all) {
        if (p["default"].is_null()) continue;
        const std::string key = p["key"].get<std::string>();
        INFO(key);
        auto loaded = fcal_parameters();
        loaded.load_json({{key, p["default"]}});
        CHECK(loaded.is_set(key));
        CHECK(echo_of(loaded) == echo_of(t));
    }
}

TEST_CASE("parameter_table: byte sizes take K, M, G and KiB, MiB, GiB")
{
    auto t = fcal_parameters();
    // Each suffix against its power of 1024, written out.
    const std::vector<std::pair<std::string, std::uint64_t>> unit = {
        {"K", 1024}, {"k", 1024}, {"KiB", 1024}, {"kiB", 1024},
        {"M", 1048576}, {"m", 1048576}, {"MiB", 1048576}, {"miB", 1048576},
        {"G", 1073741824}, {"g", 1073741824}, {"GiB", 1073741824}, {"giB", 1073741824}};
    for (const auto& [suffix, bytes] : unit) {
        INFO(suffix);
        t.set("workload.span_bytes", "3" + suffix);
        CHECK(t.get_bytes("workload.span_bytes") == 3 * bytes);
        t.load_json(nlohmann::json{{"workload.span_bytes", "5" + suffix}});
        CHECK(t.get_bytes("workload.span_bytes") == 5 * bytes);
    }
    // Refused, with the spelling that is taken where the unit is plainly meant.
    const std::vector<std::pair<std::string, std::string>> refused = {
        {"32kb", "32KiB"}, {"32KB", "32KiB"}, {"32kB", "32KiB"}, {"32KIB", "32KiB"}, {"32kib", "32KiB"},
        {"4MB", "4MiB"}, {"1gb", "1GiB"}, {"1.5K", ""}, {"32Ki", ""}, {"32 K", ""}, {"K", ""}, {"KiB", ""},
        {"-1K", ""}, {"+1K", ""}, {"32KiBs", ""}, {"32B", ""}, {"32T", ""}, {"0x10K", ""}};
    for (const auto& [text, hint] : refused) {
        INFO(text);
        const std::string e = error_of([&] { t.set("workload.io_size", text); });
        CHECK(contains(e, "workload.io_size: expected a byte size"));
        CHECK(contains(e, "got \"" + text + "\""));
        if (hint.empty())
            CHECK_FALSE(contains(e, "did you mean"));
        else
            CHECK(contains(e, "(did you mean " + hint + "?)"));
    }
    CHECK(error_of([&] { t.set("workload.io_size", "2GiB"); }) == "workload.io_size: 2G is out of range 1..1G");
    CHECK(contains(error_of([&] { t.set("workload.io_size", "9999999999999999GiB"); }), "out of range"));
}

TEST_CASE("parameter_table: choices are taken in any case when one choice matches")
{
    auto t = fcal_parameters();
    const auto flip = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
        return s;
    };
    const auto lowered = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    unsigned checked = 0;
    for (const Parameter& p : t.parameters()) {
        if (p.type != ParamType::Choice || p.per_event) continue;
        for (const Choice& c : p.choices) {
            // Unambiguous when no other choice of the key is the same ignoring case.
            const auto same = std::count_if(p.choices.begin(), p.choices.end(), [&](const Choice& o) { return lowered(o.text) == lowered(c.text); });
            REQUIRE(same == 1);
            for (const std::string& spelling : {flip(c.text), lowered(c.text), lowered(flip(c.text))}) {
                INFO(p.key << "=" << spelling);
                auto copy = fcal_parameters();
                copy.set(p.key, spelling);
                CHECK(copy.get_string(p.key) == c.text);  // stored, and so echoed, as the table spells it
                copy.load_json(nlohmann::json{{p.key, spelling}});
                CHECK(copy.get_string(p.key) == c.text);
                ++checked;
            }
        }
    }
    CHECK(checked > 60);
    CHECK(fcal::sim::to_json(build_config([] {
              auto u = fcal_parameters();
              u.set("loop.speed", "4gfc");
              return u;
          }()))["loop"]["speed"] == "4GFC");

    // A near miss is named when one choice is nearest; "3GFC" is as near 2GFC as 4GFC, so no guess.
    CHECK(error_of([&] { t.set("initiator.dma_policy", "round-robin"); }) ==
          "initiator.dma_policy: expected one of fcfs|round_robin, got \"round-robin\" (did you mean round_robin?)");
    CHECK(error_of([&] { t.set("loop.speed", "3gfc"); }) == "loop.speed: expected one of 1GFC|2GFC|4GFC|8GFC, got \"3gfc\"");

    // Choices that differ only in case are taken exactly, and any other spelling of them is refused.
    ParameterTable odd;
    Parameter p;
    p.key = "x.mode";
    p.type = ParamType::Choice;
    p.choices = {{"a", 0}, {"A", 1}, {"b", 2}};
    p.default_value = std::string("a");
    p.field = at(&SimConfig::transport);
    odd.add(p);
    odd.set("x.mode", "A");
    CHECK(odd.get_string("x.mode") == "A");
    odd.set("x.mode", "B");
    CHECK(odd.get_string("x.mode") == "b");
    odd.set("x.mode", "a");
    CHECK(odd.get_string("x.mode") == "a");
}

TEST_CASE("parameter_table: files apply in order, key by key, and a stats JSON gives its config block")
{
    auto t = fcal_parameters();
    TempFile drive(R"({"disk": {"count": 6, "access_ms": 3.5, "2": {"access_ms": 9}}, "loop.speed": "1GFC"})");
    TempFile scenario(R"({"disk.count": 4, "workload": {"queue_depth": 2}, "disk.2.access_ms": 7})");
    t.load_json_file(drive.path());
    t.load_json_file(scenario.path());
    CHECK(t.get_int("disk.count") == 4);             // the later file's
    CHECK(t.get_real("disk.access_ms") == 3.5);      // the earlier file's, not given again
    CHECK(t.get_string("loop.speed") == "1GFC");
    CHECK(t.get_int("workload.queue_depth") == 2);
    SimConfig c = build_config(t);
    CHECK(c.disks.at(2).access_time_s == 7.0 * 1e-3);
    CHECK(c.disks.at(1).access_time_s == 3.5 * 1e-3);

    // A stats JSON: its config block, whatever the results say.
    nlohmann::json config = to_json(c);
    TempFile stats(nlohmann::json{{"config", config}, {"results", {{"iops", 1.0}, {"disk", {{"count", 99}}}}}}.dump());
    auto u = fcal_parameters();
    u.load_json_file(stats.path());
    CHECK(to_json(build_config(u)) == config);
    CHECK(u.get_int("disk.count") == 4);
    // Its errors name the file and the block.
    config["loop"]["speed"] = "3GFC";
    TempFile bad(nlohmann::json{{"config", config}, {"results", nlohmann::json::object()}}.dump());
    CHECK(contains(error_of([&] { u.load_json_file(bad.path()); }), bad.path() + ": config: loop.speed: expected one of"));
    // Without results it is no stats JSON: "config" names no parameter.
    TempFile half(R"({"config": {"disk.count": 3}})");
    CHECK(contains(error_of([&] { u.load_json_file(half.path()); }), "config.disk.count: unknown parameter"));
}
