"""fcal-sim with two loops (docs/host.md, "Dual loops and multipath"; docs/faults.md, "Loop failure"): bad
loop keys and loop events exit 2 naming the key before anything runs; the results always carry `loops`,
`failovers` and `failover_time_us`; failover keeps everything on loop 0 (the single loop's figures); a loop
failure and its restore under each policy end with every I/O completed and the account balanced; the same
seed gives the same results."""
from __future__ import annotations

import re

import pytest

from fcal_tools.lip_sweep import HOP_S, PROC_S, WORD_S
from conftest import expect_refused, failed_disks, fast_and_traced, load_results, sets

SMALL = [*sets("disk.count=4", "workload.measured_ios=400"), "--quiet"]
DUAL = sets("loop.count=2")


def after_mend_s(ports: int) -> float:
    """The initialization after the cable out of the controller's port is mended (docs/loop_init.md, "Initialization
    time", its paragraph After a break): the port after the cut originated LIP(F8)s that already fill the loop, so they are back
    one hop after the mend; the master is the controller, k = N - 1 ports downstream of the originator, so the LISM
    phase has k more receptions (12 w + p each) and k more hops than with the originator as master."""
    r, k = ports * HOP_S, ports - 1
    return HOP_S + 4 * WORD_S + 9 * r + ports * (152 * WORD_S + 7 * PROC_S) + k * (12 * WORD_S + PROC_S) + k * HOP_S
FAIL0 = sets("event.0.at_ms=20", "event.0.kind=loop_fail", "event.0.loop=0")


