"""NORMAL vs CMDF experiment (issue 5), now on the general sweep tool (tools/sweep; docs/model.md,
"Sweeps"): runs fcal-sim over the four sweeps below on all local cores or a Dask cluster, resumably,
writes one CSV row per point and draws PNG figures.

  python3 tools/cmdf_sweep.py [--out DIR] [--fcal-sim PATH] [--measured N] [--jobs N | --scheduler URL] [--quick]

Sweeps (otherwise the baseline of docs/model.md, "The baseline scenario"):
  sizes   16 disks, queue depth 1: I/O size 1 KiB .. 1 MiB (doubling) x read fraction 1, 0.66, 0
  disks   32 KiB reads, disk.count 2 .. 125 (the most disk.count allows)
  depth   32 KiB reads, queue depth per disk 1 .. 16
  access  32 KiB reads, disk access time 0.5, 1, 2, 4, 8 ms
each for three arms: normal (schedule=normal, fair controller), cmdf (schedule=cmdf) and unfair
(schedule=normal, initiator.fair=false: the standard unfair controller). Outputs: runs.csv (the sweep
tool's, resumable), sweep.csv (one row per point), gain_table.md, and one PNG per figure.
Standard library plus python3-matplotlib (Debian); --scheduler needs python3-distributed.
"""
from __future__ import annotations

import argparse
import csv
import os
import shlex
import sys
from typing import Any

from .cli import guard, require
from .sim import DEFAULT_FCAL_SIM, ROOT
from .sweep import session, store, summary
from .sweep.spec import Spec

ARMS = ("normal", "cmdf", "unfair")
SIZES = [1024 << k for k in range(11)]  # 1 KiB .. 1 MiB
READ_FRACTIONS = (1.0, 0.66, 0.0)
DISKS = (2, 4, 8, 16, 32, 64, 125)  # disk.count tops out at 125 (issue 4); 126 would need the FL_Port AL_PA
DEPTHS = (1, 2, 4, 8, 16)
ACCESS_MS = (0.5, 1, 2, 4, 8)
RESULTS = ["iops", "mb_per_s", "mean_response_us", "p99_response_us", "command_wait_mean_us",
           "unfair_command_arbitrations", "preemptions", "sim_time_s"]
FIELDS = ["sweep", "arm", "io_size", "read_fraction", "disks", "queue_depth", "access_ms"] + RESULTS
KEYS = {"io_size": "workload.io_size", "read_fraction": "workload.read_fraction", "disks": "disk.count",
        "queue_depth": "workload.queue_depth", "access_ms": "disk.access_ms"}


def spec(quick: bool, measured: int) -> Spec:
    """The four sweeps as one sweep spec (parts), every point for the three arms."""
    sizes = SIZES[::3] if quick else SIZES

    def part(name: str, **grid: Any) -> dict[str, Any]:
        base = {"workload.io_size": [32768], "workload.read_fraction": [1.0], "disk.count": [16],
                "workload.queue_depth": [1], "disk.access_ms": [2.0]}
        base.update({KEYS[k]: list(v) for k, v in grid.items()})
        return {"name": name, "grid": base}
    return Spec({
        "name": "cmdf", "seeds": 1, "results": RESULTS, "labels": ["arm"],
        "fixed": {"workload.measured_ios": measured},
        "zip": [{"arm": list(ARMS), "schedule": ["normal", "cmdf", "normal"], "initiator.fair": [True, True, False]}],
        "part": [part("sizes", io_size=sizes, read_fraction=READ_FRACTIONS),
                 part("disks", disks=DISKS[:3] if quick else DISKS),
                 part("depth", queue_depth=DEPTHS[:2] if quick else DEPTHS),
                 part("access", access_ms=ACCESS_MS[:2] if quick else ACCESS_MS)],
    }, "cmdf_sweep")


Row = dict[str, Any]


def rows_of(summary_rows: list[dict[str, Any]]) -> list[Row]:
    """The sweep tool's summary rows in this script's own columns (numbers as numbers)."""
    rows = []
    for r in summary_rows:
        if not r["runs"]:
            continue
        row: Row = {"sweep": r["part"], "arm": r["arm"]}
        for k, key in KEYS.items():
            row[k] = float(r[key]) if k in ("read_fraction", "access_ms") else int(r[key])
        for k in RESULTS:
            row[k] = float(r[k]) if r[k] != "" else float("nan")
        rows.append(row)
    return rows


