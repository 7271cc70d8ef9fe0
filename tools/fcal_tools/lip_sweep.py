"""One LIP under load against the number of ports (issue 22): the loop-down time the simulator reports,
the initialization time of docs/loop_init.md, "Initialization time" computed here from first principles,
and the throughput the LIP costs.

  python3 tools/lip_sweep.py [--out DIR] [--fcal-sim PATH] [--jobs N] [--no-plots] [--write PAGE] [--quick]

Every point is the baseline's closed workload (64 KiB reads, queue depth 4 per disk, 2GFC, 2 m cables)
with disk.count disks (disk.count + 1 ports), run twice with the same seed: once with a `lip` from the
controller at LIP_MS and once without. The exchange timeout is shortened so that frames a LIP destroys
are recovered within the run (timeout_ms below: three times the time the loop needs to move every
queued I/O, so that the run without the LIP has no abort; a point where it has one is an error). The
lost throughput is the data the run with the LIP moved less than the run without it in a window from the
LIP on (sim.loop_timeline_ms bins of 0.1 ms), given as time at the run without the LIP's rate over that
window: `lost_ms = (MB without - MB with) / (MB/s without)`; over SHORT_MS = 20 ms after the LIP (the
stall) and over the rest of the run (which holds the recovery of the frames the LIP destroyed, but also
the random divergence of two runs whose events no longer happen in the same order). Outputs in DIR: lip_sweep.csv and
lip_stall.png; the table printed and with --write PAGE put into PAGE between its markers
`<!-- lip_sweep.py: begin -->` and `<!-- lip_sweep.py: end -->` (docs/loop_init.md carries them).
--quick runs 1 and 2 disks only (the test). Standard library plus python3-matplotlib.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any, Sequence

from . import engine
from .figure_tool import figure_main, finish
from .sim import Starter, run_sim

DISK_COUNTS = (2, 4, 8, 16, 32, 64, 125)
QUICK_DISK_COUNTS = (1, 2)
IO_BYTES, QUEUE_DEPTH = 65536, 4
BIN_MS = 0.1
SHORT_MS = 20.0  # the short window after the LIP: the stall itself, with little of the two runs' divergence
AFTER_TIMEOUT_MS = 100.0  # how long the run goes on after a lost frame's exchange timed out
WORKLOAD = ["workload.type=closed", "workload.io_size=64K", "workload.queue_depth=%d" % QUEUE_DEPTH,
            "workload.read_fraction=1", "workload.warmup_ios=0", "workload.measured_ios=100000000",
            "sim.loop_timeline_ms=%g" % BIN_MS]
FIELDS = ["disks", "ports", "lip_ms", "exchange_timeout_ms", "loop_down_us", "formula_us", "lip_count",
          "mb_per_s_without", "mb_per_s_with", "lost_ms", "lost_to_end_ms", "aborts", "failed_ios", "sim_time_s", "wall_time_s"]

# docs/loop_init.md, "Initialization time": the defaults of the line, cable, port delay and processing time.
WORD_S = 40 / 2.125e9            # w: one 2GFC transmission word (40 bits at 2.125 Gbaud)
CABLE_S = 2.0 * 5e-9             # c: one hop's cable, 2 m at 5 ns/m
HOP_S = 6 * WORD_S + CABLE_S     # h: 6 words of port delay and the hop's cable
PROC_S = 1e-6                    # p: loop.init_frame_proc_us's default
LISM_WORDS, BITMAP_WORDS, MAP_WORDS, MIN_LIPS = 12, 14, 42, 12


def formula_s(ports: int, k: int = 0, p: float = PROC_S, wait_s: float = 0.0) -> float:
    """T of docs/loop_init.md, "Initialization time", phase by phase: N ports on the ring (R = N h), the master
    k ports downstream of the originator (D = k h), position maps, W = wait_s."""
    r = ports * HOP_S
    return max(r + 2 * WORD_S, MIN_LIPS * WORD_S) + 2 * WORD_S + wait_s + after_lips_s(ports, r, k, p)


def after_lips_s(ports: int, r: float, k: int = 0, p: float = PROC_S) -> float:
    """Phases 2 to 6 of docs/loop_init.md, "Initialization time" (LISM to CLS) on a ring of round trip r, the master
    k ports (D = k h) downstream of the originator: what follows the LIP phase, also after a break."""

    def trip(words: int) -> float:
        return ports * (words * WORD_S + p) + r

    lism = (ports + k) * (LISM_WORDS * WORD_S + p) + r + k * HOP_S
    return lism + r + 4 * trip(BITMAP_WORDS) + 2 * trip(MAP_WORDS) + r


def timeout_ms(disks: int) -> float:
    """Three times the time a 2GFC loop (at most 200 MB/s of data) needs to move every queued I/O, at least
    20 ms, rounded up to 10 ms: above the response time of every I/O in the run without a LIP."""
    drain_ms = disks * QUEUE_DEPTH * IO_BYTES / 200e6 * 1e3
    return max(20.0, math.ceil(3 * drain_ms / 10) * 10)


def lip_ms(disks: int) -> float:
    """The LIP's time: one exchange timeout and 50 ms after the start, so every disk has completed I/Os."""
    return timeout_ms(disks) + 50.0


