"""Dual loops and a loop failure (issue 23): each loop's MB/s against time through a loop_fail and a
loop_restore, and per multipath policy the throughput and the failover times.

  python3 tools/loop_failover.py [--out DIR] [--fcal-sim PATH] [--jobs N] [--no-plots] [--write PAGE]

The workload is the issue's loop-bound one: 16 disks, 256 KiB reads, queue depth 4, on two 2GFC loops
(loop.count=2), 3000 I/Os all measured (no warm-up: the window must hold the failure). For each policy (failover, round_robin, least_queue) two runs: one without events, and one
where loop 0 fails at FAIL_MS and comes back at RESTORE_MS (the HBAs report the link down after
initiator.link_down_ms, default 100 ms). Outputs in DIR: loop_failover.csv (one row per run) and
loop_failover_timeline.png (the round_robin run with the failure: each loop's data MB/s in 10 ms bins
against time, the failure, the link-down report and the restore marked). The table is printed and, with
--write PAGE, put into PAGE between its markers `<!-- loop_failover.py: begin -->` and
`<!-- loop_failover.py: end -->` (docs/host.md carries them). Standard library plus python3-matplotlib.
"""
from __future__ import annotations

import argparse
import os
from typing import Any

from . import engine
from .figure_tool import figure_main, finish
from .sim import Starter, run_sim

POLICIES = ("failover", "round_robin", "least_queue")
FAIL_MS, RESTORE_MS, LINK_DOWN_MS, BIN_MS = 300.0, 700.0, 100.0, 10.0
WORKLOAD = ["disk.count=16", "workload.io_size=256K", "workload.queue_depth=4", "workload.warmup_ios=0",
            "workload.measured_ios=3000",
            "loop.count=2", "sim.loop_timeline_ms=%g" % BIN_MS]
EVENTS = ["event.0.at_ms=%g" % FAIL_MS, "event.0.kind=loop_fail", "event.0.loop=0",
          "event.1.at_ms=%g" % RESTORE_MS, "event.1.kind=loop_restore", "event.1.loop=0"]
FIELDS = ["policy", "loop_fail", "mb_per_s", "loop0_mb_per_s", "loop1_mb_per_s", "iops", "failovers",
          "failover_mean_us", "failover_max_us", "completed_ios", "failed_ios", "sim_time_s", "wall_time_s"]


def run(sim: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    sets = WORKLOAD + ["driver.multipath=" + p["policy"]] + (EVENTS if p["loop_fail"] else [])
    r = run_sim(sim, sets, children=children).check().results
    if r["failed_ios"] != 0 or r["completed_ios"] != r["issued_ios"]:
        raise RuntimeError("%s: %d issued, %d completed, %d failed" % (p["policy"], r["issued_ios"], r["completed_ios"],
                                                                     r["failed_ios"]))
    loops = r["loops"]
    return {"policy": p["policy"], "loop_fail": p["loop_fail"], "mb_per_s": r["mb_per_s"],
            "loop0_mb_per_s": loops[0]["mb_per_s"], "loop1_mb_per_s": loops[1]["mb_per_s"], "iops": r["iops"],
            "failovers": r["failovers"], "failover_mean_us": r["failover_time_us"]["mean"],
            "failover_max_us": r["failover_time_us"]["max"], "completed_ios": r["completed_ios"],
            "failed_ios": r["failed_ios"], "sim_time_s": r["sim_time_s"], "wall_time_s": r["wall_time_s"],
            "timeline": r["loop_timeline"]["mb_per_s"]}


def plot(row: dict[str, Any], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4))
    for loop, rates in enumerate(row["timeline"]):
        ts = [(i + 0.5) * BIN_MS for i in range(len(rates))]
        ax.step(ts, rates, where="mid", label="loop %d" % loop)
    top = ax.get_ylim()[1]
    for at, what, height in ((FAIL_MS, "loop 0 fails", 0.55), (FAIL_MS + LINK_DOWN_MS, "link down reported", 0.45),
                             (RESTORE_MS, "loop 0 restored", 0.35)):
        ax.axvline(at, color="grey", linestyle=":")
        ax.text(at, top * height, " " + what, fontsize=8, va="top")
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel("data throughput per loop (MB/s, %g ms bins)" % BIN_MS)
    ax.set_title("Two 2GFC loops, round_robin: 16 disks, 256 KiB reads, queue depth 4")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "loop_failover_timeline.png"), dpi=110)


TOOL = "loop_failover.py"


def table(rows: list[dict[str, Any]]) -> list[str]:
    """Per policy: MB/s without a failure (per loop), and with the failure MB/s, failovers and failover times."""
    def at(policy: str, fail: bool) -> dict[str, Any]:
        return next(r for r in rows if r["policy"] == policy and r["loop_fail"] == fail)

    lines = ["| driver.multipath | MB/s (loop 0 + loop 1) | MB/s with the failure | failovers | failover time mean (ms) "
             "| failover time max (ms) |", "|---|---|---|---|---|---|"]
    for policy in POLICIES:
        ok, bad = at(policy, False), at(policy, True)
        lines.append(f"| {policy} | {ok['mb_per_s']:.1f} ({ok['loop0_mb_per_s']:.1f} + {ok['loop1_mb_per_s']:.1f}) "
                     f"| {bad['mb_per_s']:.1f} | {bad['failovers']} | {bad['failover_mean_us'] / 1e3:.1f} "
                     f"| {bad['failover_max_us'] / 1e3:.1f} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    return figure_main(argv, __doc__ or "", "loop_failover", TOOL, "docs/host", sweep)


def sweep(a: argparse.Namespace) -> int:
    pts = [{"policy": policy, "loop_fail": fail} for policy in POLICIES for fail in (False, True)]
    rows = engine.run_all(run, [(a.fcal_sim, p) for p in pts], a.jobs)
    shown = next(r for r in rows if r["policy"] == "round_robin" and r["loop_fail"])
    return finish(a, TOOL, rows, "loop_failover.csv", FIELDS, lambda: plot(shown, a.out), table(rows))
