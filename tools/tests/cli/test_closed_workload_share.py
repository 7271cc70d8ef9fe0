"""A closed workload keeps workload.queue_depth I/Os out per disk, also when the loop's access fairness gives the
disks unequal shares of the measured window (docs/faults.md, "Scheduled events": a `lip` under load can settle the
loop into a cycle in which one disk completes twice the others' I/Os).

Little's law for one disk over the measured window of length T: the I/Os it completes in the window, times their
mean response time, is the time-integral of its I/Os out, which is Q*T, give or take the I/Os that straddle the
window's two edges (each at most R_max long, Q of them at each edge): |X*R - Q| <= 2*Q*R_max/T, with X the disk's
completions per second and R their mean response time. So a disk with twice the others' completions must have
half their response time; twice the I/Os in flight would break the bound. And directly: each disk accepts only Q
commands (disk.queue_slots=Q), so one more at any moment would be answered TASK SET FULL and counted."""
from __future__ import annotations

import pytest

from conftest import load_results, sets

Q = 2
IO_BYTES = 64 * 1024
LOOP_BYTES_PER_S = 2.125e9 / 10  # 2GFC: 2.125 GBd, 10 bits a byte
# Four identical disks on one loop; 64 KiB reads leave the loop the bottleneck (the disk's 0.1 ms + 64 KiB at
# 400 MB/s is far below a disk's share of the loop).
LOADED = sets("disk.count=4", "workload.io_size=64K", "disk.access_ms=0.1", "disk.rate_mbs=400",
              f"workload.queue_depth={Q}", "workload.warmup_ios=300", "workload.measured_ios=600",
              "initiator.exchange_timeout_ms=5", f"disk.queue_slots={Q}")
LIP_AT_3_MS = sets("event.0.at_ms=3", "event.0.kind=lip", "event.0.disk=1", "event.0.loop=0")


@pytest.mark.parametrize("events", [(), LIP_AT_3_MS], ids=["no-event", "lip"])
def test_every_disk_holds_the_queue_depth(fcal_sim, tmp_path, events):
    out = tmp_path / "r.json"
    r = fcal_sim(*LOADED, *events, "--quiet", "--stats-json", out)
    assert r.code == 0, r.err
    res = load_results(out)["results"]
    T = res["measured_time_s"]
    tolerance = 2 * Q * res["max_response_us"] * 1e-6 / T
    assert tolerance < 0.1 * Q, "the window is long enough for the bound to say something"
    for d in res["disks"]:
        held = d["iops"] * d["mean_response_us"] * 1e-6
        assert abs(held - Q) <= tolerance, f"disk {d['disk']}: {held:.3f} I/Os out on average, not {Q}"
    assert res["task_set_full_retries"] == 0, "a disk was sent more than queue_depth commands at once"
    assert sum(d["ios"] for d in res["disks"]) == res["measured_ios"]
    # The loop carries every byte: the disks' shares together cannot exceed its rate.
    assert res["iops"] * IO_BYTES <= LOOP_BYTES_PER_S