@pytest.mark.parametrize("needle, what, args", [
    ("loop.count", "three loops", sets("loop.count=3")),
    ("loop.count", "no loop", sets("loop.count=0")),
    ("driver.multipath", "an unknown policy", sets("driver.multipath=random")),
    ("event.0.loop: loop 1 does not exist (loop.count = 1", "a loop that does not exist", sets(
        "event.0.at_ms=5", "event.0.kind=loop_restore", "event.0.loop=1")),
    ("event.0.loop", "a loop number beyond two", DUAL + sets("event.0.at_ms=5", "event.0.kind=loop_fail", "event.0.loop=2")),
    ("event.0.loop: missing", "a loop_fail without its loop", DUAL + sets("event.0.at_ms=5", "event.0.kind=loop_fail")),
    ("event.0.kind: loop_fail needs loop.count=2", "a loop_fail with one loop", FAIL0),
    ("event.1.kind: loop_fail of loop 1 while loop 0 is down", "both loops down", DUAL + FAIL0 + sets(
        "event.1.at_ms=30", "event.1.kind=loop_fail", "event.1.loop=1")),
    ("event.0.kind: loop_restore of loop 1, which is up", "a restore of a loop that is up", DUAL + sets(
        "event.0.at_ms=5", "event.0.kind=loop_restore", "event.0.loop=1")),
    ("loop.count", "two loops over the ideal transport", DUAL + sets("transport=ideal")),
    ("loop.count", "two loops with the RTL queue", DUAL + sets("cmdf.impl=rtl")),
    ("initiator.link_down_ms", "a negative detection time", sets("initiator.link_down_ms=-1")),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_loop_keys_are_refused(fcal_sim, needle, what, args):
    expect_refused(fcal_sim(*SMALL, *args), needle, what)


def run(fcal_sim, tmp_path, name, *args):
    r = fcal_sim(*SMALL, *args, "--stats-json", tmp_path / name)
    assert r.code == 0, f"{name}: exit {r.code}: {r.err}"
    return load_results(tmp_path / name)["results"]


def test_one_loop_reports_one_loop_and_failover_keeps_to_loop_0(fcal_sim, tmp_path):
    one = run(fcal_sim, tmp_path, "one.json")
    assert [l["loop"] for l in one["loops"]] == [0] and one["loops"][0]["state"] == "up"
    assert one["failovers"] == 0 and one["failover_time_us"] == {"mean": 0.0, "max": 0.0}
    assert one["loops"][0]["mb_per_s"] == pytest.approx(one["mb_per_s"])
    two = run(fcal_sim, tmp_path, "two.json", *DUAL)
    assert two["loops"][1]["mb_per_s"] == 0 and two["loops"][1]["iops"] == 0, "failover used loop 1 while loop 0 works"
    for k in ("iops", "mb_per_s", "mean_response_us"):
        assert two[k] == one[k], f"{k}: failover on two loops differs from one loop"


@pytest.mark.parametrize("policy", ["failover", "round_robin", "least_queue"])
def test_loop_failure_and_restore_lose_nothing(fcal_sim, tmp_path, policy):
    args = [*DUAL, *sets(f"driver.multipath={policy}", "initiator.link_down_ms=5", "sim.loop_timeline_ms=5"), *FAIL0,
            *sets("event.1.at_ms=60", "event.1.kind=loop_restore", "event.1.loop=0")]
    a = run(fcal_sim, tmp_path, "a.json", *args)
    b = run(fcal_sim, tmp_path, "b.json", *args)
    assert a == b, f"{policy}: the same seed gave different results"
    assert a["issued_ios"] == a["completed_ios"] and a["failed_ios"] == 0 and a["outstanding_ios"] == 0, \
        f"{policy}: issued {a['issued_ios']}, completed {a['completed_ios']}, failed {a['failed_ios']}"
    assert a["failovers"] >= 1, f"{policy}: no I/O was on loop 0 when it failed"
    # Each failed-over I/O waited at least the detection time (5 ms) after the failure.
    assert a["failover_time_us"]["mean"] >= 5000 and a["failover_time_us"]["max"] >= a["failover_time_us"]["mean"]
    assert [l["state"] for l in a["loops"]] == ["up", "up"]
    # Loop 0 was down from the cut (20 ms) until it had initialized after the mend (60 ms), loop 0 alone
    # (docs/faults.md, "Loop failure"): one initialization, counted from the cut.
    (init,) = a["loop_init"]
    assert init["cause"] == "event.0: loop_fail" and init["loop"] == 0 and init["complete"]
    assert init["start_us"] == pytest.approx(20000) and a["loop_down_us"] == pytest.approx(init["duration_us"])
    assert (init["duration_us"] - 40000) * 1e-6 == pytest.approx(after_mend_s(4 + 1), abs=0.1 * WORD_S)  # 4 disks and the controller
    # Loop 0 carried nothing from the failure (20 ms) until the restore (60 ms): bins 5 to 11 of 5 ms (from 25 ms: the failure at 20 ms may share bin 4).
    rates = a["loop_timeline"]["mb_per_s"]
    assert a["loop_timeline"]["bin_ms"] == 5
    assert all(r == 0 for r in rates[0][5:12]), f"{policy}: loop 0 carried data while down: {rates[0][5:12]}"
    assert any(r > 0 for r in rates[1][5:12]), f"{policy}: loop 1 carried nothing while loop 0 was down"


def test_a_second_loop_gives_1_8_to_2_times_a_loop_bound_workload(fcal_sim, tmp_path):
    # 16 disks, 256 KiB reads, queue depth 4: the disks could deliver 16 x 262144 B / (2 ms + 262144 B / 50 MB/s)
    # = 579 MB/s, one 2GFC loop at most 2048 B per 527 words of 18.824 ns = 206.4 MB/s (docs/host.md, "Dual
    # loops and multipath"): loop-bound with one loop and with two.
    load = sets("disk.count=16", "workload.io_size=256K", "workload.queue_depth=4", "workload.measured_ios=1500")
    bound = 2048 / (527 * 40 / 2.125e9) / 1e6
    one = fcal_sim(*load, "--quiet", "--stats-json", tmp_path / "one.json")
    two = fcal_sim(*load, *DUAL, *sets("driver.multipath=round_robin"), "--quiet", "--stats-json", tmp_path / "two.json")
    assert one.code == 0 and two.code == 0, f"{one.err} {two.err}"
    a, b = load_results(tmp_path / "one.json")["results"], load_results(tmp_path / "two.json")["results"]
    assert 0.98 * bound <= a["mb_per_s"] <= bound, f"one loop: {a['mb_per_s']:.1f} MB/s, bound {bound:.1f}"
    # At most both loops' bound (the ratio to one loop's run may pass 2 by a hair: each run's own window).
    assert 1.8 * a["mb_per_s"] <= b["mb_per_s"] <= 2 * bound, f"two loops / one: {b['mb_per_s']:.1f} / {a['mb_per_s']:.1f}"


def test_a_drive_failure_reaches_both_ports_and_a_raid5_volume_survives_a_loop_failure(fcal_sim, tmp_path):
    # A drive fails behind both of its ports: its I/Os fail with CHECK CONDITION whichever loop they took.
    a = run(fcal_sim, tmp_path, "disk.json", *DUAL, *sets("driver.multipath=round_robin", "event.0.at_ms=10",
                                                         "event.0.kind=fail", "event.0.disk=2", "event.1.at_ms=30",
                                                         "event.1.kind=loop_fail", "event.1.loop=1"))
    assert a["issued_ios"] == a["completed_ios"] + a["failed_ios"] and a["outstanding_ios"] == 0
    assert all("disk 2: CHECK CONDITION" in f for f in a["failures"]), a["failures"]
    assert a["disks"][2]["state"] == "failed" and [l["state"] for l in a["loops"]] == ["up", "down"]
    # A RAID 5 volume's member commands are I/Os like any other: they fail over too.
    r = fcal_sim(*sets("volume.raid=raid5", "disk.count=5", "workload.measured_ios=600", "loop.count=2",
                       "driver.multipath=least_queue", "initiator.link_down_ms=5"), *FAIL0, "--quiet",
                 "--stats-json", tmp_path / "raid.json")
    assert r.code == 0, r.err
    v = load_results(tmp_path / "raid.json")["results"]
    assert v["issued_ios"] == v["completed_ios"] and v["failed_ios"] == 0 and v["failovers"] >= 1, \
        f"issued {v['issued_ios']}, completed {v['completed_ios']}, failed {v['failed_ios']}, failovers {v['failovers']}"


# A port-watcher line (docs/loop.md, "Port watcher and VCD signals") with the loop's name after the time.
TRACE_LINE = re.compile(r"^\d+\.\d{3} (loop[01]) [0-9A-F]{2} [A-Z_]+ \d+ \S+=>\S+$")


def test_a_trace_of_two_loops_names_each_line_s_loop(fcal_sim, tmp_path):
    short = sets("disk.count=2", "workload.measured_ios=20")
    # Failover with no failure keeps loop 1 idle and gives the single loop's run: loop 0's lines, named, are the
    # single loop's trace.
    assert fcal_sim(*short, "--quiet", "--trace", tmp_path / "one.trace").code == 0
    assert fcal_sim(*short, *DUAL, "--quiet", "--trace", tmp_path / "two.trace").code == 0
    one, two = (tmp_path / "one.trace").read_text().splitlines(), (tmp_path / "two.trace").read_text().splitlines()
    assert one and two == [line.replace(" ", " loop0 ", 1) for line in one]
    # Round robin uses both loops, and the lines of both are named.
    r = fcal_sim(*short, *DUAL, *sets("driver.multipath=round_robin"), "--quiet", "--trace", tmp_path / "rr.trace")
    assert r.code == 0, r.err
    matches = [TRACE_LINE.match(line) for line in (tmp_path / "rr.trace").read_text().splitlines()]
    assert matches and all(matches), [m for m in matches if not m][:3]
    for name in ("loop0", "loop1"):
        assert any(m.group(1) == name and "SOF" in m.group(0) for m in matches), f"{name} carried no frame"


def test_an_abort_in_the_instant_a_disk_s_service_ends_is_no_internal_error(fcal_sim, tmp_path):
    """A loop failure and its restore in one instant, with exchange timeouts shorter than a disk's service: a
    read's ABTS reached its disk in the very instant the disk finished reading it (an internal error, map::at,
    before the disk ignored that stale end: docs/disk.md, "The TLM-2.0 protocol"). Every I/O ends, here failed after its
    retries (1 ms timeouts against 0.5 ms + 0.5 ms of disk and response); the run ends normally (exit 0)."""
    args = sets("disk.count=2", "loop.count=2", "driver.multipath=round_robin", "workload.io_size=3000",
                "workload.type=open", "workload.rate_iops=1000", "target.rsp_gen_us=500", "disk.access_ms=0.5",
                "initiator.exchange_timeout_ms=1", "initiator.abts_timeout_ms=1", "workload.measured_ios=100",
                "workload.warmup_ios=0", "loop.bypass_detect_us=100", "event.0.at_ms=1", "event.0.kind=loop_fail",
                "event.0.loop=1", "event.1.at_ms=1", "event.1.kind=loop_restore", "event.1.loop=1")
    r = fcal_sim(*args, "--quiet", "--stats-json", tmp_path / "r.json")
    assert r.code == 0, f"exit {r.code}: {r.err}"
    res = load_results(tmp_path / "r.json")["results"]
    assert res["outstanding_ios"] == 0 and res["issued_ios"] == res["completed_ios"] + res["failed_ios"] == 100


def test_two_hbas_reporting_in_one_instant_are_taken_in_path_order(fcal_sim, tmp_path):
    """Disk 0 pulled out of both loops: after each loop's initialization both HBAs give its I/Os back in one
    instant, and later completions of the two HBAs meet in one instant too. The driver took them in the order
    the SystemC kernel ran the two HBAs, which tracing changes: traced and untraced runs issued different I/Os
    to different paths from then on (docs/faults.md, its known problems until now). It takes what the HBAs
    report in path order (docs/host.md, "Dual loops and multipath"): both runs give the same results."""
    args = ["--quiet", *sets("disk.count=3", "workload.read_fraction=0.5", "workload.io_size=8192",
                             "workload.queue_depth=8", "workload.measured_ios=600", "workload.warmup_ios=0",
                             "loop.count=2", "driver.multipath=round_robin", "disk.model=zoned", "schedule=cmdf",
                             "event.0.at_ms=1.4612", "event.0.kind=remove", "event.0.disk=0")]
    res = fast_and_traced(fcal_sim, tmp_path, *args)
    assert res["outstanding_ios"] == 0
    # Only the pulled disk's I/Os fail (each with its reason), after their retries.
    assert res["failed_ios"] > 0 and failed_disks(res) == {0}
    assert all("given up after" in f for f in res["failures"]), res["failures"]
    assert [d["state"] for d in res["disks"]] == ["removed", "present", "present"]
