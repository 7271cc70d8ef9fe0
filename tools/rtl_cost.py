#!/usr/bin/env python3
"""What the RTL co-simulation costs (issue 8): simulated seconds per wall-clock second of fcal-sim
with the controller's transmit queue as the SystemC model and as the Verilated RTL (and the RTL in
lock step with the model), on the baseline and on a write-heavy variant, medians over repetitions.
The wall time is fcal-sim's own `wall_time_s` (the simulation run, without start-up).

  python3 tools/rtl_cost.py [--fcal-sim PATH] [--reps N]

Prints a Markdown table. A benchmark, not a test: it judges nothing.
"""
import argparse
import json
import os
import statistics
import subprocess

SCENARIOS = {
    "baseline (64 KiB reads, CMDF)": [],
    "baseline, 64 KiB writes": ["workload.read_fraction=0"],
}
IMPLS = {
    "model": ["cmdf.impl=model"],
    "rtl": ["cmdf.impl=rtl"],
    "rtl + lock-step": ["cmdf.impl=rtl", "rtl.lockstep=true"],
}


def speed(fcal_sim, sets):
    args = [fcal_sim, "--stats-json", "-"]
    for s in sets:
        args += ["--set", s]
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    r = json.loads(out.stdout)["results"]
    return r["sim_time_s"] / r["wall_time_s"], r.get("rtl", {}).get("cycles", 0), r["completed_ios"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fcal-sim", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "fcal-sim"))
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    print("| scenario | queue | simulated s per wall s (median) | cost vs model | RTL cycles per I/O |")
    print("|---|---|---|---|---|")
    for name, sets in SCENARIOS.items():
        model = None
        for impl, extra in IMPLS.items():
            runs = [speed(a.fcal_sim, sets + extra) for _ in range(a.reps)]
            s = statistics.median(r[0] for r in runs)
            model = model or s
            cycles = runs[0][1] / runs[0][2]
            print(f"| {name} | {impl} | {s:.2f} | {model / s:.2f}x | {cycles:.1f} |", flush=True)


if __name__ == "__main__":
    main()
