"""fcal-sim with the hot plug events (docs/faults.md, "Scheduled events"): remove, insert, bypass, enable and
fail with failure=port under load. Each run ends with the I/O account balanced; the I/Os that fail are the
affected disk's only, each with its reason; the other disks' I/O goes on after the loop's re-initialization;
an inserted or enabled disk gets I/O again (without a volume) or becomes a spare the volume rebuilds onto
(RAID 5 without spares); the same seed gives the same results; with loop.auto_bypass=false a failed port
leaves the loop down and every I/O ends failed after its retries or is reported outstanding.

Why the measured window lies after the events (so that a disk's measured I/Os happened after them): the
window opens once warmup_ios I/Os have ended, and the loop cannot carry them sooner than their data take at
the loop's rate (2GFC: 2.125 GBd / 10 bits a byte = 212.5 MB/s); the events here come well before that."""
from __future__ import annotations

import pytest

from conftest import balanced, expect_refused, failed_disks, fast_and_traced, load_results, sets

IO_BYTES = 64 * 1024
LOOP_BYTES_PER_S = 2.125e9 / 10
WARMUP = 300
# Four disks, 64 KiB I/Os, a short exchange timeout so that FCP recovery ends the lost exchanges quickly.
LOADED = [*sets("disk.count=4", "workload.io_size=64K", "disk.access_ms=0.1", "disk.rate_mbs=400",
                "workload.queue_depth=2", f"workload.warmup_ios={WARMUP}", "workload.measured_ios=600",
                "initiator.exchange_timeout_ms=5", "loop.bypass_detect_us=1000"), "--quiet"]
# The earliest the measured window can open: WARMUP I/Os' data at the loop's rate.
WINDOW_OPENS_AFTER_S = WARMUP * IO_BYTES / LOOP_BYTES_PER_S


def event(n: int, at_ms: float, kind: str, disk: int, *extra: str) -> list[str]:
    return sets(f"event.{n}.at_ms={at_ms}", f"event.{n}.kind={kind}", f"event.{n}.disk={disk}", *extra)


def run(fcal_sim, tmp_path, *args: str, name: str = "r.json", timeout: float = 300) -> dict:
    r = fcal_sim(*LOADED, *args, "--stats-json", tmp_path / name, timeout=timeout)
    assert r.code == 0, f"exit {r.code}: {r.err}"
    return load_results(tmp_path / name)["results"]


def test_events_are_before_the_window():
    # The reasoning of the module's docstring holds for the events below (all before 10 ms).
    assert WINDOW_OPENS_AFTER_S > 0.05


@pytest.mark.parametrize("kind, extra, state", [
    ("remove", (), "removed"),
    ("bypass", (), "bypassed"),
    ("fail", ("event.0.failure=port",), "failed"),
])
def test_a_disk_leaves_under_load(fcal_sim, tmp_path, kind, extra, state):
    # Its two I/Os are open when it leaves: they end by FCP recovery (timeout, ABTS, retries) and fail.
    res = run(fcal_sim, tmp_path, *event(0, 3, kind, 1, *extra))
    assert balanced(res), f"{kind}: the I/O account"
    assert failed_disks(res) <= {1}, f"{kind}: failures on other disks: {res['failures']}"
    assert [d["state"] for d in res["disks"]] == ["present", state, "present", "present"]
    assert res["outstanding_ios"] == 0 and 1 <= res["failed_ios"] <= 2, "the queue depth's 2 I/Os at most were open to disk 1"
    assert res["disks"][1]["ios"] == 0, f"{kind}: disk 1 completed I/Os in the window, after it left"
    # The loop initialized without the port (after the enclosure's detection for a pulled or failed one),
    # and the window (after the events, see the docstring) holds the others' I/Os.
    (init,) = res["loop_init"]
    assert init["complete"] and "disk1" not in [a["port"] for a in init["al_pas"]]
    for d in (0, 2, 3):
        assert res["disks"][d]["ios"] > 0, f"{kind}: disk {d} got no I/O after the event"


# Light load: 4 KiB I/Os at 200 IOPS, so that (with this seed) no I/O is open to disk 1 at its event.
LIGHT = sets("workload.io_size=4K", "workload.type=open", "workload.rate_iops=200", "workload.warmup_ios=20",
             "workload.measured_ios=100")


