#!/usr/bin/env python3
"""What the RTL co-simulation costs (issue 8): simulated seconds per wall-clock second of fcal-sim
with the controller's transmit queue as the SystemC model and as the Verilated RTL (and the RTL in
lock step with the model), on the baseline and on a write-heavy variant, medians over repetitions.
The wall time is fcal-sim's own `wall_time_s` (the simulation run, without start-up).

  python3 tools/rtl_cost.py [--fcal-sim PATH] [--reps N]
  python3 tools/rtl_cost.py --vcd-sizes [--bin DIR] [--cycles N]

--vcd-sizes measures the RTL VCD instead (issue 24): bytes per RTL clock cycle with every signal and
with the pins only (--vcd-pins-only), in the random bench at both Verilated depths (one segment of N
cycles, command_queue policy: both FIFOs in use), and in fcal-sim's RTL VCD (every signal) on a short
64 KiB write run; then what a default 64 KiB write run (its RTL cycles counted without a VCD) would
write. Prints Markdown tables. A benchmark, not a test: it judges nothing.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

SCENARIOS = {
    "baseline (64 KiB reads, CMDF)": [],
    "baseline, 64 KiB writes": ["workload.read_fraction=0"],
}
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
WRITES = ["cmdf.impl=rtl", "workload.read_fraction=0"]
IMPLS = {
    "model": ["cmdf.impl=model"],
    "rtl": ["cmdf.impl=rtl"],
    "rtl + lock-step": ["cmdf.impl=rtl", "rtl.lockstep=true"],
}


def speed(fcal_sim, sets):
    args = [fcal_sim, "--stats-json", "-"]
    for s in sets:
        args += ["--set", s]
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=ENV)
    r = json.loads(out.stdout)["results"]
    return r["sim_time_s"] / r["wall_time_s"], r.get("rtl", {}).get("cycles", 0), r["completed_ios"]


def pins_only_bytes(path):
    """Bytes --vcd-pins-only would have written for the run that wrote the full RTL VCD `path`: its
    header without the nested scopes, its timestamps, and the value changes of the signals of the top
    scope (the pins). Verilator gives a signal one code in every scope it appears in, and writes every
    timestamp whatever is traced, so this is exact (vcd_sizes checks it on the bench)."""
    size, depth, ids, body = 0, 0, set(), False
    with open(path, "rb") as f:
        for raw in f:
            if body:
                c = raw[:1]
                if c in (b"#", b"$") or not raw.strip():
                    size += len(raw)
                elif (raw.split()[1] if c in (b"b", b"r") else raw[1:].rstrip(b"\n")) in ids:
                    size += len(raw)
                continue
            w = raw.split()[:1]
            keep = depth <= 1
            if w == [b"$scope"]:
                depth += 1
                keep = depth == 1
            elif w == [b"$upscope"]:
                keep = depth == 1
                depth -= 1
            elif w == [b"$var"] and depth == 1:
                ids.add(raw.split()[3])
            elif w == [b"$enddefinitions"]:
                body = True
            if keep:
                size += len(raw)
    return size


def bench_vcd_bytes(bench, cycles):
    """(every signal, pins only, pins only derived from every signal) bytes of one bench segment."""
    sizes = []
    with tempfile.TemporaryDirectory() as d:
        for pins_only in (False, True):
            path = os.path.join(d, f"rtl_{pins_only}.vcd")
            args = [bench, "--quiet", "--seed", "1", "--policy", "command_queue", "--cycles", str(cycles),
                    "--segment-cycles", str(cycles), "--vcd", path] + (["--vcd-pins-only"] if pins_only else [])
            subprocess.run(args, capture_output=True, text=True, check=True, env=ENV)
            sizes.append(os.path.getsize(path))
        sizes.append(pins_only_bytes(os.path.join(d, "rtl_False.vcd")))
    return sizes


def sim_rtl(fcal_sim, sets, vcd_dir=None):
    """RTL cycles of an fcal-sim run, and the path of its RTL VCD if vcd_dir is given."""
    args = [fcal_sim, "--stats-json", "-"]
    if vcd_dir:
        args += ["--vcd", os.path.join(vcd_dir, "run.vcd")]
    for s in sets:
        args += ["--set", s]
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=ENV)
    return json.loads(out.stdout)["results"]["rtl"]["cycles"], os.path.join(vcd_dir, "run_rtl.vcd") if vcd_dir else None


def vcd_sizes(bin_dir, cycles):
    print("| program | depths | cycles | every signal, bytes per cycle | pins only, bytes per cycle |")
    print("|---|---|---|---|---|")
    for bench, depths in (("fcal-rtl-bench", "64/16"), ("fcal-rtl-bench-d4", "4/2")):
        full, pins, derived = bench_vcd_bytes(os.path.join(bin_dir, bench), cycles)
        if derived != pins:
            print(f"(pins_only_bytes() is off for {bench}: {derived} bytes derived, {pins} written)")
        print(f"| {bench} (command_queue) | {depths} | {cycles} | {full / cycles:.0f} | {pins / cycles:.0f} |", flush=True)
    fcal_sim = os.path.join(bin_dir, "fcal-sim")
    with tempfile.TemporaryDirectory() as d:
        short_cycles, path = sim_rtl(fcal_sim, WRITES + ["workload.measured_ios=100", "workload.warmup_ios=0"], d)
        full, pins = os.path.getsize(path) / short_cycles, pins_only_bytes(path) / short_cycles
    print(f"| fcal-sim, 64 KiB writes, 100 I/Os (pins only: derived) | 64/16 | {short_cycles} | {full:.0f} | {pins:.0f} |")
    default_cycles, _ = sim_rtl(fcal_sim, WRITES)
    print()
    print(f"A default 64 KiB write run (`--set cmdf.impl=rtl --set workload.read_fraction=0`) runs {default_cycles} RTL "
          f"cycles: about {default_cycles * full / 1e6:.0f} MB of RTL VCD with every signal, {default_cycles * pins / 1e6:.0f} MB "
          f"with the pins only.")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(__file__)
    ap.add_argument("--fcal-sim", default=os.path.join(here, "..", "build", "bin", "fcal-sim"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--vcd-sizes", action="store_true", help="measure the RTL VCD's size per cycle instead")
    ap.add_argument("--bin", default=os.path.join(here, "..", "build", "bin"), help="the programs, for --vcd-sizes")
    ap.add_argument("--cycles", type=int, default=20000, help="bench cycles per VCD, for --vcd-sizes")
    a = ap.parse_args()
    if a.vcd_sizes:
        vcd_sizes(a.bin, a.cycles)
        return
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