def window_mb(timeline: list[float], start_ms: float, end_ms: float) -> float:
    """MB moved in [start_ms, end_ms) from a loop's MB/s per BIN_MS bin."""
    first, last = round(start_ms / BIN_MS), round(end_ms / BIN_MS)
    return sum(timeline[first:last]) * BIN_MS / 1e3


def lost_ms(without: list[float], with_lip: list[float], start_ms: float, end_ms: float) -> tuple[float, float, float]:
    """(MB/s without, MB/s with, lost time in ms) over [start_ms, end_ms): the data the run with the LIP
    moved less, as time at the rate of the run without it."""
    span_s = (end_ms - start_ms) / 1e3
    mb_without, mb_with = window_mb(without, start_ms, end_ms), window_mb(with_lip, start_ms, end_ms)
    rate = mb_without / span_s
    return rate, mb_with / span_s, (mb_without - mb_with) / rate * 1e3


def run(sim: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    disks = p["disks"]
    at, tmo = lip_ms(disks), timeout_ms(disks)
    end_ms = at + tmo + AFTER_TIMEOUT_MS
    sets = WORKLOAD + ["disk.count=%d" % disks, "initiator.exchange_timeout_ms=%g" % tmo,
                       "sim.time_limit_s=%g" % (end_ms / 1e3)]
    # The run stops at sim.time_limit_s with I/Os outstanding by design (exit 1, run_end "time_limit").
    base = run_sim(sim, sets, children=children).check(ok=(0, 1)).results
    lip = run_sim(sim, sets + ["event.0.kind=lip", "event.0.at_ms=%g" % at], children=children).check(ok=(0, 1)).results
    for name, r in (("without", base), ("with", lip)):
        if r["run_end"] != "time_limit" or r["failed_ios"] != 0:
            raise RuntimeError("%d disks, %s the LIP: run_end %s, %d failed" % (disks, name, r["run_end"], r["failed_ios"]))
    if base["aborts"] != 0:
        raise RuntimeError("%d disks: %d aborts without a LIP: exchange timeout %g ms too short" % (disks, base["aborts"], tmo))
    if lip["loop_initializations"] != 1 or not lip["loop_init"][0]["complete"]:
        raise RuntimeError("%d disks: the LIP did not give one complete initialization" % disks)
    without, with_lip = base["loop_timeline"]["mb_per_s"][0], lip["loop_timeline"]["mb_per_s"][0]
    rate_without, rate_with, lost = lost_ms(without, with_lip, at, at + SHORT_MS)
    lost_to_end = lost_ms(without, with_lip, at, end_ms)[2]
    return {"disks": disks, "ports": disks + 1, "lip_ms": at, "exchange_timeout_ms": tmo,
            "loop_down_us": lip["loop_down_us"], "formula_us": formula_s(disks + 1) * 1e6,
            "lip_count": lip["loop_init"][0]["lip_count"], "mb_per_s_without": rate_without,
            "mb_per_s_with": rate_with, "lost_ms": lost, "lost_to_end_ms": lost_to_end,
            "aborts": lip["aborts"], "failed_ios": lip["failed_ios"],
            "sim_time_s": lip["sim_time_s"], "wall_time_s": base["wall_time_s"] + lip["wall_time_s"]}


def plot(rows: list[dict[str, Any]], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    ports = [r["ports"] for r in rows]
    left.plot(ports, [r["loop_down_us"] / 1e3 for r in rows], "o", label="simulated loop_down_us")
    left.plot(ports, [r["formula_us"] / 1e3 for r in rows], "-", label="formula T (docs/loop_init.md)")
    left.set_ylabel("loop down (ms)")
    left.set_title("Loop initialization time")
    right.plot(ports, [r["lost_ms"] for r in rows], "s-", label="lost in the 20 ms after the LIP")
    right.plot(ports, [r["lost_to_end_ms"] for r in rows], "^--", label="lost to the end of the run")
    right.plot(ports, [r["loop_down_us"] / 1e3 for r in rows], ":", color="grey", label="loop down")
    right.set_ylabel("lost throughput (ms at the no-LIP MB/s)")
    right.set_title("Throughput lost to one LIP")
    save_port_figure(fig, (left, right), ports, "ports on the loop (disk.count + 1)",
                     "One LIP from the controller under load: 64 KiB reads, queue depth 4 per disk, 2GFC",
                     os.path.join(out, "lip_stall.png"))


def save_port_figure(fig: Any, axes: Sequence[Any], ports: list[int], xlabel: str, title: str, path: str,
                     legend_size: int = 8) -> None:
    """Puts the port counts on every panel's x axis (log 2, one tick per point), a grid and the legends, and saves
    the figure under its title."""
    for ax in axes:
        ax.set_xlabel(xlabel)
        ax.set_xscale("log", base=2)
        ax.set_xticks(ports, [str(n) for n in ports])
        ax.minorticks_off()
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=legend_size)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


TOOL = "lip_sweep.py"


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The Markdown table: per port count the loop-down time beside the formula, and the lost throughput."""
    lines = ["| ports | disks | loop_down_us | formula T (us) | difference (words) | LIP at (ms) | exchange timeout (ms) "
             "| MB/s without, 20 ms | MB/s with, 20 ms | lost in 20 ms (ms) | lost to the end (ms) | aborts with the LIP |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        words = (r["loop_down_us"] - r["formula_us"]) * 1e-6 / WORD_S
        lines.append(f"| {r['ports']} | {r['disks']} | {r['loop_down_us']:.3f} | {r['formula_us']:.3f} | {words:+.1f} "
                     f"| {r['lip_ms']:g} | {r['exchange_timeout_ms']:g} | {r['mb_per_s_without']:.1f} "
                     f"| {r['mb_per_s_with']:.1f} | {r['lost_ms']:.2f} | {r['lost_to_end_ms']:.1f} | {r['aborts']} |")
    return lines


def disk_counts(argv: list[str] | None, quick: tuple[int, ...]) -> tuple[tuple[int, ...], list[str]]:
    """The disk counts to run (`quick` with --quick, DISK_COUNTS otherwise) and the command line without
    --quick, which figure_main's has not."""
    args = list(sys.argv[1:] if argv is None else argv)
    return (quick if "--quick" in args else DISK_COUNTS), [a for a in args if a != "--quick"]


def main(argv: list[str] | None = None) -> int:
    counts, args = disk_counts(argv, QUICK_DISK_COUNTS)

    def sweep(a: argparse.Namespace) -> int:
        rows = engine.run_all(run, [(a.fcal_sim, {"disks": n}) for n in counts], a.jobs)
        return finish(a, TOOL, rows, "lip_sweep.csv", FIELDS, lambda: plot(rows, a.out), table(rows))
    return figure_main(args, __doc__ or "", "lip_sweep", TOOL, "docs/loop_init", sweep)