@pytest.mark.parametrize("events, states", [
    (event(0, 30, "remove", 1), ["present", "removed", "present", "present"]),
    (event(0, 30, "bypass", 1), ["present", "bypassed", "present", "present"]),
    (event(0, 30, "fail", 1, "event.0.failure=port"), ["present", "failed", "present", "present"]),
    (event(0, 30, "remove", 1) + event(1, 40, "insert", 1), ["present"] * 4),
    (event(0, 30, "bypass", 1) + event(1, 40, "enable", 1), ["present"] * 4),
], ids=["remove", "bypass", "fail-port", "remove-insert", "bypass-enable"])
def test_hot_plug_at_light_load(fcal_sim, tmp_path, events, states):
    res = run(fcal_sim, tmp_path, *LIGHT, *events)
    assert balanced(res) and res["outstanding_ios"] == 0 and res["failed_ios"] == 0, res["failures"]
    assert [d["state"] for d in res["disks"]] == states
    # One initialization per event, each complete, each after its event; the port takes part or not.
    kinds = [k for k in events if k.startswith("event.") and ".kind=" in k]
    assert len(res["loop_init"]) == len(kinds)
    assert all(i["complete"] and i["start_us"] >= 30000 for i in res["loop_init"])
    in_last = [a["port"] for a in res["loop_init"][-1]["al_pas"]]
    assert ("disk1" in in_last) == (states[1] == "present")
    # The others' I/O went on after the loop came back: the run ended well after it.
    assert res["sim_time_s"] * 1e6 > res["loop_init"][-1]["start_us"] + res["loop_init"][-1]["duration_us"]


# A bypass at the insert's own time: the inserted port has no AL_PA until the initialization it starts
# completes, so the controller's LPB waits for that and is then sent (docs/faults.md, "Scheduled events").
PULLED_AND_PUT_BACK = event(0, 1, "remove", 1) + event(1, 2.1, "insert", 1) + event(2, 2.1, "bypass", 1)


@pytest.mark.parametrize("enable_ms, state, causes", [
    (None, "bypassed", ["event.0: remove disk 1", "event.1: insert disk 1", "event.2: bypass disk 1"]),
    (4, "present", ["event.0: remove disk 1", "event.1: insert disk 1", "event.2: bypass disk 1",
                    "event.3: enable disk 1"]),
    # Enabled before the LPB could be sent: it is never sent, and the port never leaves.
    (2.1, "present", ["event.0: remove disk 1", "event.1: insert disk 1"]),
], ids=["bypass", "bypass-enable", "enable-at-once"])
def test_a_bypass_of_a_port_with_no_al_pa_yet_waits_for_its_initialization(fcal_sim, tmp_path, enable_ms, state,
                                                                           causes):
    events = PULLED_AND_PUT_BACK + (event(3, enable_ms, "enable", 1) if enable_ms is not None else [])
    res = run(fcal_sim, tmp_path, *LIGHT, *events)
    assert balanced(res) and res["outstanding_ios"] == 0, "the I/O account"
    assert failed_disks(res) <= {1}, res["failures"]
    assert [d["state"] for d in res["disks"]] == ["present", state, "present", "present"]
    inits = res["loop_init"]
    assert [i["cause"] for i in inits] == causes and all(i["complete"] for i in inits)
    ports = [[a["port"] for a in i["al_pas"]] for i in inits]
    assert "disk1" not in ports[0] and "disk1" in ports[1], "pulled out, then put back"
    if len(inits) > 2:
        # The LPB went out the moment the insert's initialization gave the port its AL_PA, and the loop
        # initialized without it.
        insert, lpb = inits[1], inits[2]
        assert lpb["start_us"] == pytest.approx(insert["start_us"] + insert["duration_us"], abs=1e-6)
        assert "disk1" not in ports[2]
    if len(inits) > 3:
        assert inits[3]["start_us"] == pytest.approx(4000) and "disk1" in ports[3], "LPE brought it back"
    # The window (warm-up after the events at 200 I/Os per second) holds disk 1's I/Os once it is back.
    assert (res["disks"][1]["ios"] > 0) == (state == "present")


