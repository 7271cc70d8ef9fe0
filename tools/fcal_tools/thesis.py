"""Reproduces the thesis's chapter 5 and 6 experiments (experiments/*.toml) and writes docs/thesis/:
one figure per [[plot]] of each spec, the summaries (data/*.csv), and README.md, which puts fcal's
numbers beside the ones the thesis prints (Tables 5.1, 5.2, 6.5 and numbers in its prose) with the
differences.

  python3 tools/sweep_thesis.py [--jobs N | --scheduler tcp://HOST:PORT] [--only NAME]... [--no-run]
                                [--figures-only] [--allow-mixed-builds]

Runs go through the sweep tool (tools/sweep), into out/thesis/<spec>/ (resumable: run it again after
an interruption and it continues). --no-run only redraws from the summaries already there (or, for a
spec never run here, from docs/thesis/data/<spec>.csv); --figures-only redraws only the figures, from
docs/thesis/data/, and leaves the page as it is. A spec that uses a key this fcal-sim does not know is
skipped and listed as such on the page.
"""
from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from typing import Any

from .cli import guard
from .sim import DEFAULT_FCAL_SIM, ROOT, SimError, list_params
from .sweep import plot as sweep_plot
from .sweep import spec as sweep_spec
from .sweep.check import fcal_sim_exists
from .units import Units

# ---- What the thesis prints -------------------------------------------------------------------------
SIZES_5 = [2048, 4096, 8192, 16384, 32768, 65536, 131072]
# Table 5.1 (reads) and 5.2 (writes): loop rounds per I/O, the analysis's response-time growth per added
# node (ns) and the thesis's simulated growth; one incoming buffer, Login_BB_Credit 0, 1GFC.
TABLE_5_1: dict[str, list[Any]] = dict(rounds=[6, 7, 9, 13, 21, 37, 69], analysis=[1355, 1581, 2033, 2936, 4744, 8358, 15586],
                 simulation=[1355.28, 1581.16, 2032.91, 2936.48, 4743.54, 8357.61, 15585.97])
TABLE_5_2: dict[str, list[Any]] = dict(rounds=[8, 9, 11, 15, 23, 39, 71], analysis=[1807, 2033, 2485, 3388, 5195, 8809, 16038],
                 simulation=[1807.06, 2032.94, 2484.71, 3388.24, 5195.29, 8809.41, 16037.65])
PER_NODE_NS_1GFC = 6 * 40 / 1.0625  # one repeating port's delay at 1GFC: 225.88 ns

SIZES_6 = [1024 << k for k in range(11)]
# Table 6.5: data throughput (MB/s), NORMAL and CMDF, for pure read, pure write and 66 % read.
TABLE_6_5 = {
    "read": [(7.32, 7.32), (14.47, 14.47), (28.29, 28.29), (54.13, 54.13), (75.66, 98.1), (102.56, 165.09),
             (117.72, 193.14), (134.22, 194.09), (144.33, 194.57), (149.98, 194.82), (152.97, 194.94)],
    "write": [(7.27, 7.27), (14.37, 14.37), (27.97, 27.97), (53.18, 53.18), (96.62, 97.81), (163.09, 161.5),
              (182.93, 183.63), (186.07, 186.43), (187.42, 187.42), (188.23, 188.23), (188.57, 188.57)],
    "66% read": [(7.31, 7.31), (14.44, 14.44), (28.21, 28.21), (53.86, 53.86), (74.26, 99.05), (107.54, 157.69),
                 (146.05, 190.66), (162.0, 192.19), (176.0, 192.81), (183.59, 192.9), (186.37, 193.03)],
}

ORDER = ["ch5_one_to_one", "ch5_one_to_one_thesis", "ch5_nodes", "ch5_buffers", "ch5_distance", "ch6_baseline",
         "ch6_read_fraction", "ch6_access_time", "ch6_disks", "ch6_queue_depth", "ch6_queue_depth_thesis",
         "ch6_random_access", "analysis_cmdf_levels"]
