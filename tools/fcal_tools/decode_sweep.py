"""DECODE against conventional striping (issue 10): the DECODE paper's random-access case (a) in fcal-sim,
one CSV row per point and three PNG figures.

  python3 tools/decode_sweep.py [--out DIR] [--fcal-sim PATH] [--measured N] [--seeds N] [--jobs N] [--quick]
                                [--no-plots]

Set-up (docs/model.md, "DECODE"): 8 disks of configs/disks/decode_5400rpm.json in one RAID 0 volume with
8-sector (4 KiB) stripe units, the ideal transport (the paper studies the disks and the disk node, not
a network), a 10 MB file (workload.span_bytes = 10 x 2^20), random accesses of 1-64 sectors
(workload.io_size=512, workload.io_size_max=32K), reads:writes 3:1. Two applications, each at F KB/s
(KB = 1024 bytes), are one Poisson stream at the summed rate 2F x 1024 / 16 640 I/O per s (16 640
bytes = the mean of 1-64 sectors): the superposition of two independent Poisson streams with the
same access distribution is that stream.

Positioning: stochastic (every command draws its seek from the distance between two random sectors,
mean 12 ms: the paper's "average seek 12 ms"), and, to show the choice matters, physical (the 10 MB
file fills about one cylinder of each disk, so seeks are short and the rotation dominates).

Schemes:
  raid0        conventional striping, plain RAID 0
  conv_lay     conventional striping over DECODE's layout (free slots left empty), free fraction 1/8
  decode_a1/decode/decode_a100
               DECODE, free fraction 1/8 (one free slot per stripe group), equivalent area 1, 10, 100
  decode_ff25  DECODE, free fraction 1/4 (two per group), equivalent area 10
  decode_bare  DECODE as decode, the threshold test on the bare loads (decode.own_write=false)
  raid0_phys, conv_lay_phys, decode_a1_phys, decode_phys
               raid0, conv_lay, decode_a1 and decode with physical positioning

Figures: response.png (mean write and read response against F), area.png (DECODE's gain over raid0
at equivalent areas 1, 10, 100) and positioning.png (physical positioning). Points where the disks
are saturated (mean utilisation >= 0.99) have no steady state: their response grows with the run.
Standard library plus python3-matplotlib (Debian).
"""
from __future__ import annotations

import argparse
import os
from typing import Any

from . import engine
from .cli import guard, require
from .rows import write_csv
from .sim import SimError, Starter, run_sim

