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

EventKeys keys(std::optional<double> at_s, std::optional<EventKind> kind, std::optional<std::int64_t> disk,
               std::optional<std::int64_t> loop = std::nullopt, std::optional<FailureKind> failure = std::nullopt)
{
    EventKeys k;
    k.at_s = at_s;
    k.kind = kind;
    k.disk = disk;
    k.loop = loop;
    k.failure = failure;
    return k;
}

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
    CHECK(contains(error_of([&] { t.set("event.1.time", "1"); }), "event.1.time: unknown parameter (an event.<n>.<name> key takes one of: at_ms, kind, disk, loop, failure)"));
    CHECK(contains(error_of([&] { t.set("event.1.disk", "-1"); }), "event.1.disk: -1 is out of range"));
}

TEST_CASE("scheduled events: each mistake names its key; valid ones come in time order")
{
    const auto at = [](double s, EventKind k, std::int64_t d) { return keys(s, k, d); };
    const auto error = [](std::map<unsigned, EventKeys> keys) { return error_of([&] { ScheduledEvents(keys, 4, 10.0); }); };
    CHECK(error({{3, keys(std::nullopt, EventKind::Fail, 1, std::nullopt)}}) == "event.3.at_ms: missing (every event needs its time)");
    CHECK(error({{3, keys(1.0, std::nullopt, 1, std::nullopt)}}) == "event.3.kind: missing (every event needs its kind)");
    CHECK(error({{3, keys(1.0, EventKind::Fail, std::nullopt, std::nullopt)}}) == "event.3.disk: missing (a fail event names its disk)");
    CHECK(contains(error({{0, at(10.0, EventKind::Fail, 1)}}), "event.0.at_ms: 10000 ms is not before the end of the run"));
    CHECK(contains(error({{0, at(1.0, EventKind::Fail, 4)}}), "event.0.disk: disk 4 does not exist (disk.count = 4, disks 0..3)"));
    CHECK(error({{0, at(1.0, EventKind::Fail, 1)}, {5, at(2.0, EventKind::Fail, 1)}}) ==
          "event.5.disk: fail of disk 1, which is failed at that time (only a present disk can fail; a failed disk stays failed)");
    // lip: a disk that exists, or none (the controller's port); a disk may send LIP more than once.
    CHECK(contains(error({{0, at(1.0, EventKind::Lip, 4)}}), "event.0.disk: disk 4 does not exist"));
    CHECK(contains(error({{0, keys(10.0, EventKind::Lip, std::nullopt, std::nullopt)}}), "event.0.at_ms: 10000 ms is not before the end of the run"));
    const ScheduledEvents lips({{0, keys(1.0, EventKind::Lip, std::nullopt, std::nullopt)}, {1, at(2.0, EventKind::Lip, 1)}, {2, at(3.0, EventKind::Lip, 1)}},
                               4, 10.0);
    REQUIRE(lips.events().size() == 3);
    CHECK_FALSE(lips.events()[0].disk);
    CHECK(lips.events()[2].disk == 1u);
    CHECK(lips.events()[2].loop == 0u);
    // With two loops a LIP may name its loop (loop 0 if it does not), one that exists.
    const ScheduledEvents on_loop_1({{0, keys(1.0, EventKind::Lip, 2, 1)}}, 4, 10.0, 2);
    CHECK(on_loop_1.events()[0].loop == 1u);
    CHECK(contains(error({{0, keys(1.0, EventKind::Lip, std::nullopt, 1)}}), "event.0.loop: loop 1 does not exist (loop.count = 1"));

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
    const auto loop = [](double s, EventKind k, std::int64_t l) { return keys(s, k, std::nullopt, l); };
    const auto error = [](std::map<unsigned, EventKeys> keys, unsigned loops) {
        return error_of([&] { ScheduledEvents(keys, 4, 10.0, loops); });
    };
    CHECK(error({{2, keys(1.0, EventKind::LoopFail, std::nullopt, std::nullopt)}}, 2) ==
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

TEST_CASE("scheduled events: failure is drive or port, drive if not given, and only on a fail event")
{
    auto t = fcal_parameters();
    t.set("event.1.at_ms", "2");
    t.set("event.1.kind", "fail");
    t.set("event.1.disk", "0");
    CHECK(error_of([&] { t.set("event.1.failure", "port"); }).empty());
    t.set("event.1.failure", "drive");
    t.set("event.2.at_ms", "3");
    t.set("event.2.kind", "fail");
    t.set("event.2.disk", "1");
    const SimConfig c = build_config(t);
    CHECK(*c.events.at(1).failure == FailureKind::Drive);
    CHECK_FALSE(c.events.at(2).failure);
    CHECK(to_json(c)["event"]["1"]["failure"] == "drive");
    const ScheduledEvents events({{1, keys(2.0, EventKind::Fail, 0, std::nullopt, FailureKind::Port)}, {2, keys(3.0, EventKind::Fail, 1)}}, 4, 10.0);
    CHECK(events.events()[0].failure == FailureKind::Port);
    CHECK(events.events()[1].failure == FailureKind::Drive);
    CHECK(contains(error_of([&] { t.set("event.1.failure", "cable"); }), "event.1.failure"));
    CHECK(error_of([] { ScheduledEvents({{4, keys(1.0, EventKind::Remove, 0, std::nullopt, FailureKind::Port)}}, 4, 10.0); }) ==
          "event.4.failure: only a fail event has a failure kind (this one is remove)");
    // A disk event acts on every loop: it names none.
    CHECK(error_of([] { ScheduledEvents({{4, keys(1.0, EventKind::Bypass, 0, 1)}}, 4, 10.0, 2); }) ==
          "event.4.loop: a bypass event acts on the disk's port on every loop (it names no loop)");
}

TEST_CASE("scheduled events: each disk event finds its disk in the one state it acts on")
{
    const auto at = [](double s, EventKind k, std::int64_t d, std::optional<FailureKind> f = std::nullopt) {
        return keys(s, k, d, std::nullopt, f);
    };
    const auto error = [](std::map<unsigned, EventKeys> k) { return error_of([&] { ScheduledEvents(k, 4, 10.0); }); };
    // The only way in: present -> removed -> present, present -> bypassed -> present, present -> failed.
    CHECK(error({{0, at(1.0, EventKind::Insert, 2)}}) ==
          "event.0.disk: insert of disk 2, which is present at that time (only a removed disk can be inserted)");
    CHECK(error({{0, at(1.0, EventKind::Enable, 2)}}) ==
          "event.0.disk: enable of disk 2, which is present at that time (only a bypassed disk can be enabled)");
    CHECK(error({{0, at(1.0, EventKind::Remove, 2)}, {1, at(2.0, EventKind::Remove, 2)}}) ==
          "event.1.disk: remove of disk 2, which is removed at that time (only a present or failed disk can be removed)");
    CHECK(error({{0, at(1.0, EventKind::Remove, 2)}, {1, at(2.0, EventKind::Fail, 2)}}) ==
          "event.1.disk: fail of disk 2, which is removed at that time (only a present disk can fail; a failed disk stays failed)");
    CHECK(error({{0, at(1.0, EventKind::Remove, 2)}, {1, at(2.0, EventKind::Bypass, 2)}}) ==
          "event.1.disk: bypass of disk 2, which is removed at that time (only a present disk can be bypassed)");
    CHECK(error({{0, at(1.0, EventKind::Remove, 2)}, {1, at(2.0, EventKind::Enable, 2)}}) ==
          "event.1.disk: enable of disk 2, which is removed at that time (only a bypassed disk can be enabled)");
    CHECK(error({{0, at(1.0, EventKind::Bypass, 2)}, {1, at(2.0, EventKind::Insert, 2)}}) ==
          "event.1.disk: insert of disk 2, which is bypassed at that time (only a removed disk can be inserted)");
    CHECK(error({{0, at(1.0, EventKind::Bypass, 2)}, {1, at(2.0, EventKind::Remove, 2)}}) ==
          "event.1.disk: remove of disk 2, which is bypassed at that time (only a present or failed disk can be removed)");
    CHECK(error({{0, at(1.0, EventKind::Fail, 2, FailureKind::Port)}, {1, at(2.0, EventKind::Insert, 2)}}) ==
          "event.1.disk: insert of disk 2, which is failed at that time (only a removed disk can be inserted)");
    CHECK(error({{0, at(1.0, EventKind::Fail, 2)}, {1, at(2.0, EventKind::Remove, 2)}, {2, at(3.0, EventKind::Remove, 2)}}) ==
          "event.2.disk: remove of disk 2, which is removed at that time (only a present or failed disk can be removed)");
    // A failed disk (drive or port) is pulled out and replaced.
    for (FailureKind f : {FailureKind::Drive, FailureKind::Port})
        CHECK(ScheduledEvents({{0, at(1.0, EventKind::Fail, 2, f)}, {1, at(2.0, EventKind::Remove, 2)}, {2, at(3.0, EventKind::Insert, 2)}}, 4, 10.0)
                  .events()
                  .size() == 3);
    // A LIP needs the disk's port on the loop: not removed, bypassed or failed with its port.
    CHECK(error({{0, at(1.0, EventKind::Remove, 3)}, {1, at(2.0, EventKind::Lip, 3)}}) ==
          "event.1.disk: lip from disk 3, whose port is off the loop at that time (disk 3 is removed)");
    CHECK(error({{0, at(1.0, EventKind::Fail, 3, FailureKind::Port)}, {1, at(2.0, EventKind::Lip, 3)}}) ==
          "event.1.disk: lip from disk 3, whose port is off the loop at that time (disk 3 is failed)");
    CHECK(error({{0, at(1.0, EventKind::Bypass, 3)}, {1, at(2.0, EventKind::Lip, 3)}}) ==
          "event.1.disk: lip from disk 3, whose port is off the loop at that time (disk 3 is bypassed)");
    // An insert needs its slot empty: strictly after the enclosure closed its bypass, bypass_detect_s
    // (here 0.5 s) after the remove.
    const std::map<unsigned, EventKeys> soon{{0, at(1.0, EventKind::Remove, 2)}, {1, at(1.5, EventKind::Insert, 2)}};
    CHECK(error_of([&] { ScheduledEvents(soon, 4, 10.0, 1, 0.5); }) ==
          "event.1.at_ms: insert of disk 2 at 1500 ms, before its slot is empty: it was removed at 1000 ms and the enclosure closes "
          "the bypass of the empty slot loop.bypass_detect_us = 500000 us later");
    CHECK(ScheduledEvents({{0, at(1.0, EventKind::Remove, 2)}, {1, at(1.5001, EventKind::Insert, 2)}}, 4, 10.0, 1, 0.5).events().size() == 2);
    // Every disk event names its disk.
    for (EventKind k : {EventKind::Remove, EventKind::Insert, EventKind::Bypass, EventKind::Enable})
        CHECK(error({{6, keys(1.0, k, std::nullopt)}}) == "event.6.disk: missing (a " + to_string(k) + " event names its disk)");

    // By time, not by number: the insert (n = 0) comes after the remove (n = 1).
    const ScheduledEvents swap({{0, at(3.0, EventKind::Insert, 1)}, {1, at(1.0, EventKind::Remove, 1)}, {2, at(4.0, EventKind::Lip, 1)},
                                {3, at(1.5, EventKind::Bypass, 0)}, {4, at(2.0, EventKind::Enable, 0)}, {5, at(2.5, EventKind::Fail, 0)},
                                {6, at(3.5, EventKind::Lip, 0)}},
                               4, 10.0);
    REQUIRE(swap.events().size() == 7);
    CHECK(swap.events()[0].index == 1);
    CHECK(swap.events()[3].kind == EventKind::Fail);
    CHECK(swap.events()[4].index == 0);  // a lip from disk 0, whose drive failed but whose port stays: allowed (n = 6)
    CHECK(to_string(DiskState::Present) == "present");
    CHECK(to_string(DiskState::Bypassed) == "bypassed");
    CHECK(to_string(DiskState::Removed) == "removed");
    CHECK(to_string(DiskState::Failed) == "failed");
}
