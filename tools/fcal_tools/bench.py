"""Speed benchmark of fcal-sim (issue 19, "Ten times real time by design"): prints Markdown tables.

  python3 tools/bench.py [--fcal-sim PATH] [--reps N] [--quick] [--no-valgrind] [--write docs/speed.md]

--write PAGE puts the main table into PAGE between its markers `<!-- bench.py: begin ...-->` and
`<!-- bench.py: end -->` (docs/speed.md carries them), replacing what was there, once the benchmark ends.

Scenarios (every other parameter at its default):
  baseline      no options (17-node loop, 16 disks, CMDF schedule, 64 KiB reads, queue depth 1)
  normal        schedule=normal
  64 disks      disk.count=64
  126 nodes     loop.nodes=126 (16 disks; the other ports only repeat)
  4 KiB QD 4    workload.io_size=4K workload.queue_depth=4
  writes        workload.read_fraction=0 (the baseline's 64 KiB I/Os, all writes)
  RAID 5 writes volume.raid=raid5 disk.count=8 workload.read_fraction=0 workload.io_size=16K
  login credit  disk.count=8 target.login_bb_credit=4 target.incoming_buffers=4 initiator.max_outstanding=1
                workload.measured_ios=200
  rtl           cmdf.impl=rtl (the baseline with the Verilated transmit queue)

Columns of the main table:
  x real time      simulated seconds per wall second: median over --reps runs (default 5, taken in
                   turn with the other scenarios' runs) of results.sim_time_s / results.wall_time_s of
                   the full run. The judged figure (issue 19's targets below the table).
  best x           the highest of those runs' ratios: what the machine gives when nothing disturbs a
                   run (on a shared virtual machine the median moves with the host's load; this moves
                   less). Not judged.
  wall s           median results.wall_time_s of those runs.
  instr / I/O      instructions per simulated I/O in steady state, from valgrind --tool=callgrind (the
                   "summary:" line): a short run (workload.measured_ios=200) minus a tiny one
                   (measured_ios=1), both after the scenario's default warm-up, divided by the difference
                   in results.completed_ios. Unlike seconds, this does not depend on the machine's load.
  instr / frame    the same instructions divided by the difference in results.kernel.frames_sent.
  port act / frame results.kernel.port_activations / results.kernel.frames_sent of the full run.
  kernel act / frame
                   activations of every SystemC method process (calls of
                   sc_core::sc_method_process::run_process in the callgrind profiles, short minus tiny)
                   per frame: the ports' and the HBAs', disks', driver's and timers'.
  allocs / frame   heap allocations per frame, from valgrind --tool=memcheck ("total heap usage: N
                   allocs"), the same short run minus the same tiny run: start-up, tear-down and the
                   pools' growth to their peak during the warm-up cancel out.
  MiB 1 s, MiB 10 s
                   peak resident set size (/usr/bin/time -f %M) of the scenario with measured_ios
                   scaled to about 1 s and about 10 s simulated.
Below it: instructions per I/O of the baseline at about 1 s and 10 s simulated (callgrind, each minus
the tiny run), the targets of issue 19 against these figures, and the raw valgrind counts.

With --quick: one rep unless --reps is given, the valgrind runs are shorter (measured_ios=20 and 1 with
warmup_ios=0, so the pools' growth is counted), and the 1 s / 10 s runs are made for the baseline only
(no callgrind at 1 s and 10 s). Without valgrind (or with --no-valgrind) the valgrind columns print
"n/a". The timing runs are serial and interleaved (round after round, one run of each scenario, after
one untimed run of the baseline); the valgrind runs use two processes at a time. The script judges
nothing (the targets table only compares). Standard library only.
"""
from __future__ import annotations

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
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from .cli import guard
from .page import check_page, write_between_markers
from .sim import DEFAULT_FCAL_SIM, SimError, SimRun, run_sim

SCENARIOS: list[tuple[str, list[str]]] = [
    ("baseline", []),
    ("normal", ["schedule=normal"]),
    ("64 disks", ["disk.count=64"]),
    ("126 nodes", ["loop.nodes=126"]),
    ("4 KiB QD 4", ["workload.io_size=4K", "workload.queue_depth=4"]),
    ("writes", ["workload.read_fraction=0"]),
    ("RAID 5 writes", ["volume.raid=raid5", "disk.count=8", "workload.read_fraction=0", "workload.io_size=16K"]),
    ("login credit", ["disk.count=8", "target.login_bb_credit=4", "target.incoming_buffers=4",
                      "initiator.max_outstanding=1", "workload.measured_ios=200"]),
    ("rtl", ["cmdf.impl=rtl"]),
]
TIME = "/usr/bin/time"
RUN_PROCESS = "sc_core::sc_method_process::run_process()"


