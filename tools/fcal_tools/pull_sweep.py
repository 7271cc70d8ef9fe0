"""A disk pulled under load against the number of ports (issue 22): the loop-down time the simulator reports,
the time of docs/loop_init.md, "Initialization time" (its paragraph After a break), computed here from first
principles, the throughput the pull costs, the pulled disk's failed I/Os and the re-validation of the others (ADISC).

  python3 tools/pull_sweep.py [--out DIR] [--fcal-sim PATH] [--jobs N] [--no-plots] [--write PAGE] [--quick]

Every point is tools/lip_sweep.py's closed workload (64 KiB reads, queue depth 4 per disk, 2GFC, 2 m cables)
with disk.count disks (disk.count + 1 ports), run twice with the same seed: once with `event.0.kind=remove`
of the LAST disk at lip_sweep's LIP time and once without events; for two enclosure detection times
(`loop.bypass_detect_us`): the default 100 ms, which dominates the stall, and DETECT_SHORT_US (1 ms), with
which the initialization's growth with the number of ports shows. The last disk's port is the one just
upstream of the controller: its downstream neighbour, the originator of the LIP(F8), is the controller,
which is also the master (lowest port name), the case the closed form of that paragraph covers.

The exchange timeout is lip_sweep's (above every response time of a run without events) plus the detection
time rounded up to 10 ms, so that no I/O to the remaining disks is aborted merely because it waited out the
stall; an abort in the run with the pull is an I/O whose frame was lost at the break (aborted and retried by
FCP recovery) and is reported. The run stops (sim.time_limit_s, I/Os outstanding by design) AFTER_TIMEOUT_MS after one such
timeout. The lost throughput is lip_sweep's measure over the window from the pull to SHORT_MS after the
loop could be up again (the detection time): the data the run with the pull moved less, as time at the rate
of the run without it; it includes the pulled disk's own share of the traffic, which is gone for good (the
table gives both runs' rates in the run's last AFTER_TIMEOUT_MS too). Outputs in DIR: pull_sweep.csv and
pull_stall.png; the table printed and with --write PAGE put into PAGE between its markers
`<!-- pull_sweep.py: begin -->` and `<!-- pull_sweep.py: end -->` (docs/loop_init.md carries them).
--quick runs 2 and 3 disks only (the test; pulling the one disk of 1 leaves no traffic).
Standard library plus python3-matplotlib.
"""
from __future__ import annotations

import argparse
import math
import os
import re
from typing import Any

from . import engine
from .figure_tool import figure_main, finish
from .lip_sweep import (AFTER_TIMEOUT_MS, CABLE_S, HOP_S, PROC_S, SHORT_MS, WORD_S, WORKLOAD,
                        after_lips_s, disk_counts, lip_ms, lost_ms, save_port_figure, timeout_ms, window_mb)
from .sim import Starter, run_sim

QUICK_DISK_COUNTS = (2, 3)
DETECT_DEFAULT_US = 100000.0  # loop.bypass_detect_us's default (docs/loop_init.md, "Port bypass circuits")
DETECT_SHORT_US = 1000.0
DETECTS_US = (DETECT_DEFAULT_US, DETECT_SHORT_US)
FIELDS = ["disks", "ports", "ports_left", "pulled_disk", "bypass_detect_us", "pull_ms", "exchange_timeout_ms",
          "loop_down_us", "formula_us", "lip_count", "mb_per_s_without", "mb_per_s_with", "lost_ms",
          "mb_per_s_end_without", "mb_per_s_end_with", "aborts", "failed_ios", "failed_other_disks",
          "failure_reasons", "adisc", "logouts", "sim_time_s", "wall_time_s"]


def after_break_s(ports_left: int, detect_s: float, p: float = PROC_S) -> float:
    """docs/loop_init.md, "Initialization time" (its paragraph After a break): the slot just upstream of the
    originator, which is the master, pulled; N = ports_left. The spliced hop h' is both cables and the
    originator's port delay; the originator's LIP(F8) already fills the loop, so its LIPs are back h' after the
    bypass closes (then 2 words to recognise them, 2 fill words before the LISM), and the rest is phases 2 to 6
    on R' = (N - 1) h + h'."""
    spliced = HOP_S + CABLE_S  # h' = 2 c + 6 w
    r = (ports_left - 1) * HOP_S + spliced
    return detect_s + spliced + 4 * WORD_S + after_lips_s(ports_left, r, p=p)


