"""Equivalence of the RTL transmit queue and its SystemC reference (issue 8).

For every configuration of a matrix, runs fcal-sim three times — cmdf.impl=model, cmdf.impl=rtl, and
cmdf.impl=rtl with rtl.lockstep=true (every decision compared) — and requires the `results` JSON of
the RTL runs to be byte-identical to the model's, apart from wall_time_s and the RTL-only block
`rtl`. Prints one line per configuration and a closing "N passed, M failed" line; exits 1 on any
difference, divergence or failed run.

  python3 tools/rtl_equivalence.py [--fcal-sim PATH] [--quick] [--measured N] [--jobs N]

--quick is the ctest matrix: schedules normal and cmdf, each FIFO policy alone, arbitration alone,
preemption alone; reads, writes and 66 % reads; 16 disks at queue depth 1 and 4 disks at queue
depth 4. Without it the matrix adds I/O sizes from 2 KiB to 1 MiB, queue depths 1-8, 2-32 disks,
full duplex, login credit and several seeds.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
from typing import Iterator

from . import engine
from .cli import guard
from .sim import DEFAULT_FCAL_SIM, Starter, run_sim

SCHEDULES = {
    "normal": ["schedule=normal"],
    "cmdf": ["schedule=cmdf"],
    "fifo=reorder": ["schedule=normal", "cmdf.fifo=reorder"],
    "fifo=command_queue": ["schedule=normal", "cmdf.fifo=command_queue"],
    "arbitration only": ["schedule=normal", "cmdf.arbitration=true"],
    "preempt only": ["schedule=normal", "cmdf.preempt=true"],
    "reorder+arb+preempt": ["schedule=cmdf", "cmdf.fifo=reorder"],
}
MIXES = {"read": ["workload.read_fraction=1"], "write": ["workload.read_fraction=0"], "66% read": ["workload.read_fraction=0.66"]}
TOPOLOGIES = {"16 disks QD1": ["disk.count=16", "workload.queue_depth=1"], "4 disks QD4": ["disk.count=4", "workload.queue_depth=4"]}
QUICK_SCHEDULES = ["normal", "cmdf", "fifo=reorder", "fifo=command_queue", "arbitration only", "preempt only"]

EXTRA = {
    "8 KiB": ["workload.io_size=8K"],
    "1 MiB": ["workload.io_size=1M"],
    "2 KiB": ["workload.io_size=2K"],
    "QD8 8 disks": ["disk.count=8", "workload.queue_depth=8"],
    "32 disks": ["disk.count=32"],
    "2 disks": ["disk.count=2"],
    "full duplex": ["initiator.full_duplex=true", "target.full_duplex=true"],
    "login credit": ["target.login_bb_credit=2", "target.incoming_buffers=4", "initiator.login_bb_credit=2"],
    "seed 7": ["workload.seed=7"],
    "seed 11 random-ish open": ["workload.type=open", "workload.rate_iops=2500", "workload.seed=11"],
}


def matrix(quick: bool) -> Iterator[tuple[str, list[str]]]:
    scheds = QUICK_SCHEDULES if quick else list(SCHEDULES)
    for s, m, t in itertools.product(scheds, MIXES, TOPOLOGIES):
        yield f"{s}, {m}, {t}", SCHEDULES[s] + MIXES[m] + TOPOLOGIES[t]
    if quick:
        return
    for s, m, e in itertools.product(["normal", "cmdf", "fifo=reorder", "preempt only"], MIXES, EXTRA):
        yield f"{s}, {m}, {e}", SCHEDULES[s] + MIXES[m] + EXTRA[e]


def run(fcal_sim: str, sets: list[str], children: Starter | None) -> tuple[str | None, str | None]:
    out = run_sim(fcal_sim, sets, children=children)
    if out.exit_code != 0:
        return None, f"exit {out.exit_code}: {out.stderr.strip()[-600:]}"
    results = json.loads(out.stdout)["results"]
    results.pop("wall_time_s", None)
    results.pop("rtl", None)
    return json.dumps(results, sort_keys=True), None


def check(fcal_sim: str, name: str, sets: list[str], children: Starter | None = None) -> tuple[str, str | None]:
    model, err = run(fcal_sim, sets + ["cmdf.impl=model"], children)
    if err or model is None:
        return name, f"model run failed: {err}"
    for label, extra in (("rtl", ["cmdf.impl=rtl"]), ("rtl lock-step", ["cmdf.impl=rtl", "rtl.lockstep=true"])):
        got, err = run(fcal_sim, sets + extra, children)
        if err or got is None:
            return name, f"{label} run failed: {err}"
        if got != model:
            a, b = json.loads(model), json.loads(got)
            diff = [k for k in a if a.get(k) != b.get(k)]
            return name, f"{label} results differ from the model's in {diff}"
    return name, None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--quick", action="store_true", help="the ctest matrix")
    ap.add_argument("--measured", type=int, default=None, help="workload.measured_ios (default 300 quick, 1000 full)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args(argv)
    return guard("rtl_equivalence", lambda: equivalence(a))


def equivalence(a: argparse.Namespace) -> int:
    measured = a.measured or (300 if a.quick else 1000)
    cases = [(n, s + [f"workload.measured_ios={measured}"]) for n, s in matrix(a.quick)]
    failed = 0
    for name, err in engine.in_order(check, [(a.fcal_sim, n, s) for n, s in cases], a.jobs):
        print(f"{'FAIL' if err else 'same'}  {name}" + (f": {err}" if err else ""), flush=True)
        failed += bool(err)
    print(f"rtl equivalence: {len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0