def test_a_bypass_still_waiting_at_the_end_is_reported(fcal_sim, tmp_path):
    """Loop 1 is cut before disk 1 is put back, so its port there never gets an AL_PA and the bypass waits
    on loop 1 to the end of the run (on loop 0 it went): the results and the summary say so."""
    args = sets("loop.count=2", "loop.bypass_detect_us=1000") + event(0, 1, "remove", 1) + \
        sets("event.1.at_ms=1.5", "event.1.kind=loop_fail", "event.1.loop=1") + event(2, 2.1, "insert", 1) + \
        event(3, 3, "bypass", 1)
    r = fcal_sim(*LOADED, *args, "--stats-json", tmp_path / "r.json")
    assert r.code == 0, f"exit {r.code}: {r.err}"
    res = load_results(tmp_path / "r.json")["results"]
    assert balanced(res) and res["outstanding_ios"] == 0
    assert [d["state"] for d in res["disks"]] == ["present", "bypassed", "present", "present"]
    assert [d.get("lpb_waiting_on_loops") for d in res["disks"]] == [None, [1], None, None]
    assert [l["state"] for l in res["loops"]] == ["up", "down"]
    # On loop 0 the LPB went: its last initialization is without disk 1.
    on_loop_0 = [i for i in res["loop_init"] if i["loop"] == 0]
    assert on_loop_0[-1]["cause"] == "event.3: bypass disk 1" and on_loop_0[-1]["complete"]
    assert "disk1" not in [a["port"] for a in on_loop_0[-1]["al_pas"]]
    summary = fcal_sim(*[a for a in LOADED if a != "--quiet"], *args)
    assert summary.code == 0
    assert "bypass waiting     disk 1: its LPB still waits on loop 1 for an initialization" in summary.out


def test_two_disks_put_back_in_one_instant_side_by_side(fcal_sim, tmp_path):
    """Disks 1 and 2 pulled, then put back in one instant, disk 2 first: the controller's word, spliced to disk 2
    by the first insert, was still on its way there through slot 1 when disk 1 was put into that slot, and disk 2
    then had disk 1's first word to take before it, out of order; it woke for it again and again without
    taking it ("livelock" on the fast path, exit 5). A port put back takes what had not yet reached its slot
    (docs/loop_init.md, "Port bypass circuits"). Traced (the full path) and untraced the same results."""
    args = ["--quiet", *sets("disk.count=3", "loop.bypass_detect_us=50", "workload.measured_ios=1",
                             "workload.queue_depth=1"), *event(0, 0.8, "bypass", 0), *event(1, 1, "remove", 2),
            *event(2, 2, "remove", 1), *event(3, 2.16, "insert", 2), *event(4, 2.16, "insert", 1)]
    fast = fast_and_traced(fcal_sim, tmp_path, *args)
    assert fast["outstanding_ios"] == 0
    assert [d["state"] for d in fast["disks"]] == ["bypassed", "present", "present"]
    last = fast["loop_init"][-1]
    assert last["complete"] and {"disk1", "disk2"} <= {a["port"] for a in last["al_pas"]}


def test_a_failed_disk_is_replaced_and_gets_io_again(fcal_sim, tmp_path):
    replace = event(0, 3, "fail", 1) + event(1, 6, "remove", 1) + event(2, 9, "insert", 1)
    runs = [run(fcal_sim, tmp_path, *replace, name=n) for n in ("a.json", "b.json")]
    assert runs[0] == runs[1], "fail, remove, insert, repeated with the same seed: the results differ"
    res = runs[0]
    assert balanced(res) and res["outstanding_ios"] == 0
    assert res["failed_ios"] >= 1 and failed_disks(res) == {1}, res["failures"]
    assert all("CHECK CONDITION" in f for f in res["failures"]), "the failed drive's I/Os fail with its status"
    assert [d["state"] for d in res["disks"]] == ["present"] * 4
    assert [i["cause"] for i in res["loop_init"]] == ["event.1: remove disk 1", "event.2: insert disk 1"]
    # The window opens after the insert (the docstring): every disk's I/Os in it came after the events,
    # the new disk 1's too.
    for d in range(4):
        assert res["disks"][d]["ios"] > 0, f"disk {d}: no I/O after the replacement"