def pull_timeout_ms(disks: int, detect_us: float) -> float:
    """lip_sweep's exchange timeout plus the detection time rounded up to 10 ms: above the response time of an
    I/O that waited out the stall."""
    return timeout_ms(disks) + math.ceil(detect_us / 1e4) * 10


def failure_reasons(failures: list[str], disk: int) -> tuple[int, str]:
    """(how many failures name another disk than `disk`, the distinct reasons without the I/O, its disk and the
    target's AL_PA)."""
    other = sum(1 for f in failures if not f.startswith("I/O ") or "(disk %d," % disk not in f)
    reasons = sorted({re.sub(r"target 0x[0-9A-F]{2}\b", "target <AL_PA>", re.sub(r"^I/O \d+ \(disk \d+, \w+\): ", "", f))
                      for f in failures})
    return other, "; ".join(reasons)


def run(sim: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    disks, detect = p["disks"], p["detect_us"]
    pulled = disks - 1
    at, tmo = lip_ms(disks), pull_timeout_ms(disks, detect)
    end_ms = at + tmo + AFTER_TIMEOUT_MS
    sets = WORKLOAD + ["disk.count=%d" % disks, "initiator.exchange_timeout_ms=%g" % tmo,
                       "loop.bypass_detect_us=%g" % detect, "sim.time_limit_s=%g" % (end_ms / 1e3)]
    pull = ["event.0.kind=remove", "event.0.disk=%d" % pulled, "event.0.at_ms=%g" % at]
    # The runs stop at sim.time_limit_s with I/Os outstanding by design (exit 1, run_end "time_limit").
    base = run_sim(sim, sets, children=children).check(ok=(0, 1)).results
    res = run_sim(sim, sets + pull, children=children).check(ok=(0, 1)).results
    name = "%d disks, bypass_detect_us %g" % (disks, detect)
    for which, r in (("without", base), ("with", res)):
        if r["run_end"] != "time_limit":
            raise RuntimeError("%s, %s the pull: run_end %s" % (name, which, r["run_end"]))
    if base["aborts"] != 0 or base["failed_ios"] != 0:
        raise RuntimeError("%s: %d aborts, %d failed without the pull: exchange timeout %g ms too short"
                           % (name, base["aborts"], base["failed_ios"], tmo))
    records = res["loop_init"]
    if res["loop_initializations"] != 1 or not records[0]["complete"]:
        raise RuntimeError("%s: the pull did not give one complete initialization" % name)
    if any(a["port"] == "disk%d" % pulled for a in records[0]["al_pas"]) or records[0]["master_al_pa"] != "0x01":
        raise RuntimeError("%s: the pulled disk is on the loop, or the controller is not the master" % name)
    without, with_pull = base["loop_timeline"]["mb_per_s"][0], res["loop_timeline"]["mb_per_s"][0]
    rate_without, rate_with, lost = lost_ms(without, with_pull, at, at + detect / 1e3 + SHORT_MS)
    span_s = AFTER_TIMEOUT_MS / 1e3
    other, reasons = failure_reasons(res["failures"], pulled)
    logins = res["logins"]
    return {"disks": disks, "ports": disks + 1, "ports_left": disks, "pulled_disk": pulled,
            "bypass_detect_us": detect, "pull_ms": at, "exchange_timeout_ms": tmo,
            "loop_down_us": res["loop_down_us"], "formula_us": after_break_s(disks, detect * 1e-6) * 1e6,
            "lip_count": records[0]["lip_count"], "mb_per_s_without": rate_without, "mb_per_s_with": rate_with,
            "lost_ms": lost, "mb_per_s_end_without": window_mb(without, end_ms - AFTER_TIMEOUT_MS, end_ms) / span_s,
            "mb_per_s_end_with": window_mb(with_pull, end_ms - AFTER_TIMEOUT_MS, end_ms) / span_s,
            "aborts": res["aborts"], "failed_ios": res["failed_ios"], "failed_other_disks": other,
            "failure_reasons": reasons, "adisc": logins["adisc"], "logouts": logins["logouts"],
            "sim_time_s": res["sim_time_s"], "wall_time_s": base["wall_time_s"] + res["wall_time_s"]}


def plot(rows: list[dict[str, Any]], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4))
    ports = sorted({r["ports"] for r in rows})
    for detect, mark in zip(DETECTS_US, ("o", "s")):
        series = [r for r in rows if r["bypass_detect_us"] == detect]
        x = [r["ports"] for r in series]
        label = "bypass_detect_us=%g" % detect
        left.plot(x, [r["loop_down_us"] / 1e3 for r in series], mark, label="simulated, " + label)
        left.plot(x, [r["formula_us"] / 1e3 for r in series], "-", color="grey", lw=0.8)
        right.plot(x, [r["lost_ms"] for r in series], mark + "-",
                   label="lost in detect + %g ms, %s" % (SHORT_MS, label))
    left.plot([], [], "-", color="grey", lw=0.8, label="formula (docs/loop_init.md, after a break)")
    left.set_yscale("log")
    left.set_ylabel("loop down (ms, log scale)")
    left.set_title("Loop down after the last disk is pulled")
    right.set_yscale("log")
    right.set_ylabel("lost throughput (ms at the no-event MB/s, log scale)")
    right.set_title("Throughput lost to the pull")
    save_port_figure(fig, (left, right), ports, "ports on the loop before the pull (disk.count + 1)",
                     "A disk pulled under load: 64 KiB reads, queue depth 4 per disk, 2GFC",
                     os.path.join(out, "pull_stall.png"), legend_size=7)


