"""Random fault events close together: how do the runs end?

  python3 tools/fault_probe.py [--runs N] [--seed S] [--fcal-sim PATH] [--reference OLD_FCAL_SIM]
                               [--traced] [--jobs N]

Each run is the closed workload of 64 KiB I/Os on 2 to 4 disks (read fraction, queue depth and the enclosure's
detection time drawn at random), 20 measured I/Os after 5 of warm-up, with 1 to 6 events at a time between
0.5 and 3 ms, most of them in one instant or a tenth of a microsecond to a microsecond apart, some up to 50 us:
`lip` from the controller or a disk, `remove`, `bypass` then `enable`, each one the disk's state at its time
allows (docs/faults.md, "Scheduled events"; no `insert`: fcal-sim refuses one before the enclosure has
closed the empty slot's bypass, loop.bypass_detect_us, 100 us or more, later). Run S of a probe is the same on
every machine.

Every run is counted by how it ends:
  completed        exit 0: every I/O completed or failed with a reason, every initialization complete
  after E_D_TOV    the same, but an initialization took E_D_TOV (2 s) or more to complete
  time limit       exit 1 at sim.time_limit_s (9 s) with I/Os outstanding (those to a disk pulled retry
                   for about 200 s each, docs/faults.md)
  init incomplete  an initialization still incomplete when the run ended
  refused          exit 2: fcal-sim refused the events (a `lip` from a disk bypassed or pulled in the same
                   instant, for instance)
  internal error   exit 5, or any other exit status
  hung             still running after --timeout seconds of wall time

Runs counted as internal error, hung or init incomplete are listed with their settings, to reproduce them with
fcal-sim --set. With --reference, every run is also made with that program and the runs that end otherwise
are listed, side by side. With --traced, every run is made again with every port traced (the full path,
docs/loop.md): the two results must be the same.

Exit status 1 if a run ended on an internal error, hung, or differed traced and untraced (an initialization left
incomplete is listed, not failed: docs/faults.md, "Known problems", has such runs still open); 2 on bad
arguments.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from typing import Any, Sequence

from . import engine
from .cli import UsageError, guard
from .exactness import IGNORED_RESULTS
from .sim import DEFAULT_FCAL_SIM, Starter, run_sim

E_D_TOV_US = 2e6  # FC-FS's E_D_TOV, the loop's (docs/loop_init.md, "Timers")
TIME_LIMIT_S = 9
CLASSES = ("completed", "after E_D_TOV", "time limit", "init incomplete", "refused", "internal error", "hung")
FAILING = ("internal error", "hung")


def settings(run: int, seed: int) -> list[str]:
    """Run `run` of the probe with seed `seed`: its --set assignments."""
    r = random.Random(seed * 1_000_003 + run)
    disks = r.choice([2, 3, 4])
    out = [f"disk.count={disks}", f"workload.read_fraction={r.choice([0, 0.5, 1])}",
           f"workload.queue_depth={r.choice([1, 2, 4])}", "workload.measured_ios=20", "workload.warmup_ios=5",
           f"workload.seed={run}", f"loop.bypass_detect_us={r.choice([100, 1000])}", f"sim.time_limit_s={TIME_LIMIT_S}"]
    start_ms = r.uniform(0.5, 3.0)
    times = sorted(start_ms + r.choice([0, 0, 0.0001, 0.0002, 0.001, r.uniform(0, 0.05)]) for _ in range(r.randint(1, 6)))
    state = ["in"] * disks  # in, removed, bypassed
    for i, t in enumerate(times):
        disk = r.randrange(disks)
        kind = {"in": r.choice(["lip"] * 6 + ["remove", "bypass"]), "removed": "lip", "bypassed": "enable"}[state[disk]]
        out += [f"event.{i}.at_ms={t:.4f}", f"event.{i}.kind={kind}"]
        if kind == "lip" and (state[disk] == "removed" or r.random() < 0.4):
            continue  # from the controller
        out.append(f"event.{i}.disk={disk}")
        state[disk] = {"remove": "removed", "bypass": "bypassed"}.get(kind, "in")
    return out


def classify(fcal_sim: str, sets: Sequence[str], timeout_s: float, trace: str | None = None,
             children: Starter | None = None) -> tuple[str, dict[str, Any] | None, str]:
    """(class, results or None, the last line of stderr) of one run."""
    extra = ["--trace", trace] if trace else []
    sim = run_sim(fcal_sim, sets, extra_args=extra, timeout_s=timeout_s, children=children)
    why = (sim.stderr.strip().splitlines() or [""])[-1]
    if sim.timed_out:
        return "hung", None, f"still running after {timeout_s:g} s"
    if sim.exit_code == 2:
        return "refused", None, why
    if sim.exit_code not in (0, 1) or not isinstance((sim.stats or {}).get("results"), dict):
        internal = next((line for line in sim.stderr.splitlines() if "internal error" in line), why)
        return "internal error", None, f"exit {sim.exit_code}: {internal}"
    results = sim.results
    inits = results.get("loop_init", [])
    if not all(i["complete"] for i in inits):
        return "init incomplete", results, why
    if sim.exit_code == 1:
        return "time limit", results, why
    if any(i["duration_us"] >= E_D_TOV_US for i in inits):
        return "after E_D_TOV", results, why
    return "completed", results, why


def probe_run(run: int, a: argparse.Namespace, children: Starter | None = None) -> dict[str, Any]:
    """One run, with the reference program and traced as asked."""
    sets = settings(run, a.seed)
    got, results, why = classify(a.fcal_sim, sets, a.timeout, children=children)
    row: dict[str, Any] = {"run": run, "settings": sets, "class": got, "why": why}
    if a.reference:
        row["reference"] = classify(a.reference, sets, a.timeout, children=children)[0]
    if a.traced and results is not None:
        with tempfile.TemporaryDirectory() as tmp:
            _, traced, _ = classify(a.fcal_sim, sets, a.timeout, os.path.join(tmp, "t.trace"), children)
        fast = {k: v for k, v in results.items() if k not in IGNORED_RESULTS}
        full = {k: v for k, v in (traced or {}).items() if k not in IGNORED_RESULTS}
        row["traced_differs"] = sorted(k for k in fast.keys() | full.keys() if fast.get(k) != full.get(k))
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=200, help="how many runs (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="which probe: the same seed gives the same runs (default 1)")
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--reference", help="another fcal-sim to make every run with (a build of the previous main)")
    ap.add_argument("--traced", action="store_true", help="every run also traced: the results must be the same")
    ap.add_argument("--timeout", type=float, default=120, help="wall seconds a run may take (default 120)")
    ap.add_argument("--jobs", type=int, default=None, help="runs at once (default: one per core)")
    ap.add_argument("--json", help="also write every run's row to this file")
    a = ap.parse_args(argv)
    return guard("fault_probe", lambda: fault_probe(a))


def fault_probe(a: argparse.Namespace) -> int:
    if a.runs < 1 or a.timeout <= 0:
        raise UsageError("fault_probe: --runs must be at least 1 and --timeout positive")
    for p in [a.fcal_sim] + ([a.reference] if a.reference else []):
        if not os.access(p, os.X_OK):
            raise UsageError(f"fault_probe: {p!r} is not an executable (build first: bash scripts/setup.sh)")
    rows = engine.run_all(probe_run, [(run, a) for run in range(a.runs)], a.jobs)
    counts = {c: sum(r["class"] == c for r in rows) for c in CLASSES}
    print(f"fault_probe: {a.runs} runs (seed {a.seed}) of {a.fcal_sim}")
    print("| how the run ended | runs |" + (" reference |" if a.reference else ""))
    print("|---|---:|" + ("---:|" if a.reference else ""))
    for c in CLASSES:
        ref = f" {sum(r.get('reference') == c for r in rows)} |" if a.reference else ""
        print(f"| {c} | {counts[c]} |{ref}")
    for r in rows:
        if r["class"] in FAILING + ("init incomplete",):
            print(f"run {r['run']}: {r['class']}: {r['why']}\n  --set {' --set '.join(r['settings'])}")
    if a.reference:
        for r in rows:
            if r["reference"] != r["class"]:
                print(f"run {r['run']}: {r['reference']} (reference) -> {r['class']}")
    differs = [r for r in rows if r.get("traced_differs")]
    for r in differs:
        print(f"run {r['run']}: traced and untraced results differ in {', '.join(r['traced_differs'])}\n"
              f"  --set {' --set '.join(r['settings'])}")
    if a.traced:
        print(f"traced and untraced: {len(differs)} of {sum('traced_differs' in r for r in rows)} runs differ")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    return 1 if differs or any(r["class"] in FAILING for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