# The specs that rerun one of the above with the settings that reproduce the thesis's disk, HBA and host
# (docs/disk.md, "Concurrent commands", docs/hba.md, "Single-frame transfers", docs/hba.md,
# "Outstanding commands per disk"), and how their rows are marked.
THESIS_SETTINGS = {
    "ch5_one_to_one_thesis": " (disk.max_concurrent=4, driver.disk_outstanding=4)",
    "ch6_queue_depth_thesis": " (disk.max_concurrent=4, initiator.sft_engine=own)",
}


def size_label(b: Any) -> str:
    b = int(float(b))
    return f"{b // 1048576} MiB" if b >= 1048576 and b % 1048576 == 0 else (f"{b // 1024} KiB" if b >= 1024 else f"{b} B")


def pct(a: float, b: float) -> float:
    return (a / b - 1) * 100 if b else float("nan")


# ---- Running ----------------------------------------------------------------------------------------
def unknown_keys(spec: sweep_spec.Spec, keys: set[str]) -> list[str]:
    used: set[str] = set()
    for p in spec.points():
        used.update(k for k, _ in spec.settings(p))
    return sorted(used - keys)


def run_spec(path: str, out: str, args: argparse.Namespace) -> None:
    cmd = [sys.executable, os.path.join(ROOT, "tools", "sweep"), "run", path, "--out", out]
    if args.scheduler:
        cmd += ["--scheduler", args.scheduler]
    elif args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    if args.fcal_sim:
        cmd += ["--fcal-sim", args.fcal_sim]
    if args.allow_mixed_builds:
        cmd.append("--allow-mixed-builds")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out + ".log", "w") as log:  # the progress and the closing "N runs in X s" line
        rc = subprocess.run(cmd, stderr=log).returncode
    with open(out + ".log") as log:
        print(log.read().strip().splitlines()[-1], file=sys.stderr)
    if rc not in (0, 1):  # 1: some runs failed; they are recorded and reported on the page
        raise SystemExit(f"sweep_thesis: {os.path.basename(path)} stopped with exit code {rc}")