def check(run: SimRun, what: str) -> None:
    if run.exit_code != 0:
        raise SimError(f"{what} failed ({run.exit_code}): {run.stderr.strip()[-2000:]}")


def timed_run(fcal_sim: str, settings: list[str], tmp: str) -> tuple[dict[str, Any], int | None]:
    """One full run: results dict and peak RSS in KiB (None without /usr/bin/time)."""
    prefix: list[str] = []
    rss_file = None
    if os.access(TIME, os.X_OK):
        fd, rss_file = tempfile.mkstemp(dir=tmp, suffix=".rss")
        os.close(fd)
        prefix = [TIME, "-f", "%M", "-o", rss_file]
    run = run_sim(fcal_sim, settings, prefix=prefix)
    check(run, "fcal-sim " + (" ".join(settings) or "(defaults)"))
    results: dict[str, Any] = json.loads(run.stdout)["results"]
    rss = None
    if rss_file:
        with open(rss_file) as f:
            lines = [l for l in f.read().split() if l.isdigit()]
        rss = int(lines[-1]) if lines else None
    return results, rss


def method_activations(callgrind_out: str) -> int | None:
    """Calls of sc_method_process::run_process in a callgrind profile (summed over its callers)."""
    proc = subprocess.run(["callgrind_annotate", "--tree=caller", callgrind_out], capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    for i, line in enumerate(lines):
        if re.search(r"\*\s+\S*:" + re.escape(RUN_PROCESS), line):
            total, j = 0, i - 1
            while j >= 0 and lines[j].strip():
                m = re.search(r"\(([\d,]+)x\)", lines[j])
                if m:
                    total += int(m.group(1).replace(",", ""))
                j -= 1
            return total
    return None


def valgrind_run(fcal_sim: str, tool: str, settings: list[str], tmp: str) -> tuple[int, dict[str, Any], int | None]:
    """One run under valgrind: (count, results, activations). count: heap allocations (memcheck) or
    instructions (callgrind); activations: method activations (callgrind only)."""
    fd, log = tempfile.mkstemp(dir=tmp, suffix=".vglog")
    os.close(fd)
    fd, stats = tempfile.mkstemp(dir=tmp, suffix=".json")
    os.close(fd)
    args = ["valgrind", f"--tool={tool}", f"--log-file={log}"]
    if tool == "callgrind":
        fd, out = tempfile.mkstemp(dir=tmp, suffix=".callgrind")
        os.close(fd)
        args.append(f"--callgrind-out-file={out}")
    run = run_sim(fcal_sim, settings, stats=stats, prefix=args)
    check(run, f"valgrind --tool={tool} fcal-sim " + " ".join(settings))
    if run.stats is None:
        raise ValueError(run.stats_error)
    results: dict[str, Any] = run.stats["results"]
    if tool == "memcheck":
        with open(log) as f:
            m = re.search(r"total heap usage:\s*([\d,]+)\s+allocs", f.read())
        if not m:
            raise SimError(f"no 'total heap usage' in the memcheck log {log}")
        return int(m.group(1).replace(",", "")), results, None
    count = None
    with open(out) as f:
        for line in f:
            for key in ("summary:", "totals:"):
                if line.startswith(key) and count is None:
                    count = int(line.split()[1])
    if count is None:
        raise SimError(f"no 'summary:' / 'totals:' line in the callgrind output {out}")
    activations = method_activations(out) if shutil.which("callgrind_annotate") else None
    return count, results, activations


def fmt(x: Any, digits: int = 2) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, str):
        return x
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def mib(kib: int | None) -> float | None:
    return None if kib is None else kib / 1024.0


def scaled_measured(res: dict[str, Any], settings: list[str], target_s: float) -> int:
    """measured_ios that makes a run of about target_s simulated seconds, from a full run's results:
    its simulated time per issued I/O, less the warm-up and cool-down it also issues."""
    per_io = res["sim_time_s"] / max(1, res["issued_ios"])
    extra = res["issued_ios"] - res["measured_ios"]
    return int(max(1, round(target_s / per_io) - extra))