def test_two_loops_replace_a_disk_on_both(fcal_sim, tmp_path):
    res = run(fcal_sim, tmp_path, *sets("loop.count=2", "driver.multipath=round_robin"),
              *event(0, 3, "fail", 1), *event(1, 6, "remove", 1), *event(2, 9, "insert", 1))
    assert balanced(res) and res["outstanding_ios"] == 0 and failed_disks(res) <= {1}
    assert sorted((i["loop"], i["cause"]) for i in res["loop_init"]) == [
        (0, "event.1: remove disk 1"), (0, "event.2: insert disk 1"), (1, "event.1: remove disk 1"), (1, "event.2: insert disk 1")]
    for d in range(4):
        assert res["disks"][d]["ios"] > 0


def test_raid5_without_spares_rebuilds_onto_an_inserted_disk(fcal_sim, tmp_path):
    raid = sets("volume.raid=raid5", "volume.spares=0", "volume.member_capacity_gb=0.002", "volume.rebuild_rate_mbs=0",
                "workload.measured_ios=2000")
    res = run(fcal_sim, tmp_path, *raid, *event(0, 3, "fail", 2), *event(1, 6, "remove", 2), *event(2, 9, "insert", 2))
    v = res["volume"]
    assert balanced(res) and res["outstanding_ios"] == 0
    assert res["failed_ios"] == 0, f"a RAID 5 volume with one member gone fails nothing: {res['failures']}"
    assert v["failures"] == ["disk 2 (member 2): failed at 3 ms"], v["failures"]
    assert v["rebuilds_completed"] == 1 and v["state"] == "optimal" and not v["data_lost"], v
    assert v["spares"] == 0, "the inserted disk is the member now, not a spare"
    assert [d["state"] for d in res["disks"]] == ["present"] * 4


def test_a_removed_raid5_member_is_rebuilt_onto_the_hot_spare(fcal_sim, tmp_path):
    # Issue 23: a member pulled under load degrades the volume (RAID 5 survives one member: no host I/O fails),
    # the rebuild onto the spare completes and the volume is optimal again; the pulled disk stays removed.
    raid = sets("disk.count=5", "volume.raid=raid5", "volume.spares=1", "volume.member_capacity_gb=0.002",
                "workload.measured_ios=2000")
    res = run(fcal_sim, tmp_path, *raid, *event(0, 3, "remove", 2))
    v = res["volume"]
    assert balanced(res) and res["outstanding_ios"] == 0
    assert res["failed_ios"] == 0, f"a RAID 5 volume with one member gone fails nothing: {res['failures']}"
    assert v["failures"] == ["disk 2 (member 2): removed at 3 ms"], v["failures"]
    assert v["rebuilds_completed"] == 1 and v["state"] == "optimal" and not v["data_lost"] and v["spares"] == 0, v
    assert [d["state"] for d in res["disks"]] == ["present", "present", "removed", "present", "present"]
    assert res["logins"]["logouts"] == 1, "the initiator logs the pulled disk out after the re-initialization"


def test_raid5_without_spares_and_without_insert_stays_degraded(fcal_sim, tmp_path):
    res = run(fcal_sim, tmp_path, *sets("volume.raid=raid5", "volume.member_capacity_gb=0.002"), *event(0, 3, "fail", 2),
              *event(1, 6, "remove", 2))
    assert balanced(res) and res["failed_ios"] == 0
    assert res["volume"]["state"] == "degraded"
    assert [d["state"] for d in res["disks"]] == ["present", "present", "removed", "present"]


def test_port_failure_without_auto_bypass_leaves_the_loop_down(fcal_sim, tmp_path):
    r = fcal_sim(*LOADED, *sets("loop.auto_bypass=false", "workload.measured_ios=40", "workload.warmup_ios=10",
                                "sim.time_limit_s=2"),
                 *event(0, 3, "fail", 1, "event.0.failure=port"), "--stats-json", tmp_path / "r.json", timeout=300)
    assert r.code in (0, 1), f"exit {r.code}: {r.err}"
    res = load_results(tmp_path / "r.json")["results"]
    assert balanced(res), "the I/O account with the loop down"
    # Nothing crosses the open loop: the I/Os open at the failure end failed (each with its reason) or
    # are reported outstanding; the loop's initialization never completes.
    assert res["failed_ios"] + res["outstanding_ios"] > 0
    failed_disks(res)
    (init,) = res["loop_init"]
    assert not init["complete"] and init["cause"] == "event.0: fail disk 1"
    assert r.code == 0 or res["run_end"] == "time_limit"


