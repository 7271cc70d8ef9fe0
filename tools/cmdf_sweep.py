#!/usr/bin/env python3
"""NORMAL vs CMDF experiment (issue 5): runs fcal-sim over sweeps on all local cores, writes one CSV
row per point and draws PNG figures.

  python3 tools/cmdf_sweep.py [--out DIR] [--fcal-sim PATH] [--measured N] [--jobs N] [--quick]

Sweeps (otherwise the baseline of docs/model.md, "The baseline scenario"):
  sizes   16 disks, queue depth 1: I/O size 1 KiB .. 1 MiB (doubling) x read fraction 1, 0.66, 0
  disks   32 KiB reads, disk.count 2 .. 125 (the most disk.count allows)
  depth   32 KiB reads, queue depth per disk 1 .. 16
  access  32 KiB reads, disk access time 0.5, 1, 2, 4, 8 ms
each for schedule=normal and schedule=cmdf. Outputs: sweep.csv, gain_table.md, and one PNG per figure.
Standard library plus python3-matplotlib (Debian).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SCHEDULES = ("normal", "cmdf")
SIZES = [1024 << k for k in range(11)]  # 1 KiB .. 1 MiB
READ_FRACTIONS = (1.0, 0.66, 0.0)
DISKS = (2, 4, 8, 16, 32, 64, 125)  # disk.count tops out at 125 (issue 4); 126 would need the FL_Port AL_PA
DEPTHS = (1, 2, 4, 8, 16)
ACCESS_MS = (0.5, 1, 2, 4, 8)
FIELDS = ["sweep", "schedule", "io_size", "read_fraction", "disks", "queue_depth", "access_ms",
          "iops", "mb_per_s", "mean_response_us", "p99_response_us", "command_wait_mean_us",
          "unfair_command_arbitrations", "preemptions", "sim_time_s", "wall_time_s"]


def points(quick):
    sizes = SIZES[::3] if quick else SIZES
    for sched in SCHEDULES:
        for rf in READ_FRACTIONS:
            for size in sizes:
                yield dict(sweep="sizes", schedule=sched, io_size=size, read_fraction=rf, disks=16, queue_depth=1, access_ms=2.0)
        for d in (DISKS[:3] if quick else DISKS):
            yield dict(sweep="disks", schedule=sched, io_size=32768, read_fraction=1.0, disks=d, queue_depth=1, access_ms=2.0)
        for q in (DEPTHS[:2] if quick else DEPTHS):
            yield dict(sweep="depth", schedule=sched, io_size=32768, read_fraction=1.0, disks=16, queue_depth=q, access_ms=2.0)
        for a in (ACCESS_MS[:2] if quick else ACCESS_MS):
            yield dict(sweep="access", schedule=sched, io_size=32768, read_fraction=1.0, disks=16, queue_depth=1, access_ms=a)


def run(fcal_sim, p, measured):
    args = [fcal_sim, "--quiet", "--stats-json", "-",
            "--set", f"schedule={p['schedule']}",
            "--set", f"workload.io_size={p['io_size']}",
            "--set", f"workload.read_fraction={p['read_fraction']}",
            "--set", f"disk.count={p['disks']}",
            "--set", f"workload.queue_depth={p['queue_depth']}",
            "--set", f"disk.access_ms={p['access_ms']}",
            "--set", f"workload.measured_ios={measured}"]
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    out = subprocess.run(args, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"fcal-sim failed ({out.returncode}) for {p}: {out.stderr.strip()}")
    r = json.loads(out.stdout)["results"]
    row = dict(p)
    for k in FIELDS[7:]:
        row[k] = r.get(k, 0)
    return row


def gain_table(rows):
    """Relative gain of CMDF over NORMAL per size and type, for IOPS and mean response time."""
    by = {(r["schedule"], r["io_size"], r["read_fraction"]): r for r in rows if r["sweep"] == "sizes"}
    sizes = sorted({r["io_size"] for r in rows if r["sweep"] == "sizes"})
    names = {1.0: "read", 0.66: "66% read", 0.0: "write"}
    lines = ["| I/O size | " + " | ".join(f"{names[rf]} IOPS gain | {names[rf]} response gain" for rf in READ_FRACTIONS) + " |",
             "|---" * (1 + 2 * len(READ_FRACTIONS)) + "|"]
    for s in sizes:
        cells = []
        for rf in READ_FRACTIONS:
            n, c = by.get(("normal", s, rf)), by.get(("cmdf", s, rf))
            if not n or not c:
                cells += ["", ""]
                continue
            cells.append(f"{(c['iops'] / n['iops'] - 1) * 100:+.1f}%")
            cells.append(f"{(1 - c['mean_response_us'] / n['mean_response_us']) * 100:+.1f}%")
        label = f"{s // 1024} KiB" if s < 1 << 20 else f"{s >> 20} MiB"
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def series(sweep, x, y, **match):
        sel = [r for r in rows if r["sweep"] == sweep and all(r[k] == v for k, v in match.items())]
        for sched in SCHEDULES:
            pts = sorted((r[x], r[y]) for r in sel if r["schedule"] == sched)
            yield sched, [p[0] for p in pts], [p[1] for p in pts]

    style = {"normal": dict(color="tab:blue", marker="o"), "cmdf": dict(color="tab:red", marker="s")}
    metrics = [("mb_per_s", "data throughput (MB/s)"), ("iops", "I/Os per second"), ("mean_response_us", "mean response time (us)")]
    fig, axes = plt.subplots(len(metrics), len(READ_FRACTIONS), figsize=(15, 11), squeeze=False)
    for col, rf in enumerate(READ_FRACTIONS):
        for row, (m, label) in enumerate(metrics):
            ax = axes[row][col]
            for sched, xs, ys in series("sizes", "io_size", m, read_fraction=rf):
                ax.plot([x / 1024 for x in xs], ys, label=sched.upper(), **style[sched])
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

    for sweep, x, xlabel, logx in [("disks", "disks", "disks on the loop", True), ("depth", "queue_depth", "queue depth per disk", True),
                                   ("access", "access_ms", "disk access time (ms)", True)]:
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        for ax, (m, label) in zip(axes, metrics):
            for sched, xs, ys in series(sweep, x, m):
                ax.plot(xs, ys, label=sched.upper(), **style[sched])
            if logx:
                ax.set_xscale("log", base=2)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(label)
            ax.set_title(f"32 KiB reads: {label}")
            ax.grid(True, alpha=0.3)
            ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{sweep}.png"), dpi=90)
        plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(here, "..", "out", "cmdf"), help="output folder")
    ap.add_argument("--fcal-sim", default=os.path.join(here, "..", "build", "bin", "fcal-sim"))
    ap.add_argument("--measured", type=int, default=1000, help="measured I/Os per point")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="a few points per sweep (a smoke test)")
    ap.add_argument("--no-plots", action="store_true")
    a = ap.parse_args()
    if not os.access(a.fcal_sim, os.X_OK):
        sys.exit(f"cmdf_sweep: no fcal-sim at {a.fcal_sim} (build first: bash scripts/setup.sh)")
    os.makedirs(a.out, exist_ok=True)
    pts = list(points(a.quick))
    rows = []
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:  # each point is its own fcal-sim process
        for i, row in enumerate(pool.map(lambda p: run(a.fcal_sim, p, a.measured), pts), 1):
            rows.append(row)
            print(f"[{i}/{len(pts)}] {row['sweep']:6} {row['schedule']:6} size={row['io_size']:>7} rf={row['read_fraction']:<4} "
                  f"disks={row['disks']:<3} qd={row['queue_depth']:<2} access={row['access_ms']:<3} -> "
                  f"{row['iops']:9.1f} IOPS {row['mb_per_s']:7.2f} MB/s {row['mean_response_us']:9.1f} us", flush=True)
    with open(os.path.join(a.out, "sweep.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    table = gain_table(rows)
    with open(os.path.join(a.out, "gain_table.md"), "w") as f:
        f.write(table)
    print(table)
    if not a.no_plots:
        plot(rows, a.out)
    print(f"wrote {a.out}/sweep.csv, gain_table.md" + ("" if a.no_plots else ", sizes.png, disks.png, depth.png, access.png"))


if __name__ == "__main__":
    main()
