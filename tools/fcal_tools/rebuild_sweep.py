"""The rebuild trade-off (issue 23): rebuild time and the host's p99 response time against the rebuild
rate cap, at two host loads, on the Cray ND-12's 8+P+S shape (configs/raid5_8p_s.json).

  python3 tools/rebuild_sweep.py [--out DIR] [--fcal-sim PATH] [--jobs N] [--no-plots] [--write PAGE]

Every point runs configs/raid5_8p_s.json (9 members RAID 5 and one hot spare, 32 KiB units, member 4
fails at 100 ms) with 30 MB used per member, Poisson arrivals of 8 KiB I/Os (70 % reads) at one of
two rates, and volume.rebuild_rate_mbs from LOW to 0 (as fast as it goes). The run lasts long enough
for the rebuild to end (a point whose rebuild did not end is an error, not a point). Outputs:
rebuild_sweep.csv and rebuild_tradeoff.png (rebuild time, and the p99 response time of the requests
that arrived while the rebuild ran, against the cap) in DIR; the table (and the p99 before the failure)
printed, and with --write PAGE put into PAGE between its markers `<!-- rebuild_sweep.py: begin -->` and
`<!-- rebuild_sweep.py: end -->` (docs/controller.md carries them). Standard library plus python3-matplotlib.
"""
from __future__ import annotations

import argparse
import os
from typing import Any

from . import engine
from .figure_tool import figure_main, finish
from .sim import Starter, run_sim

CONFIG = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "raid5_8p_s.json")
CAPACITY_GB = 0.03
RATES_MBS = (2.0, 5.0, 10.0, 20.0, 0.0)  # 0: as fast as it goes
LOADS_IOPS = (300.0, 900.0)
SLOWEST_MBS = 3.0  # only sizes the runs: host load slows a rebuild below its cap, and the run must outlast it
FIELDS = ["rate_mbs", "load_iops", "rebuild_time_s", "rebuild_mbs", "p99_rebuilding_us", "mean_rebuilding_us",
          "p99_before_us", "mean_before_us", "degraded_reads", "sim_time_s", "wall_time_s"]


def run(sim: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    rate, load = p["rate_mbs"], p["load_iops"]
    # The run's length: the failure at 0.1 s, the rebuild at its cap or a slow guess, and a margin.
    span_s = 0.1 + CAPACITY_GB * 1e3 / min(rate if rate > 0 else SLOWEST_MBS, SLOWEST_MBS) * 1.3 + 1.0
    sets = ["volume.member_capacity_gb=%g" % CAPACITY_GB, "volume.rebuild_rate_mbs=%g" % rate,
            "workload.type=open", "workload.rate_iops=%g" % load, "workload.warmup_ios=0",
            "workload.measured_ios=%d" % int(load * span_s), "sim.time_limit_s=1000"]
    r = run_sim(sim, sets, config=CONFIG, children=children).check().results
    v = r["volume"]
    if v["rebuilds_completed"] != 1:
        raise RuntimeError("rate %g MB/s, load %g IO/s: the rebuild did not end within the run" % (rate, load))
    phases = v["phases"]
    return {"rate_mbs": rate, "load_iops": load, "rebuild_time_s": v["rebuild_time_s"],
            "rebuild_mbs": v["rebuild_bytes"] / v["rebuild_time_s"] / 1e6,
            "p99_rebuilding_us": phases["rebuilding"]["p99_response_us"],
            "mean_rebuilding_us": phases["rebuilding"]["mean_response_us"],
            "p99_before_us": phases["before"]["p99_response_us"], "mean_before_us": phases["before"]["mean_response_us"],
            "degraded_reads": v["degraded_reads"], "sim_time_s": r["sim_time_s"], "wall_time_s": r["wall_time_s"]}


def plot(rows: list[dict[str, Any]], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    uncapped = max(RATES_MBS) * 2  # where "as fast as it goes" is drawn
    for load, style in zip(LOADS_IOPS, ("-o", "--s")):
        pts = sorted((r["rate_mbs"] if r["rate_mbs"] > 0 else uncapped, r) for r in rows if r["load_iops"] == load)
        xs = [x for x, _ in pts]
        left.plot(xs, [r["rebuild_time_s"] for _, r in pts], style, label="host %g IO/s" % load)
        right.plot(xs, [r["p99_rebuilding_us"] / 1e3 for _, r in pts], style, label="host %g IO/s, rebuilding" % load)
        right.axhline(pts[0][1]["p99_before_us"] / 1e3, color=right.lines[-1].get_color(), alpha=0.4, linestyle=":",
                      label="host %g IO/s, before the failure" % load)
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xlabel("volume.rebuild_rate_mbs (rightmost: 0, as fast as it goes)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    left.set_ylabel("rebuild time (s)")
    left.set_yscale("log")
    right.set_ylabel("host p99 response time (ms)")
    fig.suptitle("RAID 5 8+P+S, 30 MB per member, 8 KiB random I/O (70 % reads), member 4 fails")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rebuild_tradeoff.png"), dpi=110)


def main(argv: list[str] | None = None) -> int:
    return figure_main(argv, __doc__ or "", "rebuild_sweep", TOOL, "docs/raid", sweep)


def sweep(a: argparse.Namespace) -> int:
    pts = [{"rate_mbs": rate, "load_iops": load} for load in LOADS_IOPS for rate in RATES_MBS]
    rows = engine.run_all(run, [(a.fcal_sim, p) for p in pts], a.jobs)
    return finish(a, TOOL, rows, "rebuild_sweep.csv", FIELDS, lambda: plot(rows, a.out), table(rows))


TOOL = "rebuild_sweep.py"


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The Markdown table of rebuild time and p99 while rebuilding per cap and load, and the p99 before the failure."""
    def at(rate: float, load: float) -> dict[str, Any]:
        return next(r for r in rows if r["rate_mbs"] == rate and r["load_iops"] == load)

    head = ["cap (MB/s)"]
    for load in LOADS_IOPS:
        head += [f"rebuild, {load:g} IO/s (s)", f"p99 while rebuilding, {load:g} IO/s (ms)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for rate in RATES_MBS:
        cells = [f"{rate:g}" if rate > 0 else "as fast as it goes"]
        for load in LOADS_IOPS:
            r = at(rate, load)
            cells += [f"{r['rebuild_time_s']:.1f}", f"{r['p99_rebuilding_us'] / 1e3:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    before = ", ".join(f"{at(RATES_MBS[0], load)['p99_before_us'] / 1e3:.1f} ms at {load:g} IO/s" for load in LOADS_IOPS)
    return lines + ["", f"The p99 before the failure (the 0.1 s before it: few requests): {before}."]
