// Scheduled events (docs/faults.md, "Scheduled events"): the keys event.<n>.* as the parameter table
// takes, echoes and refuses them, and ScheduledEvents' checks and order. No system is built.
#include <catch2/catch.hpp>

#include <string>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/scheduled_events.hpp"
#include "fcal/sim/sim_config.hpp"

using namespace fcal::sim;

namespace {

std::string error_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("scheduled events: keys by number fill the events and echo back as given")
{
    auto t = fcal_parameters();
    t.set("event.7.at_ms", "12.5");
    t.set("event.7.kind", "fail");
    t.set("event.7.disk", "3");
    t.load_json(nlohmann::json::parse(R"({"event": {"2": {"at_ms": 4, "kind": "FAIL", "disk": 0}}})"));
    const SimConfig c = build_config(t);
    REQUIRE(c.events.size() == 2);
    CHECK(*c.events.at(7).at_s == Approx(12.5e-3));
    CHECK(*c.events.at(7).kind == EventKind::Fail);
    CHECK(*c.events.at(2).disk == 0);
    const nlohmann::json echo = to_json(c);
    CHECK(echo["event"]["7"]["at_ms"] == 12.5);
    CHECK(echo["event"]["2"]["kind"] == "fail");
    CHECK(echo["event"]["7"]["disk"] == 3);
    // The echo loads back to the same events.
    auto again = fcal_parameters();
    again.load_json(echo);
    CHECK(to_json(build_config(again)) == echo);
    // No events: none echoed.
    CHECK_FALSE(to_json(default_config()).contains("event"));
}

TEST_CASE("scheduled events: a key is given only with its number")
{
    auto t = fcal_parameters();
    CHECK(contains(error_of([&] { t.set("event.<n>.at_ms", "1"); }), "unknown parameter"));
    CHECK(contains(error_of([&] { t.set("event.at_ms", "1"); }), "unknown parameter"));
    CHECK(contains(error_of([&] { t.set("event.1000.at_ms", "1"); }), "event.1000.at_ms: event number 1000 is out of range 0..999"));
    CHECK(contains(error_of([&] { t.set("event.01.at_ms", "1"); }), "event.01.at_ms: an event number has no leading zeros (event.1.at_ms)"));
    CHECK(contains(error_of([&] { t.set("event.1.time", "1"); }), "event.1.time: unknown parameter (an event.<n>.<name> key takes one of: at_ms, kind, disk, loop)"));
    CHECK(contains(error_of([&] { t.set("event.1.disk", "-1"); }), "event.1.disk: -1 is out of range"));
}

TEST_CASE("scheduled events: each mistake names its key; valid ones come in time order")
{
    const auto at = [](double s, EventKind k, std::int64_t d) { return EventKeys{s, k, d, std::nullopt}; };
    const auto error = [](std::map<unsigned, EventKeys> keys) { return error_of([&] { ScheduledEvents(keys, 4, 10.0); }); };
    CHECK(error({{3, EventKeys{std::nullopt, EventKind::Fail, 1, std::nullopt}}}) == "event.3.at_ms: missing (every event needs its time)");
    CHECK(error({{3, EventKeys{1.0, std::nullopt, 1, std::nullopt}}}) == "event.3.kind: missing (every event needs its kind)");
    CHECK(error({{3, EventKeys{1.0, EventKind::Fail, std::nullopt, std::nullopt}}}) == "event.3.disk: missing (a fail event names its disk)");
    CHECK(contains(error({{0, at(10.0, EventKind::Fail, 1)}}), "event.0.at_ms: 10000 ms is not before the end of the run"));
    CHECK(contains(error({{0, at(1.0, EventKind::Fail, 4)}}), "event.0.disk: disk 4 does not exist (disk.count = 4, disks 0..3)"));
    CHECK(contains(error({{0, at(1.0, EventKind::Fail, 1)}, {5, at(2.0, EventKind::Fail, 1)}}), "event.5.disk: disk 1 fails twice"));
    for (EventKind k : {EventKind::Remove, EventKind::Insert, EventKind::Bypass, EventKind::Enable})
        CHECK(error({{0, at(1.0, k, 1)}}) ==
              "event.0.kind: " + to_string(k) + " is not modelled yet (docs/faults.md, \"Scheduled events\"); only fail, lip, loop_fail and loop_restore are");
    // lip: a disk that exists, or none (the controller's port); a disk may send LIP more than once.
    CHECK(contains(error({{0, at(1.0, EventKind::Lip, 4)}}), "event.0.disk: disk 4 does not exist"));
    CHECK(contains(error({{0, EventKeys{10.0, EventKind::Lip, std::nullopt, std::nullopt}}}), "event.0.at_ms: 10000 ms is not before the end of the run"));
    const ScheduledEvents lips({{0, EventKeys{1.0, EventKind::Lip, std::nullopt, std::nullopt}}, {1, at(2.0, EventKind::Lip, 1)}, {2, at(3.0, EventKind::Lip, 1)}},
                               4, 10.0);
    REQUIRE(lips.events().size() == 3);
    CHECK_FALSE(lips.events()[0].disk);
    CHECK(lips.events()[2].disk == 1u);
    CHECK(lips.events()[2].loop == 0u);
    // With two loops a LIP may name its loop (loop 0 if it does not), one that exists.
    const ScheduledEvents on_loop_1({{0, EventKeys{1.0, EventKind::Lip, 2, 1}}}, 4, 10.0, 2);
    CHECK(on_loop_1.events()[0].loop == 1u);
    CHECK(contains(error({{0, EventKeys{1.0, EventKind::Lip, std::nullopt, 1}}}), "event.0.loop: loop 1 does not exist (loop.count = 1"));

    const ScheduledEvents events({{0, at(3.0, EventKind::Fail, 0)}, {1, at(1.0, EventKind::Fail, 1)}, {2, at(1.0, EventKind::Fail, 2)}}, 4,
                                 10.0);
    REQUIRE(events.events().size() == 3);
    CHECK(events.events()[0].index == 1);
    CHECK(events.events()[1].index == 2);  // same time: by number
    CHECK(events.events()[2].index == 0);
    CHECK(events.events()[2].disk == 0);
}

TEST_CASE("scheduled events: loop_fail and loop_restore name an existing loop and always leave one up")
{
    const auto loop = [](double s, EventKind k, std::int64_t l) { return EventKeys{s, k, std::nullopt, l}; };
    const auto error = [](std::map<unsigned, EventKeys> keys, unsigned loops) {
        return error_of([&] { ScheduledEvents(keys, 4, 10.0, loops); });
    };
    CHECK(error({{2, EventKeys{1.0, EventKind::LoopFail, std::nullopt, std::nullopt}}}, 2) ==
          "event.2.loop: missing (a loop_fail event names its loop)");
    CHECK(contains(error({{2, loop(1.0, EventKind::LoopFail, 2)}}, 2), "event.2.loop: loop 2 does not exist (loop.count = 2, loops 0..1)"));
    CHECK(contains(error({{2, loop(1.0, EventKind::LoopFail, 1)}}, 1), "event.2.loop: loop 1 does not exist (loop.count = 1"));
    CHECK(contains(error({{2, loop(1.0, EventKind::LoopFail, 0)}}, 1), "event.2.kind: loop_fail needs loop.count=2"));
    CHECK(contains(error({{0, loop(1.0, EventKind::LoopRestore, 0)}}, 2), "event.0.kind: loop_restore of loop 0, which is up"));
    CHECK(contains(error({{0, loop(1.0, EventKind::LoopFail, 0)}, {1, loop(2.0, EventKind::LoopFail, 0)}}, 2),
                   "event.1.kind: loop_fail of loop 0, which is already down"));
    CHECK(contains(error({{0, loop(1.0, EventKind::LoopFail, 0)}, {1, loop(2.0, EventKind::LoopFail, 1)}}, 2),
                   "event.1.kind: loop_fail of loop 1 while loop 0 is down"));
    // In time order, not by number: restored before the second failure.
    const ScheduledEvents ok({{0, loop(3.0, EventKind::LoopFail, 1)}, {1, loop(1.0, EventKind::LoopFail, 0)}, {2, loop(2.0, EventKind::LoopRestore, 0)}},
                             4, 10.0, 2);
    REQUIRE(ok.events().size() == 3);
    CHECK(ok.events()[0].index == 1);
    CHECK(ok.events()[2].loop == 1);
}