TOOL = "pull_sweep.py"


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The Markdown table: per detection time and port count the loop-down time beside the formula, the lost
    throughput, the failures and the re-validations."""
    lines = ["| bypass_detect_us | ports | ports left N | loop_down_us | formula (us) | difference (words) | pull at (ms) "
             "| exchange timeout (ms) | MB/s without, window | MB/s with, window | lost in the window (ms) "
             "| MB/s at the end without / with "
             "| aborts | failed I/Os (other disks) | ADISC | logouts |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        words = (r["loop_down_us"] - r["formula_us"]) * 1e-6 / WORD_S
        lines.append(f"| {r['bypass_detect_us']:g} | {r['ports']} | {r['ports_left']} | {r['loop_down_us']:.3f} "
                     f"| {r['formula_us']:.3f} | {words:+.1f} | {r['pull_ms']:g} | {r['exchange_timeout_ms']:g} "
                     f"| {r['mb_per_s_without']:.1f} | {r['mb_per_s_with']:.1f} | {r['lost_ms']:.2f} "
                     f"| {r['mb_per_s_end_without']:.1f} / {r['mb_per_s_end_with']:.1f} | {r['aborts']} "
                     f"| {r['failed_ios']} ({r['failed_other_disks']}) | {r['adisc']} | {r['logouts']} |")
    reasons = sorted({x for r in rows for x in r["failure_reasons"].split("; ") if x})
    if reasons:
        lines += ["", "Failure reasons (the I/O, its disk and the pulled disk's AL_PA left out): "
                  + "; ".join("`%s`" % x for x in reasons) + "."]
    return lines


def main(argv: list[str] | None = None) -> int:
    counts, args = disk_counts(argv, QUICK_DISK_COUNTS)

    def sweep(a: argparse.Namespace) -> int:
        tasks = [(a.fcal_sim, {"disks": n, "detect_us": d}) for d in DETECTS_US for n in counts]
        rows = engine.run_all(run, tasks, a.jobs)
        return finish(a, TOOL, rows, "pull_sweep.csv", FIELDS, lambda: plot(rows, a.out), table(rows))
    return figure_main(args, __doc__ or "", "pull_sweep", TOOL, "docs/loop_init", sweep)