def without_measured(settings: list[str]) -> list[str]:
    return [s for s in settings if not s.startswith("workload.measured_ios=")]


def with_measured(settings: list[str], n: int) -> list[str]:
    return without_measured(settings) + [f"workload.measured_ios={n}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--reps", type=int, default=None, help="timing runs per scenario (default 5, 1 with --quick)")
    ap.add_argument("--quick", action="store_true", help="one rep, shorter valgrind runs, 1 s / 10 s for the baseline only")
    ap.add_argument("--no-valgrind", action="store_true", help="skip the valgrind columns")
    ap.add_argument("--write", metavar="PAGE", help="put the main table into PAGE between its bench.py markers")
    a = ap.parse_args(argv)
    if a.write:
        try:
            check_page(a.write, "bench.py")
        except (OSError, ValueError) as e:
            ap.error(f"--write {a.write}: {e}")
    return guard("bench", lambda: bench(a, ap))


def bench(a: argparse.Namespace, ap: argparse.ArgumentParser) -> int:
    reps = a.reps if a.reps is not None else (1 if a.quick else 5)
    if reps < 1:
        ap.error("--reps must be at least 1")
    fcal_sim = os.path.abspath(a.fcal_sim)
    if not os.access(fcal_sim, os.X_OK):
        ap.error(f"no executable fcal-sim at {fcal_sim}")
    have_vg = shutil.which("valgrind") is not None
    use_vg = have_vg and not a.no_valgrind
    if a.quick:
        short, tiny = ["workload.measured_ios=20", "workload.warmup_ios=0"], ["workload.measured_ios=1", "workload.warmup_ios=0"]
    else:
        short, tiny = ["workload.measured_ios=200"], ["workload.measured_ios=1"]

    started = time.monotonic()
    notes: list[str] = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="fcal-bench-") as tmp:
        # Timing runs, one at a time so that each has a core to itself, and interleaved: round after
        # round, one run of each scenario, so that a spell in which the machine runs slow falls on
        # one run of several scenarios rather than on every run of one. An untimed run first brings
        # the program into the page cache.
        timing: dict[str, Any] = {}  # the figures of a scenario, or the exception that stopped it
        all_runs: dict[str, list[tuple[dict[str, Any], int | None]]] = {name: [] for name, _ in SCENARIOS}
        try:
            timed_run(fcal_sim, [], tmp)
        except (SimError, ValueError, KeyError):
            pass  # the baseline's own timed runs report it
        for _ in range(reps):
            for name, settings in SCENARIOS:
                if name in timing:
                    continue
                try:
                    all_runs[name].append(timed_run(fcal_sim, settings, tmp))
                except (SimError, ValueError, KeyError) as e:
                    timing[name] = e
                    failed = True
        for name, _ in SCENARIOS:
            if name in timing:
                continue
            runs = all_runs[name]
            res = runs[0][0]
            ratios = [r["sim_time_s"] / r["wall_time_s"] for r, _ in runs if r["wall_time_s"] > 0]
            k = res["kernel"]
            timing[name] = dict(
                res=res,
                wall=statistics.median(r["wall_time_s"] for r, _ in runs),
                ratio=statistics.median(ratios) if ratios else None,
                best=max(ratios) if ratios else None,
                apf=k["port_activations"] / k["frames_sent"] if k["frames_sent"] else None,
            )
            if res.get("run_end") not in (None, "completed"):
                notes.append(f"{name}: run_end = {res.get('run_end')}")

        # Peak memory at about 1 s and 10 s simulated.
        lengths: dict[tuple[str, float], tuple[int, float, float | None]] = {}
        for name, settings in SCENARIOS:
            t = timing.get(name)
            if not isinstance(t, dict) or (a.quick and name != "baseline"):
                continue
            for target in (1.0, 10.0):
                n = scaled_measured(t["res"], settings, target)
                try:
                    res, rss = timed_run(fcal_sim, with_measured(settings, n), tmp)
                    lengths[(name, target)] = (n, res["sim_time_s"], mib(rss))
                except (SimError, ValueError, KeyError) as e:
                    notes.append(f"{name} at ~{target:g} s: {e}")
                    failed = True

        # Valgrind runs: counts are deterministic, so two at a time.
        vg: dict[tuple[str, str, str], Any] = {}  # a run's (count, results, activations), or its exception
        if use_vg:
            jobs: dict[tuple[str, str, str], Future[tuple[int, dict[str, Any], int | None]]] = {}
            with ThreadPoolExecutor(max_workers=2) as pool:
                if not a.quick and isinstance(timing.get("baseline"), dict):
                    # The longest first: instructions per I/O of the baseline at about 10 s and 1 s.
                    for target in (10.0, 1.0):
                        n = scaled_measured(timing["baseline"]["res"], [], target)
                        jobs[("baseline", "callgrind", f"{target:g} s")] = pool.submit(
                            valgrind_run, fcal_sim, "callgrind", [f"workload.measured_ios={n}"], tmp)
                for name, settings in SCENARIOS:
                    for tool in ("callgrind", "memcheck"):
                        for size, extra in (("short", short), ("tiny", tiny)):
                            jobs[(name, tool, size)] = pool.submit(
                                valgrind_run, fcal_sim, tool, without_measured(settings) + extra, tmp)
                for key, fut in jobs.items():
                    try:
                        vg[key] = fut.result()
                    except (SimError, ValueError, KeyError, OSError) as e:
                        vg[key] = e
                        failed = True

    # Output.
    print(f"fcal-sim speed benchmark: {fcal_sim}")
    print(f"{reps} timing rep(s) per scenario (median), {os.cpu_count()} CPU(s)" + (", --quick" if a.quick else ""))
    if not have_vg:
        print("valgrind not found: the valgrind columns are skipped (n/a).")
    elif a.no_valgrind:
        print("--no-valgrind: the valgrind columns are skipped (n/a).")
    else:
        print(f"valgrind short run: {' '.join(short)}; tiny run: {' '.join(tiny)}; steady state = short - tiny.")
    if not os.access(TIME, os.X_OK):
        print(f"{TIME} not found (Debian package 'time'): peak memory is skipped (n/a).")
    print()
    table = ["| scenario | x real time | best x | wall s | instr / I/O | instr / frame | port act / frame "
             "| kernel act / frame | allocs / frame | MiB 1 s | MiB 10 s |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    details = []
    per_io = {}
    allocs = {}
    for name, _ in SCENARIOS:
        t = timing[name]
        if not isinstance(t, dict):
            table.append(f"| {name} | error | | | | | | | | | |")
            notes.append(f"{name}: {t}")
            continue
        ipio = ipf = kapf = apf_alloc = None
        if use_vg:
            keys = [(name, tool, size) for tool in ("callgrind", "memcheck") for size in ("short", "tiny")]
            errs = [vg[k] for k in keys if isinstance(vg[k], Exception)]
            for err in errs:
                notes.append(f"{name}: {err}")
            if not errs:
                (ir_s, r_s, act_s), (ir_t, r_t, act_t) = vg[(name, "callgrind", "short")], vg[(name, "callgrind", "tiny")]
                (al_s, m_s, _), (al_t, m_t, _) = vg[(name, "memcheck", "short")], vg[(name, "memcheck", "tiny")]
                dio = r_s["completed_ios"] - r_t["completed_ios"]
                dfr = r_s["kernel"]["frames_sent"] - r_t["kernel"]["frames_sent"]
                mfr = m_s["kernel"]["frames_sent"] - m_t["kernel"]["frames_sent"]
                ipio = (ir_s - ir_t) / dio if dio > 0 else None
                ipf = (ir_s - ir_t) / dfr if dfr > 0 else None
                if act_s is not None and act_t is not None and dfr > 0:
                    kapf = (act_s - act_t) / dfr
                apf_alloc = (al_s - al_t) / mfr if mfr > 0 else None
                per_io[name], allocs[name] = ipio, apf_alloc
                details.append(f"| {name} | {al_s:,} / {al_t:,} | {ir_s:,} / {ir_t:,} | "
                               f"{r_s['kernel']['frames_sent']:,} / {r_t['kernel']['frames_sent']:,} | "
                               f"{r_s['completed_ios']:,} / {r_t['completed_ios']:,} |")
        xrt = None if t["ratio"] is None else f"{t['ratio']:.1f}"
        best = None if t["best"] is None else f"{t['best']:.1f}"
        mem = [lengths.get((name, s)) for s in (1.0, 10.0)]
        table.append(f"| {name} | {fmt(xrt)} | {fmt(best)} | {fmt(t['wall'], 3)} | {fmt(ipio, 0)} | {fmt(ipf, 0)} | {fmt(t['apf'])} "
                     f"| {fmt(kapf)} | {fmt(apf_alloc)} | {fmt(mem[0][2] if mem[0] else None, 1)} "
                     f"| {fmt(mem[1][2] if mem[1] else None, 1)} |")
    print("\n".join(table))
    print()
    if lengths:
        print("Runs behind the memory columns (measured_ios -> simulated s): " + "; ".join(
            f"{name} {n} -> {sim:.2f}" for (name, _), (n, sim, _) in sorted(lengths.items(), key=lambda kv: kv[0])))
    # Instructions per I/O of the baseline at about 1 s and 10 s.
    flat = None
    if use_vg and ("baseline", "callgrind", "1 s") in vg:
        tiny_run = vg.get(("baseline", "callgrind", "tiny"))
        parts: list[Any] = []
        for length in ("1 s", "10 s"):
            run = vg[("baseline", "callgrind", length)]
            if isinstance(run, Exception) or isinstance(tiny_run, Exception) or tiny_run is None:
                parts.append(f"~{length}: error")
                continue
            dio = run[1]["completed_ios"] - tiny_run[1]["completed_ios"]
            parts.append((length, (run[0] - tiny_run[0]) / dio, run[1]["sim_time_s"]))
        if all(isinstance(p, tuple) for p in parts):
            flat = parts[1][1] / parts[0][1]
            print(f"Instructions per I/O of the baseline: {parts[0][1]:,.0f} at {parts[0][2]:.2f} s simulated, "
                  f"{parts[1][1]:,.0f} at {parts[1][2]:.2f} s (ratio {flat:.3f}).")
        else:
            print("Instructions per I/O of the baseline at 1 s / 10 s: " + "; ".join(map(str, parts)))

    # The targets of issue 19, against the figures above.
    def ratio(name: str) -> float | None:
        t = timing.get(name)
        return t["ratio"] if isinstance(t, dict) else None

    def ipio_of(name: str) -> float | None:
        return per_io.get(name)

    def cmp(value: float | None, limit: float | None, above: bool) -> str:
        if value is None or limit is None:
            return "n/a"
        return "met" if (value >= limit if above else value <= limit) else "not met"

    rows = [("baseline x real time", fmt(ratio("baseline"), 1), ">= 10", cmp(ratio("baseline"), 10, True)),
            ("baseline instructions / I/O", fmt(ipio_of("baseline"), 0), "<= 350,000", cmp(ipio_of("baseline"), 350000, False)),
            ("64 disks x real time", fmt(ratio("64 disks"), 1), ">= 5", cmp(ratio("64 disks"), 5, True))]
    for name, limit, what in (("64 disks", 1.2, "64 disks / baseline instructions per I/O"),
                              ("126 nodes", 1.5, "126 nodes / baseline instructions per I/O"),
                              ("rtl", 3.0, "rtl / baseline instructions per I/O")):
        ipio, base = ipio_of(name), ipio_of("baseline")
        r = ipio / base if ipio and base else None
        rows.append((what, fmt(r), f"<= {limit}", cmp(r, limit, False)))
    worst = max(allocs.values()) if allocs else None
    rows.append(("allocations / frame (largest)", fmt(worst, 3), "0", cmp(worst, 0.0, False)))
    mem_1, mem_10 = (lengths.get(("baseline", s)) for s in (1.0, 10.0))
    mem_ratio = mem_10[2] / mem_1[2] if mem_1 and mem_10 and mem_1[2] and mem_10[2] else None
    rows.append(("baseline peak memory 10 s / 1 s", fmt(mem_ratio, 3), "<= 1.02", cmp(mem_ratio, 1.02, False)))
    rows.append(("baseline instructions / I/O 10 s / 1 s", fmt(flat, 3), "<= 1.02", cmp(flat, 1.02, False)))
    print()
    print("| target (issue 19) | measured | goal | |")
    print("|---|---:|---:|---|")
    for target_row in rows:
        print("| " + " | ".join(target_row) + " |")
    if details:
        print()
        print("Valgrind counts (short / tiny run):")
        print()
        print("| scenario | heap allocs | instructions | frames (callgrind runs) | completed I/Os |")
        print("|---|---:|---:|---:|---:|")
        for d in details:
            print(d)
    if notes:
        print()
        for note in notes:
            print(f"Note: {note}")
    print()
    print(f"Benchmark time: {time.monotonic() - started:.0f} s")
    if a.write:
        write_between_markers(a.write, table, "bench.py")
        print(f"table written to {a.write}")
    return 1 if failed else 0
