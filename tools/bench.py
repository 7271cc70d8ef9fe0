#!/usr/bin/env python3
"""Speed benchmark of fcal-sim (issue 11, "Speed"): prints a Markdown table, one row per scenario.

  python3 tools/bench.py [--fcal-sim PATH] [--reps N] [--quick] [--no-valgrind]

Scenarios (every other parameter at its default):
  baseline      no options (17-node loop, 16 disks, CMDF schedule)
  normal        schedule=normal
  64 disks      disk.count=64
  126 nodes     loop.nodes=126 (16 disks; the other ports only repeat)
  login credit  disk.count=8 target.login_bb_credit=4 target.incoming_buffers=4
                initiator.max_outstanding=1 workload.measured_ios=200

Columns:
  sim s            results.sim_time_s of the full run (simulated seconds; deterministic).
  wall s           results.wall_time_s, median over --reps runs (the simulator's own clock).
  sim s / wall s   simulated seconds per wall second: median over the reps of sim_time_s / wall_time_s.
  x real time      the same figure read as "times faster than real time" (below 1: slower).
  activations / frame
                   results.kernel.port_activations / results.kernel.frames_sent of the full run
                   (deterministic).
  allocs / frame   heap allocations per frame in steady state, from valgrind --tool=memcheck
                   ("total heap usage: N allocs"): a short run (workload.measured_ios=200, or 50 with
                   --quick) minus a tiny one (measured_ios=1, warmup_ios=0), divided by the difference in
                   results.kernel.frames_sent; start-up and tear-down cancel out.
  peak RSS MiB     maximum resident set size of the full run (/usr/bin/time -f %M, KiB / 1024), the
                   largest over the reps.
  instr / I/O      instructions per simulated I/O in steady state, from valgrind --tool=callgrind
                   (the "summary:" line of the output file): the same short run minus the same tiny
                   run, divided by the difference in results.completed_ios. Unlike seconds, this figure
                   does not depend on the load of a shared machine.
Below the table: the "memory flat" line (peak RSS of the baseline with workload.measured_ios scaled to
about 1 s and about 10 s simulated, from the baseline's simulated time per measured I/O and that of a run
with measured_ios=1) and the raw valgrind counts behind the two per-frame / per-I/O columns.

With --quick: one rep unless --reps is given, and the valgrind runs are shorter (measured_ios=50 with
warmup_ios=0, so they include the start of the workload). Without valgrind (or with --no-valgrind) the
two valgrind columns print "n/a". The timing runs are serial; the valgrind runs (instruction and
allocation counts do not depend on the load) use two processes at a time. The script judges nothing.
Standard library only.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

SCENARIOS = [
    ("baseline", []),
    ("normal", ["schedule=normal"]),
    ("64 disks", ["disk.count=64"]),
    ("126 nodes", ["loop.nodes=126"]),
    ("login credit", ["disk.count=8", "target.login_bb_credit=4", "target.incoming_buffers=4",
                      "initiator.max_outstanding=1", "workload.measured_ios=200"]),
]
TINY = ["workload.measured_ios=1", "workload.warmup_ios=0"]
TIME = "/usr/bin/time"


class SimError(RuntimeError):
    pass


def sim_args(fcal_sim, settings, stats):
    args = [fcal_sim, "--quiet", "--stats-json", stats]
    for s in settings:
        args += ["--set", s]
    return args


def env():
    return dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def check(proc, what):
    if proc.returncode != 0:
        raise SimError(f"{what} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")


def timed_run(fcal_sim, settings, tmp):
    """One full run: results dict and peak RSS in KiB (None without /usr/bin/time)."""
    args = sim_args(fcal_sim, settings, "-")
    rss_file = None
    if os.access(TIME, os.X_OK):
        fd, rss_file = tempfile.mkstemp(dir=tmp, suffix=".rss")
        os.close(fd)
        args = [TIME, "-f", "%M", "-o", rss_file] + args
    proc = subprocess.run(args, capture_output=True, text=True, env=env())
    check(proc, "fcal-sim " + (" ".join(settings) or "(defaults)"))
    results = json.loads(proc.stdout)["results"]
    rss = None
    if rss_file:
        with open(rss_file) as f:
            lines = [l for l in f.read().split() if l.isdigit()]
        rss = int(lines[-1]) if lines else None
    return results, rss


def valgrind_run(fcal_sim, tool, settings, tmp):
    """One run under valgrind: (count, results). count: heap allocations (memcheck) or instructions
    (callgrind)."""
    fd, log = tempfile.mkstemp(dir=tmp, suffix=".vglog")
    os.close(fd)
    fd, stats = tempfile.mkstemp(dir=tmp, suffix=".json")
    os.close(fd)
    args = ["valgrind", f"--tool={tool}", f"--log-file={log}"]
    if tool == "callgrind":
        fd, out = tempfile.mkstemp(dir=tmp, suffix=".callgrind")
        os.close(fd)
        args.append(f"--callgrind-out-file={out}")
    proc = subprocess.run(args + sim_args(fcal_sim, settings, stats), capture_output=True, text=True, env=env())
    check(proc, f"valgrind --tool={tool} fcal-sim " + " ".join(settings))
    with open(stats) as f:
        results = json.load(f)["results"]
    if tool == "memcheck":
        with open(log) as f:
            m = re.search(r"total heap usage:\s*([\d,]+)\s+allocs", f.read())
        if not m:
            raise SimError(f"no 'total heap usage' in the memcheck log {log}")
        return int(m.group(1).replace(",", "")), results
    count = None
    with open(out) as f:
        for line in f:
            for key in ("summary:", "totals:"):
                if line.startswith(key) and count is None:
                    count = int(line.split()[1])
    if count is None:
        raise SimError(f"no 'summary:' / 'totals:' line in the callgrind output {out}")
    return count, results


def fmt(x, digits=2):
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def mib(kib):
    return None if kib is None else kib / 1024.0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fcal-sim", default=os.path.join(here, "..", "build", "bin", "fcal-sim"))
    ap.add_argument("--reps", type=int, default=None, help="timing runs per scenario (default 3, 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="one rep, shorter valgrind runs")
    ap.add_argument("--no-valgrind", action="store_true", help="skip the two valgrind columns")
    a = ap.parse_args()
    reps = a.reps if a.reps is not None else (1 if a.quick else 3)
    if reps < 1:
        ap.error("--reps must be at least 1")
    fcal_sim = os.path.abspath(a.fcal_sim)
    if not os.access(fcal_sim, os.X_OK):
        ap.error(f"no executable fcal-sim at {fcal_sim}")
    have_vg = shutil.which("valgrind") is not None
    use_vg = have_vg and not a.no_valgrind
    short = ["workload.measured_ios=50", "workload.warmup_ios=0"] if a.quick else ["workload.measured_ios=200"]

    started = time.monotonic()
    notes = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="fcal-bench-") as tmp:
        # Timing runs, one at a time so that each has a core to itself.
        timing = {}
        for name, settings in SCENARIOS:
            try:
                runs = [timed_run(fcal_sim, settings, tmp) for _ in range(reps)]
            except (SimError, ValueError, KeyError) as e:
                timing[name] = e
                failed = True
                continue
            res = runs[0][0]
            ratios = [r["sim_time_s"] / r["wall_time_s"] for r, _ in runs if r["wall_time_s"] > 0]
            rss = [k for _, k in runs if k is not None]
            timing[name] = dict(
                sim=res["sim_time_s"],
                wall=statistics.median(r["wall_time_s"] for r, _ in runs),
                ratio=statistics.median(ratios) if ratios else None,
                apf=res["kernel"]["port_activations"] / res["kernel"]["frames_sent"] if res["kernel"]["frames_sent"] else None,
                rss=mib(max(rss)) if rss else None,
                run_end=res.get("run_end"),
            )
            if res.get("run_end") not in (None, "completed"):
                notes.append(f"{name}: run_end = {res.get('run_end')}")

        # Memory flat: the baseline scaled to about 1 s and 10 s simulated.
        flat = []
        base = timing.get("baseline")
        if isinstance(base, dict) and base["sim"] > 0:
            # Simulated time is about a + b * measured_ios (a: warm-up and cool-down); a from a run with
            # measured_ios=1, b from the baseline's 2000 measured I/Os.
            try:
                a_s = timed_run(fcal_sim, ["workload.measured_ios=1"], tmp)[0]["sim_time_s"]
            except (SimError, ValueError, KeyError):
                a_s = 0.0
            per_io = (base["sim"] - a_s) / 1999.0 if base["sim"] > a_s else base["sim"] / 2000.0
            for target in (1.0, 10.0):
                n = max(1, 1 + round((target - a_s) / per_io))
                try:
                    res, rss = timed_run(fcal_sim, [f"workload.measured_ios={n}"], tmp)
                    flat.append((target, n, res["sim_time_s"], res["wall_time_s"], mib(rss), res.get("run_end")))
                except (SimError, ValueError, KeyError) as e:
                    flat.append((target, n, None, None, None, str(e)))
                    failed = True

        # Valgrind runs: counts are deterministic, so two at a time.
        vg = {}
        if use_vg:
            jobs = {}
            with ThreadPoolExecutor(max_workers=2) as pool:
                for name, settings in SCENARIOS:
                    for tool in ("callgrind", "memcheck"):
                        for size, extra in (("short", short), ("tiny", TINY)):
                            jobs[(name, tool, size)] = pool.submit(valgrind_run, fcal_sim, tool, settings + extra, tmp)
                for key, fut in jobs.items():
                    try:
                        vg[key] = fut.result()
                    except (SimError, ValueError, KeyError, OSError) as e:
                        vg[key] = e
                        failed = True

    # Output.
    print(f"fcal-sim speed benchmark: {fcal_sim}")
    print(f"{reps} timing rep(s) per scenario (median), {os.cpu_count()} CPU(s)"
          + (", --quick" if a.quick else ""))
    if not have_vg:
        print("valgrind not found: allocs / frame and instr / I/O are skipped (n/a).")
    elif a.no_valgrind:
        print("--no-valgrind: allocs / frame and instr / I/O are skipped (n/a).")
    else:
        print(f"valgrind short run: {' '.join(short)}; tiny run: {' '.join(TINY)}; steady state = short - tiny.")
    if not os.access(TIME, os.X_OK):
        print(f"{TIME} not found (Debian package 'time'): peak RSS is skipped (n/a).")
    print()
    print("| scenario | sim s | wall s | sim s / wall s | x real time | activations / frame | allocs / frame "
          "| peak RSS MiB | instr / I/O |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    details = []
    for name, _ in SCENARIOS:
        t = timing[name]
        if not isinstance(t, dict):
            print(f"| {name} | error | | | | | | | |")
            notes.append(f"{name}: {t}")
            continue
        apf_alloc = ipio = None
        if use_vg:
            keys = [(name, tool, size) for tool in ("callgrind", "memcheck") for size in ("short", "tiny")]
            errs = [vg[k] for k in keys if isinstance(vg[k], Exception)]
            for e in errs:
                notes.append(f"{name}: {e}")
            if not errs:
                (ir_s, r_s), (ir_t, r_t) = vg[(name, "callgrind", "short")], vg[(name, "callgrind", "tiny")]
                (al_s, m_s), (al_t, m_t) = vg[(name, "memcheck", "short")], vg[(name, "memcheck", "tiny")]
                dio = r_s["completed_ios"] - r_t["completed_ios"]
                dfr = m_s["kernel"]["frames_sent"] - m_t["kernel"]["frames_sent"]
                ipio = (ir_s - ir_t) / dio if dio > 0 else None
                apf_alloc = (al_s - al_t) / dfr if dfr > 0 else None
                details.append(f"| {name} | {al_s:,} / {al_t:,} | {m_s['kernel']['frames_sent']:,} / "
                               f"{m_t['kernel']['frames_sent']:,} | {ir_s:,} / {ir_t:,} | "
                               f"{r_s['completed_ios']:,} / {r_t['completed_ios']:,} |")
        xrt = None if t["ratio"] is None else f"{t['ratio']:.1f}x"
        print(f"| {name} | {fmt(t['sim'], 3)} | {fmt(t['wall'], 3)} | {fmt(t['ratio'])} | {fmt(xrt)} "
              f"| {fmt(t['apf'])} | {fmt(apf_alloc)} | {fmt(t['rss'], 1)} | {fmt(ipio, 0)} |")
    print()
    if flat:
        parts = []
        for target, n, sim, wall, rss, end in flat:
            if sim is None:
                parts.append(f"~{target:g} s: error")
            else:
                extra = "" if end in (None, "completed") else f", run_end {end}"
                parts.append(f"~{target:g} s (measured_ios={n}: {sim:.2f} s simulated, {wall:.2f} s wall{extra}) "
                             f"{fmt(rss, 1)} MiB")
        print("Memory flat (baseline peak RSS): " + "; ".join(parts))
    else:
        print("Memory flat: skipped (no baseline run).")
    if details:
        print()
        print("Valgrind counts (short / tiny run):")
        print()
        print("| scenario | heap allocs | frames | instructions | completed I/Os |")
        print("|---|---:|---:|---:|---:|")
        for d in details:
            print(d)
    if notes:
        print()
        for n in notes:
            print(f"Note: {n}")
    print()
    print(f"Benchmark time: {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