def read_rows(path: str) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# ---- Comparisons ------------------------------------------------------------------------------------
class Compared:
    """Every thesis number put beside fcal's, for the closing list."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, where: str, what: str, thesis: float | None, fcal: float | None, unit: str = "",
            bound: str | None = None) -> None:
        """bound: "upper" or "lower" when the thesis states a limit rather than a value."""
        if fcal is None or thesis is None:
            return
        diff = pct(fcal, thesis) if thesis else float("nan")
        met = None
        if bound:
            met = fcal <= thesis if bound == "upper" else fcal >= thesis
            diff = float("nan")  # a limit met is no difference; one missed is listed as such
        self.items.append(dict(where=where, what=what, thesis=thesis, fcal=fcal, unit=unit, diff=diff, bound=bound, met=met))


def pick(rows: list[dict[str, str]], **match: Any) -> dict[str, str] | None:
    for r in rows:
        if all(str(r.get(k)) == str(v) for k, v in match.items()):
            return r
    return None


def num(r: dict[str, str] | None, k: str) -> Any:
    try:
        return float(r[k])  # type: ignore[index]  # (None: a TypeError, caught)
    except (TypeError, KeyError, ValueError):
        return None


def slope(points: list[tuple[Any, Any]]) -> float | None:
    """Least-squares slope of y over x."""
    n = len(points)
    if n < 2:
        return None
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else None


def table_5x(rows: list[dict[str, str]], rf: float, table: dict[str, list[Any]], name: str, cmp: Compared) -> str:
    lines = [f"| I/O | thesis rounds | fcal rounds | thesis analysis (ns/node) | thesis simulation (ns/node) | "
             "fcal (ns/node) | fcal - thesis simulation |", "|---|---|---|---|---|---|---|"]
    for i, size in enumerate(SIZES_5):
        pts = [(num(r, "loop.nodes"), num(r, "mean_response_us") * 1000) for r in rows
               if r.get("workload.io_size") == str(size) and r.get("workload.read_fraction") == str(rf)
               and num(r, "mean_response_us") is not None and num(r, "loop.nodes") >= 16]
        s = slope(pts)
        if s is None:
            lines.append(f"| {size_label(size)} | {table['rounds'][i]} | | {table['analysis'][i]} | "
                         f"{table['simulation'][i]} | (not run) | |")
            continue
        rounds = s / PER_NODE_NS_1GFC
        cmp.add(name, f"{size_label(size)}: growth per added node (ns)", table["simulation"][i], s, "ns")
        cmp.add(name, f"{size_label(size)}: loop rounds", table["rounds"][i], rounds)
        lines.append(f"| {size_label(size)} | {table['rounds'][i]} | {rounds:.2f} | {table['analysis'][i]} | "
                     f"{table['simulation'][i]} | {s:.2f} | {s - table['simulation'][i]:+.2f} ({pct(s, table['simulation'][i]):+.1f} %) |")
    return "\n".join(lines)


def table_6_5(rows: list[dict[str, str]], rate: str, cmp: Compared) -> tuple[str, list[Any]]:
    name = "Table 6.5" + ("" if rate == "2GFC" else f" at {rate}")
    lines = ["| I/O | type | thesis NORMAL | fcal normal | thesis CMDF | fcal cmdf | thesis gain | fcal gain | "
             "fcal unfair | fcal unfair gain |", "|---|---|---|---|---|---|---|---|---|---|"]
    worst = []
    for t, values in TABLE_6_5.items():
        for i, size in enumerate(SIZES_6):
            tn, tc = values[i]
            got = {}
            for arm in ("normal", "cmdf", "unfair"):
                r = pick(rows, rate=rate, type=t, arm=arm, **{"workload.io_size": size})
                got[arm] = (num(r, "mb_per_s"), num(r, "mb_per_s_ci95")) if r else (None, None)
            n, c, u = got["normal"][0], got["cmdf"][0], got["unfair"][0]

            def cell(v: float | None, ci: float | None) -> str:
                if v is None:
                    return "(not run)"
                return f"{v:.2f}" + (f" ± {ci:.2f}" if ci else "")
            cmp.add(name, f"{t} {size_label(size)} NORMAL (MB/s)", tn, n, "MB/s")
            cmp.add(name, f"{t} {size_label(size)} CMDF (MB/s)", tc, c, "MB/s")
            gain = pct(c, n) if n and c else None
            ugain = pct(u, n) if n and u else None
            lines.append(f"| {size_label(size)} | {t} | {tn:.2f} | {cell(*got['normal'])} | {tc:.2f} | {cell(*got['cmdf'])} | "
                         f"{pct(tc, tn):+.1f} % | {'' if gain is None else f'{gain:+.1f} %'} | {cell(*got['unfair'])} | "
                         f"{'' if ugain is None else f'{ugain:+.1f} %'} |")
            if gain is not None:
                worst.append((gain, t, size))
    return "\n".join(lines), worst


def prose(data: dict[str, list[dict[str, str]]], cmp: Compared) -> list[Any]:
    """Numbers the thesis states in its text; each is (where, claim, thesis value, fcal value, unit)."""
    out = []

    def add(where: str, claim: str, thesis: float, fcal: float | None, unit: str, note: str = "") -> None:
        out.append((where, claim, thesis, fcal, unit, note))
        bound = "upper" if note == "an upper bound" else "lower" if note == "a lower bound" else None
        cmp.add(where, claim, thesis, fcal, unit, bound)

    b = data.get("ch6_baseline")
    if b:
        r1 = pick(b, rate="2GFC", type="read", arm="normal", **{"workload.io_size": 1024})
        r32 = pick(b, rate="2GFC", type="read", arm="normal", **{"workload.io_size": 32768})
        if r1:
            add("6.3.1", "1 KiB reads: I/O throughput about 7.5 K IO/s", 7500, num(r1, "iops"), "IO/s")
        if r1 and r32:
            add("6.3.1", "32 KiB reads: IO/s about half of 1 KiB's", 0.5, num(r32, "iops") / num(r1, "iops"), "ratio")
        top = pick(b, rate="2.0 Gbaud", type="read", arm="cmdf", **{"workload.io_size": 1048576})
        top2 = pick(b, rate="2GFC", type="read", arm="cmdf", **{"workload.io_size": 1048576})
        if top:
            add("Table 6.5", "1 MiB CMDF reads at exactly 2 Gbaud (loop.baud_gbps=2.0)", 194.94, num(top, "mb_per_s"), "MB/s")
        if top2:
            add("Table 6.5", "1 MiB CMDF reads at 2GFC (2.125 Gbaud)", 194.94, num(top2, "mb_per_s"), "MB/s",
                "the thesis's loop ran at 2.0 Gbaud")
    d = data.get("ch6_disks")
    if d:
        r = pick(d, arm="normal", **{"workload.io_size": 4096, "disk.count": 48})
        if r:
            add("6.3.2.3", "4 KiB reads settle at about 90 MB/s around 48 disks", 90, num(r, "mb_per_s"), "MB/s")
        c32 = [num(x, "mb_per_s") for x in d if x.get("arm") == "cmdf" and x.get("workload.io_size") == "32768"]
        if c32:
            add("6.3.2.3", "32 KiB reads, CMDF: maximum about 195 MB/s", 195, max(c32), "MB/s")
        for disks in (2, 4):
            n = pick(d, arm="normal", **{"workload.io_size": 32768, "disk.count": disks})
            c = pick(d, arm="cmdf", **{"workload.io_size": 32768, "disk.count": disks})
            if n and c:
                add("6.3.2.3", f"32 KiB reads, {disks} disks: CMDF gains nothing (below 8 disks)", 0.0,
                    pct(num(c, "mb_per_s"), num(n, "mb_per_s")), "% gain")
    for name in ("ch6_queue_depth", "ch6_queue_depth_thesis"):
        q = data.get(name)
        if not q:
            continue
        marked = THESIS_SETTINGS.get(name, "")
        r = pick(q, arm="normal", **{"workload.io_size": 4096, "workload.queue_depth": 16})
        if r:
            add("6.3.2.4", "4 KiB reads, deep queues: limited to about 88 MB/s (22 K IO/s)" + marked, 88, num(r, "mb_per_s"), "MB/s")
        for qd in (8, 16):
            n = pick(q, arm="normal", **{"workload.io_size": 32768, "workload.queue_depth": qd})
            c = pick(q, arm="cmdf", **{"workload.io_size": 32768, "workload.queue_depth": qd})
            if n and c:
                add("6.3.2.4", f"32 KiB reads, queue depth {qd}: no CMDF benefit beyond depth 6" + marked, 0.0,
                    pct(num(c, "mb_per_s"), num(n, "mb_per_s")), "% gain")
    dist = data.get("ch5_distance")
    if dist:
        r = pick(dist, **{"workload.io_size": 2048, "loop.length_m": 100000.0})
        if r:
            add("5.2.3", "100 km, 2 KiB reads: fewer than 700 IO/s", 700, num(r, "iops"), "IO/s", "an upper bound")
            add("5.2.3", "100 km, 2 KiB reads: less than 1.4 MB/s", 1.4, num(r, "mb_per_s"), "MB/s", "an upper bound")
        r = pick(dist, **{"workload.io_size": 2097152, "loop.length_m": 100000.0})
        if r:
            add("5.2.3", "100 km, 2 MiB reads, 4 buffers: about 18 MB/s", 18, num(r, "mb_per_s"), "MB/s")
    buf = data.get("ch5_buffers") or []
    if buf:
        def thr(b: int, n: int, credit: int = 0, size: int = 131072) -> float | None:
            r = pick(buf, part="fig5.9", **{"workload.io_size": size, "loop.nodes": n, "initiator.incoming_buffers": b,
                                            "initiator.login_bb_credit": credit})
            return num(r, "mb_per_s") if r else None
        t1: list[Any] = [thr(1, n) for n in (2, 60)]
        t2: list[Any] = [thr(2, n) for n in (2, 60)]
        if None not in t1 + t2 and t1[0] != t1[1]:
            add("5.2.2", "128 KiB reads, 60 nodes: 2 buffers lose about 1/10 of what 1 buffer loses from 2 nodes", 0.1,
                (t2[0] - t2[1]) / (t1[0] - t1[1]), "ratio")
        nodes = sorted({int(num(r, "loop.nodes")) for r in buf if r.get("part") == "fig5.9"})
        series = [(n, thr(2, n)) for n in nodes]
        knee = next((n for (p, tp), (n, tn) in zip(series, series[1:]) if tp and tn and tn < 0.98 * tp), None)
        if knee:
            add("5.2.2", "2 buffers, 128 KiB reads: throughput falls from about 90 nodes (RT > one frame time)", 90, knee,
                "nodes", "first node count of the grid 2 % below the one before")
    for name in ("ch5_one_to_one", "ch5_one_to_one_thesis"):
        one = data.get(name)
        if not one:
            continue
        marked = THESIS_SETTINGS.get(name, "")
        r4 = pick(one, part="fig5.6", type="read", **{"workload.io_size": 131072, "workload.queue_depth": 4})
        r32 = pick(one, part="fig5.6", type="read", **{"workload.io_size": 131072, "workload.queue_depth": 32})
        if r4 and r32:
            add("5.2.1", "no gain beyond queue depth 4 (the disk takes 4 commands): 128 KiB reads, QD 32 / QD 4" + marked, 1.0,
                num(r32, "mb_per_s") / num(r4, "mb_per_s"), "ratio")
        if marked:
            # Every curve of Fig. 5.6: the QD 32 / QD 4 ratio furthest from 1.
            ratios = []
            for r in one:
                if r.get("part") == "fig5.6" and r.get("workload.queue_depth") == "32":
                    r4 = pick(one, part="fig5.6", type=r.get("type"),
                              **{"workload.io_size": r.get("workload.io_size"), "workload.queue_depth": 4})
                    if num(r, "mb_per_s") and num(r4, "mb_per_s"):
                        ratios.append(num(r, "mb_per_s") / num(r4, "mb_per_s"))
            if ratios:
                add("5.2.1", "no gain beyond queue depth 4: the QD 32 / QD 4 ratio of Fig. 5.6's curves furthest from 1" + marked,
                    1.0, max(ratios, key=lambda x: abs(x - 1)), "ratio")
        h = pick(one, part="fig5.5", type="50% read", **{"workload.io_size": 524288, "workload.queue_depth": 32})
        m = pick(one, part="fig5.5", type="66% read", **{"workload.io_size": 524288, "workload.queue_depth": 32})
        if h and m:
            add("5.2.1", "QD 32: 66 % reads slightly above 50 % reads (512 KiB: 66 % / 50 %)" + marked, 1.0,
                num(m, "mb_per_s") / num(h, "mb_per_s"), "ratio", "a lower bound")
        if m:
            add("5.2.1", "66 % read, QD 32, large I/O: above 100 MB/s (full duplex)" + marked, 100, num(m, "mb_per_s"), "MB/s",
                "a lower bound")
    return out


def gains_section(data: dict[str, list[dict[str, str]]]) -> str:
    """CMDF against both other arms over every chapter 6 point: how often it wins, loses, and by how much."""
    lines = []
    for name in ("ch6_baseline", "ch6_read_fraction", "ch6_access_time", "ch6_disks", "ch6_queue_depth", "ch6_queue_depth_thesis",
                 "ch6_random_access"):
        rows = data.get(name)
        if not rows:
            continue
        keyed: dict[Any, dict[str | None, Any]] = {}
        constant = {k for k in rows[0] if len({r.get(k) for r in rows}) == 1}
        for r in rows:
            key = tuple((k, v) for k, v in r.items() if k not in ("arm", "schedule", "initiator.fair", "runs", "failed")
                        and not k.endswith("_ci95") and k not in ("mb_per_s", "iops", "mean_response_us", "p99_response_us",
                                                                   "command_wait_mean_us"))
            keyed.setdefault(key, {})[r.get("arm")] = num(r, "mb_per_s")
        vs_n: list[Any] = []
        vs_u: list[Any] = []
        u_vs_n: list[Any] = []
        for key, arms in keyed.items():
            n, c, u = arms.get("normal"), arms.get("cmdf"), arms.get("unfair")
            if n and c:
                vs_n.append((pct(c, n), dict(key)))
            if u and c:
                vs_u.append((pct(c, u), dict(key)))
            if u and n:
                u_vs_n.append((pct(u, n), dict(key)))

        def describe(vals: list[Any], label: str) -> str:
            if not vals:
                return f"{label}: (no pairs)"
            best = max(vals, key=lambda v: v[0])
            worst = min(vals, key=lambda v: v[0])
            win = sum(1 for v in vals if v[0] > 1.0)
            lose = sum(1 for v in vals if v[0] < -1.0)

            def where(k: dict[str, str]) -> str:
                return ", ".join(f"{a}={b}" for a, b in k.items()
                                 if a not in ("part", "loop.baud_gbps", "workload.read_fraction") and a not in constant and b != "") or "-"
            return (f"{label}: better by > 1 % at {win} of {len(vals)} points, worse by > 1 % at {lose}; "
                    f"largest gain {best[0]:+.1f} % ({where(best[1])}), largest loss {worst[0]:+.1f} % ({where(worst[1])})")
        lines.append(f"- **{name}**")
        lines.append(f"  - {describe(vs_n, 'CMDF vs normal')}")
        lines.append(f"  - {describe(vs_u, 'CMDF vs unfair')}")
        lines.append(f"  - {describe(u_vs_n, 'unfair vs normal')}")
    return "\n".join(lines)


# ---- The page ---------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--scheduler")
    ap.add_argument("--fcal-sim")
    ap.add_argument("--only", action="append", default=[], help="only this spec (name without .toml); repeatable")
    ap.add_argument("--no-run", action="store_true", help="only redraw from results already there")
    ap.add_argument("--figures-only", action="store_true", help="only redraw the figures from docs/thesis/data")
    ap.add_argument("--allow-mixed-builds", action="store_true",
                    help="resume sweeps whose runs.csv has rows of another fcal-sim build")
    ap.add_argument("--runs", default=os.path.join(ROOT, "out", "thesis"), help="where the sweeps keep their results")
    ap.add_argument("--docs", default=os.path.join(ROOT, "docs", "thesis"))
    a = ap.parse_args(argv)

    def run() -> int:
        try:
            return thesis(a)
        except KeyboardInterrupt:
            print(f"\nsweep_thesis: interrupted (SIGINT); the runs recorded so far stay in {a.runs}: run the same "
                  "command again to resume", file=sys.stderr)
            return 130
    return guard("sweep_thesis", run)


def figures_of(name: str, spec: sweep_spec.Spec, rows: list[dict[str, str]], docs: str,
               units: Units) -> list[tuple[str, str]]:
    """Draws the figures of one spec into docs/; (title, PNG name) of each."""
    figures = []
    for i, fig in enumerate(spec.figures):
        png = f"{name}_{i + 1}.png"
        try:
            sweep_plot.draw_figure(rows, fig, os.path.join(docs, png), units)
            figures.append((fig.title or png, png))
        except ValueError as e:
            print(f"sweep_thesis: {name}: {e}", file=sys.stderr)
    return figures


def thesis(a: argparse.Namespace) -> int:
    fcal_sim = a.fcal_sim or DEFAULT_FCAL_SIM
    params = None
    if fcal_sim_exists(fcal_sim):
        try:
            params = list_params(fcal_sim)
        except SimError as e:
            print(f"sweep_thesis: warning: {e}", file=sys.stderr)
    keys = {p.key for p in params} if params is not None else None
    units = Units(params or [])
    os.makedirs(os.path.join(a.docs, "data"), exist_ok=True)
    if a.figures_only:
        for name in ORDER:
            kept = os.path.join(a.docs, "data", name + ".csv")
            if os.path.exists(kept):
                figures_of(name, sweep_spec.load(os.path.join(ROOT, "experiments", name + ".toml")), read_rows(kept),
                           a.docs, units)
        return 0

    specs: dict[str, sweep_spec.Spec] = {}
    skipped: dict[str, list[str]] = {}
    data: dict[str, list[dict[str, str]]] = {}
    status: dict[str, str] = {}
    for name in ORDER:
        path = os.path.join(ROOT, "experiments", name + ".toml")
        if not os.path.exists(path):
            continue
        spec = sweep_spec.load(path)
        specs[name] = spec
        missing = unknown_keys(spec, keys) if keys is not None else []
        if missing:
            skipped[name] = missing
            continue
        out = os.path.join(a.runs, name)
        if not a.no_run and (not a.only or name in a.only):
            run_spec(path, out, a)
        summary = os.path.join(out, "summary.csv")
        kept = os.path.join(a.docs, "data", name + ".csv")
        if os.path.exists(summary):
            rows = read_rows(summary)
            if any(int(r["runs"]) > 0 for r in rows):
                with open(summary) as src, open(kept, "w") as dst:
                    dst.write(src.read())
        if os.path.exists(kept):
            data[name] = read_rows(kept)
            runs = sum(int(r["runs"]) for r in data[name])
            failed = sum(int(r["failed"]) for r in data[name])
            points = sum(1 for r in data[name] if int(r["runs"]) > 0)
            status[name] = f"{points} of {len(data[name])} points, {runs} runs ({failed} failed)"
            log = os.path.join(a.runs, name + ".log")
            if os.path.exists(log):  # the wall time of the last session that ran it
                last = [l for l in open(log).read().splitlines() if " runs in " in l]
                if last:
                    status[name] += "; last session: " + last[-1].split(": ", 1)[1].split(";")[0]

    figures = {}
    for name, rows in data.items():
        drawn = figures_of(name, specs[name], rows, a.docs, units)
        if drawn:
            figures[name] = drawn

    cmp = Compared()
    page = ["# The thesis, reproduced",
            "",
            "Generated by `python3 tools/sweep_thesis.py` from the sweep specs in `experiments/` (see docs/sweeps.md,",
            "\"Sweeps\"); do not edit by hand. Every number here comes from fcal-sim runs; the thesis's numbers are",
            "the ones it prints (Tables 5.1, 5.2, 6.5 and its prose). Bands and ± are 95 % confidence intervals",
            "over seeds (Student t); with fixed-time disks pure reads are deterministic, so one seed is used there.",
            "Where and why fcal and the thesis differ, and what the Command-First levels do one by one:",
            "[findings.md](findings.md) (written by hand from these runs).",
            "",
            "## What was run",
            "",
            "| spec | what | status |", "|---|---|---|"]
    for name, spec in specs.items():
        st = status.get(name) or (f"skipped: this fcal-sim has no {', '.join(skipped[name])}" if name in skipped else "not run")
        page.append(f"| [`{name}`](../../experiments/{name}.toml) | {spec.description} | {st} |")
    page += ["", "Chapter 5's overheads are the thesis's \"small\": every HBA overhead 1 us, disk access 10 us and",
             "1000 MB/s (the thesis gives no numbers). Chapter 6 uses fcal-sim's defaults, which are Tables 6.1-6.3.",
             "The specs ending in `_thesis` rerun a sweep with the options that reproduce the thesis's disk, HBA and",
             "host where fcal's defaults differ ([disk.md, \"Concurrent commands\"](../disk.md#concurrent-commands),",
             "[hba.md, \"Single-frame transfers\"](../hba.md#single-frame-transfers), [hba.md, \"Outstanding commands",
             "per disk\"](../hba.md#outstanding-commands-per-disk)); their rows below say so.", ""]

    if "ch5_nodes" in data:
        page += ["## Tables 5.1 and 5.2: response time per added node", "",
                 "Growth of the mean response time per added (passive) node, a least-squares slope over",
                 "loop.nodes = 16..126 at 1GFC with one incoming buffer and Login_BB_Credit 0; *rounds* is that slope",
                 f"divided by one port's delay ({PER_NODE_NS_1GFC:.2f} ns). From 16 nodes on the growth is constant; between",
                 "2 and 16 nodes reads grow a little more slowly (not investigated), so the fit starts at 16 nodes; the",
                 "thesis does not say which node counts it fitted.", "", "Reads (Table 5.1):", "",
                 table_5x(data["ch5_nodes"], 1.0, TABLE_5_1, "Table 5.1", cmp), "", "Writes (Table 5.2):", "",
                 table_5x(data["ch5_nodes"], 0.0, TABLE_5_2, "Table 5.2", cmp), "",
                 "Writes take two more rounds in fcal than in Table 5.2; see \"Write rounds\" below.", ""]
    worst_gain: list[Any] = []
    if "ch6_baseline" in data:
        for rate in ("2GFC", "2.0 Gbaud"):
            if not any(r.get("rate") == rate and int(r["runs"]) > 0 for r in data["ch6_baseline"]):
                continue
            text, worst = table_6_5(data["ch6_baseline"], rate, cmp)
            worst_gain += [(g, t, s, rate) for g, t, s in worst]
            page += [f"## Table 6.5: data throughput (MB/s), {rate}", "",
                     "Gain = CMDF over NORMAL. *unfair* is the standard unfair controller (schedule=normal,",
                     "initiator.fair=false), the third arm.", "", text, ""]
    notes = prose(data, cmp)
    if notes:
        page += ["## Numbers in the thesis's prose", "", "| section | the thesis says | thesis | fcal | unit | note |",
                 "|---|---|---|---|---|---|"]
        for where, claim, t, f, unit, note in notes:
            page.append(f"| {where} | {claim} | {t:g} | {'' if f is None else f'{f:.3g}'} | {unit} | {note} |")
        page.append("")
    g = gains_section(data)
    if g:
        page += ["## CMDF against both other arms", "", g, ""]
    if figures:
        page += ["## Figures", ""]
        for name, figs in figures.items():
            for title, png in figs:
                page += [f"### {title}", "", f"![{title}]({png})", ""]
    page += ["## Closing note: every thesis number compared", ""]
    if cmp.items:
        items = sorted(cmp.items, key=lambda i: -abs(i["diff"]) if i["diff"] == i["diff"] else 0)
        page += [f"{len(cmp.items)} numbers compared. Largest relative differences first:", "",
                 "| where | what | thesis | fcal | difference |", "|---|---|---|---|---|"]
        for i in items:
            d = i["diff"]
            diff = "" if d != d else f"{d:+.1f} %"
            if i["bound"]:
                diff = f"{i['bound']} bound {'met' if i['met'] else 'NOT met'}"
            page.append(f"| {i['where']} | {i['what']} | {i['thesis']:g} | {i['fcal']:.4g} | {diff} |")
    else:
        page.append("(nothing compared yet: no spec with thesis numbers has been run)")
    page.append("")
    with open(os.path.join(a.docs, "README.md"), "w") as f:
        f.write("\n".join(page))
    print(os.path.join(a.docs, "README.md"))
    return 0
