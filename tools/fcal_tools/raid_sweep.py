"""Volumes and queueing (issue 9): runs fcal-sim over two sweeps, writes one CSV row per point and
draws PNG figures.

  python3 tools/raid_sweep.py [--out DIR] [--fcal-sim PATH] [--measured N] [--jobs N] [--quick] [--no-plots]

Sweeps:
  raid5   a RAID 5 volume of 9 disks (8+P, 32 KiB stripe unit), 4 KiB random reads or writes, closed
          workload with 1 .. 32 outstanding requests on the volume, over the loop and over the ideal
          transport. Figure raid5_iops.png: read and write IOPS against outstanding requests.
  md1     one disk behind the ideal transport, Poisson arrivals at 5 .. 95 % load, 64 KiB I/Os.
          Figure md1_response.png: mean response time against arrival rate, next to the
          Pollaczek-Khinchine curve computed from the disk's service time (access + size / rate, the
          same for every I/O, so E[S^2] = E[S]^2).
The RAID 5 points use the default warm-up (10 x outstanding requests x disks).
Another disk model: pass its keys with --set KEY=VALUE (repeatable, applied to every run) and, for
the md1 curve, its service-time moments with --moments E[S]_s,E[S^2]_s2 (from the disk's formulas,
never from the simulator's output).
Outputs: raid_sweep.csv and the PNGs in DIR. Standard library plus python3-matplotlib (Debian).
"""
from __future__ import annotations

import argparse
import os
from typing import Any, Iterator

from . import engine
from .cli import guard, require
from .rows import write_csv
from .sim import Starter, run_sim

DEPTHS = (1, 2, 4, 8, 16, 32)
LOADS = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
ACCESS_MS, RATE_MBS, MD1_IO = 2.0, 50.0, 64 * 1024
FIELDS = ["sweep", "transport", "read_fraction", "queue_depth", "rate_iops", "load",
          "iops", "mean_response_us", "p90_response_us", "p99_response_us", "mean_utilisation",
          "member_ios", "pk_response_us", "sim_time_s", "wall_time_s"]


def service_s(io_bytes: int) -> float:
    return ACCESS_MS * 1e-3 + io_bytes / (RATE_MBS * 1e6)


# E[S] and E[S^2] of the md1 sweep's disk: the fixed-time disk's unless --moments says otherwise.
MOMENTS = [service_s(MD1_IO), service_s(MD1_IO) ** 2]
EXTRA_SETS: list[str] = []


def pollaczek_khinchine_s(rate: float, es: float, es2: float) -> float:
    rho = rate * es
    return es + rate * es2 / (2 * (1 - rho))