def test_without_auto_bypass_every_io_fails_after_its_retries(fcal_sim, tmp_path):
    # Issue 22: a failed port without a bypass keeps the loop down, and every I/O ends failed after the driver's
    # retries, named. With the ABTS answered by nobody given up after 10 ms, each attempt ends in 5 + 10 ms, so
    # an I/O's 1 + 3 attempts end within a second and the run ends by itself, nothing outstanding.
    res = run(fcal_sim, tmp_path, *sets("loop.auto_bypass=false", "workload.measured_ios=40", "workload.warmup_ios=10",
                                        "initiator.abts_timeout_ms=10", "sim.time_limit_s=5"),
              *event(0, 3, "fail", 1, "event.0.failure=port"))
    # (The I/Os that completed did so before the failure at 3 ms: 0.1 ms accesses at 400 MB/s.)
    assert balanced(res) and res["outstanding_ios"] == 0 and res["failed_ios"] > 0
    assert res["retries"] == 3 * res["failed_ios"], "each I/O is issued again driver.retries = 3 times"
    assert all(f.endswith("(given up after 3 retries)") for f in res["failures"]), res["failures"][:3]
    (init,) = res["loop_init"]
    assert not init["complete"]


@pytest.mark.parametrize("needle, what, args", [
    ("event.1.disk: insert of disk 1, which is present at that time", "insert of a present disk", event(1, 5, "insert", 1)),
    ("event.1.at_ms: insert of disk 1 at 2.5 ms, before its slot is empty", "insert within loop.bypass_detect_us of the remove",
     event(0, 2, "remove", 1) + event(1, 2.5, "insert", 1)),
    ("event.1.disk: enable of disk 1, which is removed at that time", "enable of a removed disk",
     event(0, 2, "remove", 1) + event(1, 5, "enable", 1)),
    ("event.1.disk: bypass of disk 1, which is bypassed at that time", "bypass twice",
     event(0, 2, "bypass", 1) + event(1, 5, "bypass", 1)),
    ("event.0.failure: only a fail event has a failure kind", "failure on a remove", event(0, 2, "remove", 1, "event.0.failure=port")),
    ("event.0.failure", "an unknown failure kind", event(0, 2, "fail", 1, "event.0.failure=cable")),
    ("event.0.loop: a remove event acts on the disk's port on every loop", "a disk event naming its loop",
     event(0, 2, "remove", 1, "event.0.loop=0")),
    ("event.0.disk: missing (a bypass event names its disk)", "a bypass without its disk",
     sets("event.0.at_ms=2", "event.0.kind=bypass")),
])
def test_bad_hot_plug_events_are_refused(fcal_sim, needle, what, args):
    expect_refused(fcal_sim(*LOADED, *args), needle, what)


def test_an_open_workload_issues_again_when_its_only_disk_comes_back(fcal_sim, tmp_path):
    # The disk is gone from 100 ms to 105.1 ms with I/Os still queued for it, so the run has not ended
    # when it is back: the arrivals, stopped with every disk gone, start again and the run completes its
    # 2 x warm-up + measured I/Os (it used to idle to the time limit and call itself a deadlock).
    warmup, measured = 10, 1
    r = fcal_sim(*sets("disk.count=1", "workload.type=open", "workload.rate_iops=200", "disk.model=zoned",
                       "loop.bypass_detect_us=5000", "sim.time_limit_s=1", f"workload.warmup_ios={warmup}",
                       f"workload.measured_ios={measured}", "workload.queue_depth=1"),
                 *event(0, 100, "remove", 0), *event(1, 105.1, "insert", 0),
                 "--quiet", "--no-progress", "--stats-json", tmp_path / "r.json")
    assert r.code == 0, f"exit {r.code}: {r.err}"
    res = load_results(tmp_path / "r.json")["results"]
    assert res["run_end"] == "completed" and res["sim_time_s"] < 1
    assert balanced(res) and res["outstanding_ios"] == 0
    assert res["completed_ios"] + res["failed_ios"] == 2 * warmup + measured
    assert [d["state"] for d in res["disks"]] == ["present"]
    assert [i["cause"] for i in res["loop_init"]] == ["event.0: remove disk 0", "event.1: insert disk 0"]