def gain_table(rows: list[Row]) -> str:
    """Relative gain of CMDF (and of the unfair controller) over NORMAL per size and type: IOPS and mean
    response time."""
    by = {(r["arm"], r["io_size"], r["read_fraction"]): r for r in rows if r["sweep"] == "sizes"}
    sizes = sorted({r["io_size"] for r in rows if r["sweep"] == "sizes"})
    names = {1.0: "read", 0.66: "66% read", 0.0: "write"}
    cols = [(rf, arm) for rf in READ_FRACTIONS for arm in ("cmdf", "unfair")]
    lines = ["| I/O size | " + " | ".join(f"{names[rf]} {arm} IOPS gain | {names[rf]} {arm} response gain" for rf, arm in cols) + " |",
             "|---" * (1 + 2 * len(cols)) + "|"]
    for s in sizes:
        cells = []
        for rf, arm in cols:
            n, c = by.get(("normal", s, rf)), by.get((arm, s, rf))
            if not n or not c:
                cells += ["", ""]
                continue
            cells.append(f"{(c['iops'] / n['iops'] - 1) * 100:+.1f}%")
            cells.append(f"{(1 - c['mean_response_us'] / n['mean_response_us']) * 100:+.1f}%")
        label = f"{s // 1024} KiB" if s < 1 << 20 else f"{s >> 20} MiB"
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows: list[Row], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def series(sweep: str, x: str, y: str, **match: Any) -> Any:
        sel = [r for r in rows if r["sweep"] == sweep and all(r[k] == v for k, v in match.items())]
        for arm in ARMS:
            pts = sorted((r[x], r[y]) for r in sel if r["arm"] == arm)
            yield arm, [p[0] for p in pts], [p[1] for p in pts]

    style: dict[str, dict[str, Any]] = {"normal": dict(color="tab:blue", marker="o"), "cmdf": dict(color="tab:red", marker="s"),
             "unfair": dict(color="tab:green", marker="^", linestyle="--")}
    metrics = [("mb_per_s", "data throughput (MB/s)"), ("iops", "I/Os per second"), ("mean_response_us", "mean response time (us)")]
    fig, axes = plt.subplots(len(metrics), len(READ_FRACTIONS), figsize=(15, 11), squeeze=False)
    for col, rf in enumerate(READ_FRACTIONS):
        for row, (m, label) in enumerate(metrics):
            ax = axes[row][col]
            for arm, xs, ys in series("sizes", "io_size", m, read_fraction=rf):
                ax.plot([x / 1024 for x in xs], ys, label=arm, **style[arm])
            ax.set_xscale("log", base=2)
            if m != "mb_per_s":
                ax.set_yscale("log")
            ax.set_xlabel("I/O size (KiB)")
            ax.set_ylabel(label)
            ax.set_title(f"16 disks, QD 1, read fraction {rf}")
            ax.grid(True, alpha=0.3)
            ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sizes.png"), dpi=90)
    plt.close(fig)

    for sweep, x, xlabel in [("disks", "disks", "disks on the loop"), ("depth", "queue_depth", "queue depth per disk"),
                             ("access", "access_ms", "disk access time (ms)")]:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        for ax, (m, label) in zip(axes, metrics):
            for arm, xs, ys in series(sweep, x, m):
                ax.plot(xs, ys, label=arm, **style[arm])
            ax.set_xscale("log", base=2)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(label)
            ax.set_title(f"32 KiB reads: {label}")
            ax.grid(True, alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{sweep}.png"), dpi=90)
        plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "cmdf"), help="output folder")
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--measured", type=int, default=1000, help="measured I/Os per point")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", help="run on a Dask cluster (tcp://HOST:PORT) instead of local processes")
    ap.add_argument("--quick", action="store_true", help="a few points per sweep (a smoke test)")
    ap.add_argument("--no-plots", action="store_true")
    ap.add_argument("--allow-mixed-builds", action="store_true",
                    help="resume although runs.csv has rows of another fcal-sim build")
    a = ap.parse_args(argv)
    return guard("cmdf_sweep", lambda: run(a))


def run(a: argparse.Namespace) -> int:
    if not a.no_plots:
        require("cmdf_sweep", "matplotlib", "drawing the figures (or --no-plots)")
    os.makedirs(a.out, exist_ok=True)
    sp = spec(a.quick, a.measured)
    resume = " ".join(shlex.quote(x) for x in ["python3", "tools/cmdf_sweep.py"] + sys.argv[1:])
    opts = session.Options(jobs=a.jobs, scheduler=a.scheduler, allow_mixed_builds=a.allow_mixed_builds, resume=resume)
    rc = session.run_sweep(sp, a.out, os.path.abspath(a.fcal_sim), opts)  # resumes a run of the same options
    if rc not in (0, 1):
        return rc
    results = store.ResultsFile(os.path.join(a.out, "runs.csv"), sp)
    failed = [r for r in results.records if r["status"] != "ok"]
    for r in failed:
        print(f"cmdf_sweep: a run failed (exit {r['exit_code']}): {r['stderr_tail']}", file=sys.stderr)
    rows = rows_of(summary.summarise(sp, results.records))
    with open(os.path.join(a.out, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    table = gain_table(rows)
    with open(os.path.join(a.out, "gain_table.md"), "w") as f:
        f.write(table)
    print(table)
    if not a.no_plots:
        plot(rows, a.out)
    print(f"wrote {a.out}/sweep.csv, gain_table.md" + ("" if a.no_plots else ", sizes.png, disks.png, depth.png, access.png"))
    return 1 if failed else 0
