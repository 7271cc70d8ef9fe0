"""fcal-sim with scheduled events and a volume with a hot spare (docs/faults.md, "Scheduled events",
docs/controller.md, "Degraded mode and rebuild"): bad events and volume keys exit 2 with one line naming the
key, before anything runs; configs/raid5_8p_s.json's shape runs, fails a member, rebuilds onto the spare and
balances its account; the same seed gives the same results."""
from __future__ import annotations

import os

import pytest

from conftest import ROOT, balanced, expect_refused, load_results, sets

SMALL = [*sets("disk.count=4", "workload.measured_ios=200"), "--quiet"]
FAIL0 = sets("event.0.at_ms=5", "event.0.kind=fail", "event.0.disk=1")


@pytest.mark.parametrize("needle, what, args", [
    ("event.0.at_ms", "an event without its time", sets("event.0.kind=fail", "event.0.disk=1")),
    ("event.0.kind", "an event without its kind", sets("event.0.at_ms=5", "event.0.disk=1")),
    ("event.0.kind", "an unknown event kind", sets("event.0.at_ms=5", "event.0.kind=explode", "event.0.disk=1")),
    ("event.1.disk: remove of disk 1, which is removed at that time", "a disk removed twice",
     sets("event.0.at_ms=5", "event.0.kind=remove", "event.0.disk=1", "event.1.at_ms=9", "event.1.kind=remove", "event.1.disk=1")),
    ("event.2.disk: disk 4 does not exist", "a disk that does not exist",
     sets("event.2.at_ms=5", "event.2.kind=fail", "event.2.disk=4")),
    ("event.0.disk", "a fail event without its disk", sets("event.0.at_ms=5", "event.0.kind=fail")),
    ("event.0.at_ms", "a negative time", sets("event.0.at_ms=-1", "event.0.kind=fail", "event.0.disk=1")),
    ("event.0.at_ms", "a time beyond the run",
     sets("sim.time_limit_s=1", "event.0.at_ms=1000", "event.0.kind=fail", "event.0.disk=1")),
    ("event.1.disk", "a disk failed twice", FAIL0 + sets("event.1.at_ms=9", "event.1.kind=fail", "event.1.disk=1")),
    ("event.01.at_ms", "an event number with a leading zero", sets("event.01.at_ms=5")),
    ("event.0.when", "an unknown event key", sets("event.0.when=5")),
    ("event.0.kind", "a failure over the ideal transport", FAIL0 + sets("transport=ideal")),
    ("volume.spares", "spares without a redundant volume", sets("volume.spares=1")),
    ("volume.raid", "raid5 over too few members", sets("volume.raid=raid5", "volume.spares=2")),
    ("volume.member_capacity_gb", "a member capacity under one stripe unit",
     sets("volume.raid=raid5", "volume.member_capacity_gb=0.00001")),
    ("volume.member_capacity_gb", "a member capacity without a volume", sets("volume.member_capacity_gb=1")),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_events_and_volume_keys_are_refused(fcal_sim, needle, what, args):
    expect_refused(fcal_sim(*SMALL, *args), needle, what)


def test_raid5_8p_s_fails_a_member_and_rebuilds_the_spare(fcal_sim, tmp_path):
    shape = ["--config", os.path.join(ROOT, "configs", "raid5_8p_s.json"),
             *sets("volume.member_capacity_gb=0.01", "workload.measured_ios=3000", "volume.rebuild_rate_mbs=0"), "--quiet"]
    for name in ("a.json", "b.json"):
        r = fcal_sim(*shape, "--stats-json", tmp_path / name, timeout=300)
        assert r.code == 0, f"raid5_8p_s, smaller ({name}): exit {r.code}: {r.err}"
    a, b = load_results(tmp_path / "a.json"), load_results(tmp_path / "b.json")
    assert a == b, "raid5_8p_s repeated with the same seed: the results differ"
    res = a["results"]
    v = res["volume"]
    assert v["state"] == "optimal" and v["rebuilds_completed"] == 1 and not v["data_lost"], f"the volume: {v}"
    assert v["failures"] == ["disk 4 (member 4): failed at 100 ms"], f"failures: {v['failures']}"
    assert [d["state"] for d in res["disks"]] == ["present"] * 4 + ["failed"] + ["present"] * 5, \
        f"disk states: {[d['state'] for d in res['disks']]}"
    assert balanced(res), "the I/O account"
    for k in ("rebuild_time_s", "rebuild_bytes", "degraded_reads", "data_lost", "phases"):
        assert k in v, f"volume.{k} missing from the results"


@pytest.mark.parametrize("volume", [[], sets("volume.raid=raid0")], ids=["failed drive", "raid0 volume"])
def test_ios_failed_at_once_are_not_said_to_have_been_retried(fcal_sim, tmp_path, volume):
    # A failed drive answers CHECK CONDITION, which asking again cannot help; a raid0 volume without a
    # member has lost the data: either way the I/Os fail at once, and no retry may be claimed for them.
    r = fcal_sim(*SMALL, *FAIL0, *volume, "--stats-json", tmp_path / "r.json")
    assert r.code == 0, r.err
    res = load_results(tmp_path / "r.json")["results"]
    assert res["failed_ios"] > 0 and res["retries"] == 0, (res["failed_ios"], res["retries"])
    assert r.err.startswith(f"fcal-sim: {res['failed_ios']} I/Os failed") and r.err.count("\n") == 1, r.err
    assert "retries" not in r.err and "retried" not in r.err, r.err