def points(quick: bool, measured: int) -> Iterator[dict[str, Any]]:
    depths = DEPTHS[::2] if quick else DEPTHS
    for transport in ("loop", "ideal"):
        for rf in (1.0, 0.0):
            for q in depths:
                yield dict(sweep="raid5", transport=transport, read_fraction=rf, queue_depth=q, rate_iops=0, load=0,
                           measured=measured)
    es = MOMENTS[0]
    for load in (LOADS[::3] if quick else LOADS):
        # Near saturation the queue forgets its past slowly (and starts empty): more I/Os and a longer
        # warm-up there.
        n = measured * (100 if load >= 0.8 else 20)
        yield dict(sweep="md1", transport="ideal", read_fraction=1.0, queue_depth=1, rate_iops=load / es, load=load,
                   measured=n, warmup=n // 10)


def run(sim: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    sets = ["transport=" + p["transport"], "workload.read_fraction=%g" % p["read_fraction"],
            "workload.measured_ios=%d" % p["measured"]]
    if p["sweep"] == "raid5":
        sets += ["disk.count=9", "volume.raid=raid5", "volume.stripe_kib=32", "workload.io_size=4K",
                 "workload.queue_depth=%d" % p["queue_depth"]]
    else:
        sets += ["disk.count=1", "disk.queue_slots=1024", "workload.type=open", "workload.rate_iops=%.9g" % p["rate_iops"],
                 "workload.io_size=%d" % MD1_IO, "workload.warmup_ios=%d" % p["warmup"], "sim.time_limit_s=1000000",
                 "disk.access_ms=%g" % ACCESS_MS, "disk.rate_mbs=%g" % RATE_MBS]
    r = run_sim(sim, sets + EXTRA_SETS, children=children).check().results
    row: dict[str, Any] = {k: p[k] for k in ("sweep", "transport", "read_fraction", "queue_depth", "rate_iops", "load")}
    row.update({k: r[k] for k in ("iops", "mean_response_us", "p90_response_us", "p99_response_us", "sim_time_s", "wall_time_s")})
    row["mean_utilisation"] = sum(d["utilisation"] for d in r["disks"]) / len(r["disks"])
    row["member_ios"] = r.get("volume", {}).get("member_ios", "")
    es, es2 = MOMENTS
    row["pk_response_us"] = pollaczek_khinchine_s(p["rate_iops"], es, es2) * 1e6 if p["sweep"] == "md1" else ""
    return row


def plot(rows: list[dict[str, Any]], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for transport, style in (("loop", "-o"), ("ideal", "--s")):
        for rf, name in ((1.0, "reads"), (0.0, "writes")):
            pts = sorted((r["queue_depth"], r["iops"]) for r in rows
                         if r["sweep"] == "raid5" and r["transport"] == transport and r["read_fraction"] == rf)
            ax.plot([x for x, _ in pts], [y for _, y in pts], style, label="%s, %s transport" % (name, transport))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("outstanding requests on the volume")
    ax.set_ylabel("IOPS")
    ax.set_title("RAID 5, 8+P, 32 KiB unit, 4 KiB random I/Os")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "raid5_iops.png"), dpi=110)

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    md1 = sorted((r["rate_iops"], r["mean_response_us"], r["pk_response_us"]) for r in rows if r["sweep"] == "md1")
    es, es2 = MOMENTS
    curve = [i / 200 * 0.97 / es for i in range(1, 201)]
    ax.plot(curve, [pollaczek_khinchine_s(x, es, es2) * 1e3 for x in curve], "-",
            label="Pollaczek-Khinchine" + (" (M/D/1)" if es2 == es * es else ""))
    ax.plot([x for x, _, _ in md1], [y / 1e3 for _, y, _ in md1], "o", label="fcal-sim, ideal transport")
    ax.set_xlabel("arrival rate (I/O per s)")
    ax.set_ylabel("mean response time (ms)")
    ax.set_title("One disk, 64 KiB I/Os, Poisson arrivals" + (", " + " ".join(EXTRA_SETS) if EXTRA_SETS else ""))
    ax.set_ylim(0, 12 * es * 1e3)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "md1_response.png"), dpi=110)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/raid")
    ap.add_argument("--fcal-sim", default="build/bin/fcal-sim")
    ap.add_argument("--measured", type=int, default=4000, help="measured I/Os per point (md1: x20, x100 from 80 %% load)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="fewer points")
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE passed to every fcal-sim run")
    ap.add_argument("--moments", help="E[S] (s) and E[S^2] (s^2) of the md1 disk's service time, comma-separated")
    ap.add_argument("--no-plots", action="store_true", help="write the CSV only")
    a = ap.parse_args(argv)
    return guard("raid_sweep", lambda: sweep(a))


def sweep(a: argparse.Namespace) -> int:
    if not a.no_plots:
        require("raid_sweep", "matplotlib", "drawing the figures (or --no-plots)")
    EXTRA_SETS.extend(a.set)
    if a.moments:
        MOMENTS[:] = [float(x) for x in a.moments.split(",")]
    os.makedirs(a.out, exist_ok=True)
    pts = list(points(a.quick, a.measured))
    rows = engine.run_all(run, [(a.fcal_sim, p) for p in pts], a.jobs)
    write_csv(rows, os.path.join(a.out, "raid_sweep.csv"), FIELDS)
    if not a.no_plots:
        plot(rows, a.out)
    for r in rows:
        print(",".join(str(r[k]) for k in FIELDS))
    return 0
