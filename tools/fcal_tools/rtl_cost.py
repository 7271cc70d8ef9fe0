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
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from typing import Any

from .cli import guard
from .sim import DEFAULT_FCAL_SIM, run_sim, sim_env

SCENARIOS: dict[str, list[str]] = {
    "baseline (64 KiB reads, CMDF)": [],
    "baseline, 64 KiB writes": ["workload.read_fraction=0"],
}
WRITES = ["cmdf.impl=rtl", "workload.read_fraction=0"]
IMPLS = {
    "model": ["cmdf.impl=model"],
    "rtl": ["cmdf.impl=rtl"],
    "rtl + lock-step": ["cmdf.impl=rtl", "rtl.lockstep=true"],
}


def speed(fcal_sim: str, sets: list[str]) -> tuple[float, int, int]:
    r = run_sim(fcal_sim, sets).check().results
    return r["sim_time_s"] / r["wall_time_s"], r.get("rtl", {}).get("cycles", 0), r["completed_ios"]


def pins_only_bytes(path: str) -> int:
    """Bytes --vcd-pins-only would have written for the run that wrote the full RTL VCD `path`: its
    header without the nested scopes, its timestamps, and the value changes of the signals of the top
    scope (the pins). Verilator gives a signal one code in every scope it appears in, and writes every
    timestamp whatever is traced, so this is exact (vcd_sizes checks it on the bench)."""
    size, depth, ids, body = 0, 0, set[bytes](), False
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


def bench_vcd_bytes(bench: str, cycles: int) -> list[int]:
    """(every signal, pins only, pins only derived from every signal) bytes of one bench segment."""
    sizes = []
    with tempfile.TemporaryDirectory() as d:
        for pins_only in (False, True):
            path = os.path.join(d, f"rtl_{pins_only}.vcd")
            args = [bench, "--quiet", "--seed", "1", "--policy", "command_queue", "--cycles", str(cycles),
                    "--segment-cycles", str(cycles), "--vcd", path] + (["--vcd-pins-only"] if pins_only else [])
            subprocess.run(args, capture_output=True, text=True, check=True, env=sim_env())
            sizes.append(os.path.getsize(path))
        sizes.append(pins_only_bytes(os.path.join(d, "rtl_False.vcd")))
    return sizes


def sim_rtl(fcal_sim: str, sets: list[str], vcd_dir: str | None = None, pins_only: bool = False) -> tuple[int, str | None]:
    """RTL cycles of an fcal-sim run, and the path of its RTL VCD if vcd_dir is given (--vcd-rtl-pins: the pins only)."""
    name = "pins" if pins_only else "run"
    extra = ["--vcd", os.path.join(vcd_dir, f"{name}.vcd")] + (["--vcd-rtl-pins"] if pins_only else []) if vcd_dir else []
    r: dict[str, Any] = run_sim(fcal_sim, sets, extra_args=extra).check().results
    return r["rtl"]["cycles"], os.path.join(vcd_dir, f"{name}_rtl.vcd") if vcd_dir else None


def vcd_sizes(bin_dir: str, cycles: int) -> None:
    print("| program | depths | cycles | every signal, bytes per cycle | pins only, bytes per cycle |")
    print("|---|---|---|---|---|")
    for bench, depths in (("fcal-rtl-bench", "64/16"), ("fcal-rtl-bench-d4", "4/2")):
        full, pins, derived = bench_vcd_bytes(os.path.join(bin_dir, bench), cycles)
        if derived != pins:
            print(f"(pins_only_bytes() is off for {bench}: {derived} bytes derived, {pins} written)")
        print(f"| {bench} (command_queue) | {depths} | {cycles} | {full / cycles:.0f} | {pins / cycles:.0f} |", flush=True)
    fcal_sim = os.path.join(bin_dir, "fcal-sim")
    with tempfile.TemporaryDirectory() as d:
        short = WRITES + ["workload.measured_ios=100", "workload.warmup_ios=0"]
        short_cycles, path = sim_rtl(fcal_sim, short, d)
        _, pins_path = sim_rtl(fcal_sim, short, d, pins_only=True)
        assert path is not None and pins_path is not None
        pins, derived = os.path.getsize(pins_path), pins_only_bytes(path)
        if derived != pins:
            print(f"(pins_only_bytes() is off for fcal-sim: {derived} bytes derived, {pins} written)")
        full_pc, pins_pc = os.path.getsize(path) / short_cycles, pins / short_cycles
    print(f"| fcal-sim --vcd-rtl-pins, 64 KiB writes, 100 I/Os | 64/16 | {short_cycles} | {full_pc:.0f} | {pins_pc:.0f} |")
    default_cycles, _ = sim_rtl(fcal_sim, WRITES)
    print()
    print(f"A default 64 KiB write run (`--set cmdf.impl=rtl --set workload.read_fraction=0`) runs {default_cycles} RTL "
          f"cycles: about {default_cycles * full_pc / 1e6:.0f} MB of RTL VCD with every signal, {default_cycles * pins_pc / 1e6:.0f} MB "
          f"with the pins only.")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    bin_dir = os.path.dirname(DEFAULT_FCAL_SIM)
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--vcd-sizes", action="store_true", help="measure the RTL VCD's size per cycle instead")
    ap.add_argument("--bin", default=bin_dir, help="the programs, for --vcd-sizes")
    ap.add_argument("--cycles", type=int, default=20000, help="bench cycles per VCD, for --vcd-sizes")
    a = ap.parse_args(argv)
    return guard("rtl_cost", lambda: rtl_cost(a))


def rtl_cost(a: argparse.Namespace) -> int:
    if a.vcd_sizes:
        vcd_sizes(a.bin, a.cycles)
        return 0
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
    return 0