FREQS_KBS = (200, 300, 400, 500, 600, 650, 700, 750, 800, 1000)
MEAN_BYTES = 512 * (1 + 64) / 2  # 1-64 sectors, uniform
STOCHASTIC, PHYSICAL = "disk.positioning=stochastic", "disk.positioning=physical"
SCHEMES = {
    "raid0": [STOCHASTIC],
    "conv_lay": [STOCHASTIC, "decode.free_fraction=0.125"],
    "decode_a1": [STOCHASTIC, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=1"],
    "decode": [STOCHASTIC, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=10"],
    "decode_a100": [STOCHASTIC, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=100"],
    "decode_ff25": [STOCHASTIC, "volume.decode=true", "decode.free_fraction=0.25", "decode.area_units=10"],
    "decode_bare": [STOCHASTIC, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=10",
                    "decode.own_write=false"],
    "raid0_phys": [PHYSICAL],
    "conv_lay_phys": [PHYSICAL, "decode.free_fraction=0.125"],
    "decode_a1_phys": [PHYSICAL, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=1"],
    "decode_phys": [PHYSICAL, "volume.decode=true", "decode.free_fraction=0.125", "decode.area_units=10"],
}
FIELDS = ["scheme", "freq_kbs", "rate_iops", "seed", "read_mean_response_us", "write_mean_response_us",
          "mean_response_us", "mean_utilisation", "decode_relocations", "decode_in_place_writes", "member_ios",
          "sim_time_s", "wall_time_s"]


def rate_iops(freq_kbs: float) -> float:
    return 2 * freq_kbs * 1024 / MEAN_BYTES


def run(sim: str, drive: str, p: dict[str, Any], children: Starter | None = None) -> dict[str, Any]:
    sets = ["disk.count=8", "volume.raid=raid0", "volume.stripe_kib=4", "transport=ideal", "workload.type=open",
            "workload.rate_iops=%.9g" % rate_iops(p["freq_kbs"]), "workload.io_size=512", "workload.io_size_max=32K",
            "workload.span_bytes=%d" % (10 * 2**20), "workload.read_fraction=0.75",
            "workload.measured_ios=%d" % p["measured"], "workload.warmup_ios=%d" % (p["measured"] // 4),
            "workload.seed=%d" % p["seed"], "sim.time_limit_s=100000"] + SCHEMES[p["scheme"]]
    r = run_sim(sim, sets, config=drive, children=children).check().results
    if r["run_end"] != "completed":
        raise SimError("%s: run ended %s" % (p, r["run_end"]))
    row: dict[str, Any] = {k: p[k] for k in ("scheme", "freq_kbs", "seed")}
    row["rate_iops"] = rate_iops(p["freq_kbs"])
    for k in ("read_mean_response_us", "write_mean_response_us", "mean_response_us", "sim_time_s", "wall_time_s"):
        row[k] = r[k]
    row["mean_utilisation"] = sum(d["utilisation"] for d in r["disks"]) / len(r["disks"])
    v = r["volume"]
    row["member_ios"] = v["member_ios"]
    row["decode_relocations"] = v.get("decode_relocations", "")
    row["decode_in_place_writes"] = v.get("decode_in_place_writes", "")
    return row


def mean_by(rows: list[dict[str, Any]], scheme: str, key: str) -> dict[float, float]:
    """{freq: mean of key over seeds} for one scheme."""
    out = {}
    for f in sorted({r["freq_kbs"] for r in rows}):
        xs = [r[key] for r in rows if r["scheme"] == scheme and r["freq_kbs"] == f]
        if xs:
            out[f] = sum(xs) / len(xs)
    return out


def finish(fig: Any, ax: Any, path: str) -> None:
    """Legend, layout and the PNG."""
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def plot(rows: list[dict[str, Any]], out: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, key, name in ((axes[0], "write_mean_response_us", "WRITE"), (axes[1], "read_mean_response_us", "READ")):
        for scheme, style, label in (("raid0", "-o", "conventional (RAID 0)"),
                                     ("conv_lay", ":x", "conventional, DECODE's layout (1/8 free)"),
                                     ("decode", "-s", "DECODE, 1/8 free, area 10"),
                                     ("decode_ff25", "--^", "DECODE, 1/4 free, area 10"),
                                     ("decode_bare", "-.d", "DECODE, 1/8 free, area 10, bare loads")):
            m = mean_by(rows, scheme, key)
            ax.plot(list(m), [v / 1e3 for v in m.values()], style, label=label)
        ax.set_xlabel("access frequency per application (KB/s)")
        ax.set_ylabel("mean response time (ms)")
        ax.set_title("%s, 2 applications, 1-64 sectors, 8 disks" % name)
        ax.set_yscale("log")
        ax.grid(True, alpha=0.3, which="both")
    finish(fig, axes[0], os.path.join(out, "response.png"))

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    base_w, base_r = mean_by(rows, "raid0", "write_mean_response_us"), mean_by(rows, "raid0", "read_mean_response_us")
    # Only where conventional striping has a steady state (its disks not saturated).
    steady = [f for f, u in mean_by(rows, "raid0", "mean_utilisation").items() if u < 0.99]
    for scheme, area in (("decode_a1", 1), ("decode", 10), ("decode_a100", 100)):
        w, r = mean_by(rows, scheme, "write_mean_response_us"), mean_by(rows, scheme, "read_mean_response_us")
        fs = [f for f in w if f in steady]
        line, = ax.plot(fs, [100 * (1 - w[f] / base_w[f]) for f in fs], "-o", label="writes, area %d" % area)
        ax.plot(fs, [100 * (1 - r[f] / base_r[f]) for f in fs], "--", color=line.get_color(), marker="s",
                label="reads, area %d" % area)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("access frequency per application (KB/s)")
    ax.set_ylabel("faster than RAID 0 (%)")
    ax.set_title("DECODE (1/8 free): influence of the equivalent area\n(frequencies where RAID 0 is not saturated)", fontsize=10)
    ax.grid(True, alpha=0.3)
    finish(fig, ax, os.path.join(out, "area.png"))

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for scheme, marker, label in (("raid0_phys", "o", "conventional (RAID 0)"),
                                  ("conv_lay_phys", "x", "conventional, DECODE's layout"),
                                  ("decode_a1_phys", "v", "DECODE, area 1"),
                                  ("decode_phys", "s", "DECODE, area 10")):
        m = mean_by(rows, scheme, "read_mean_response_us")
        line, = ax.plot(list(m), [v / 1e3 for v in m.values()], marker=marker, linestyle="--", label="%s, reads" % label)
        m = mean_by(rows, scheme, "write_mean_response_us")
        ax.plot(list(m), [v / 1e3 for v in m.values()], marker=marker, linestyle="-", color=line.get_color(),
                label="%s, writes" % label)
    ax.set_xlabel("access frequency per application (KB/s)")
    ax.set_ylabel("mean response time (ms)")
    ax.set_title("Physical positioning (short seeks in the 10 MB file)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    finish(fig, ax, os.path.join(out, "positioning.png"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/decode")
    ap.add_argument("--fcal-sim", default="build/bin/fcal-sim")
    ap.add_argument("--drive", default="configs/disks/decode_5400rpm.json")
    ap.add_argument("--measured", type=int, default=20000, help="measured I/Os per point (warm-up: a quarter of it)")
    ap.add_argument("--seeds", type=int, default=2, help="seeds per point (the figures show their mean)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--quick", action="store_true", help="every other frequency")
    ap.add_argument("--no-plots", action="store_true", help="write the CSV only")
    a = ap.parse_args(argv)
    return guard("decode_sweep", lambda: sweep(a))


def sweep(a: argparse.Namespace) -> int:
    if not a.no_plots:
        require("decode_sweep", "matplotlib", "drawing the figures (or --no-plots)")
    os.makedirs(a.out, exist_ok=True)
    freqs = FREQS_KBS[::2] if a.quick else FREQS_KBS
    pts = [dict(scheme=s, freq_kbs=f, seed=seed, measured=a.measured)
           for s in SCHEMES for f in freqs for seed in range(1, a.seeds + 1)]
    rows = engine.run_all(run, [(a.fcal_sim, a.drive, p) for p in pts], a.jobs)
    write_csv(rows, os.path.join(a.out, "decode_sweep.csv"), FIELDS)
    if not a.no_plots:
        plot(rows, a.out)
    # Gains (% faster) against raid0 and against conventional striping over the same layout, same positioning.
    print("scheme,freq_kbs,read_ms,write_ms,read_gain_vs_raid0,write_gain_vs_raid0,read_gain_vs_conv_lay,write_gain_vs_conv_lay,utilisation")
    for s in SCHEMES:
        phys = "_phys" if s.endswith("_phys") else ""
        refs = [{k: mean_by(rows, ref + phys, k) for k in ("read_mean_response_us", "write_mean_response_us")}
                for ref in ("raid0", "conv_lay")]
        rd, wr = mean_by(rows, s, "read_mean_response_us"), mean_by(rows, s, "write_mean_response_us")
        ut = mean_by(rows, s, "mean_utilisation")
        for f in rd:
            gains: list[float] = []
            for ref in refs:
                gains += [100 * (1 - rd[f] / ref["read_mean_response_us"][f]), 100 * (1 - wr[f] / ref["write_mean_response_us"][f])]
            values: tuple[Any, ...] = (s, f, rd[f] / 1e3, wr[f] / 1e3, *gains, ut[f])
            print("%s,%d,%.2f,%.2f,%.1f,%.1f,%.1f,%.1f,%.2f" % values)
    return 0
