"""Exactness check between two fcal-sim builds: same configuration, same results.

  python3 tools/exactness.py --reference OLD_FCAL_SIM [--candidate build/bin/fcal-sim] [--only NAME ...]

Runs every scenario below with both programs and compares the `results` of their --stats-json key by
key. Left out of the comparison, because they describe how the run was computed rather than what was
simulated: `wall_time_s` and the `kernel` block (activations, frames the kernel handled). Keys present in
one program's results only are listed separately (a new result is not a change of an old one); the
`config` blocks are compared on the keys both have.

A change in the speed or structure of fcal must leave every scenario "same"; a change of the model must
name each scenario that differs and why. Exit status 1 if any scenario differs, 2 on bad arguments.
Standard library only.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from .cli import guard
from .sim import SimError, run_sim

# name -> --set assignments (every other parameter at its default).
SCENARIOS: dict[str, list[str]] = {
    "baseline": [],
    "normal_reads": ["schedule=normal"],
    "normal_writes": ["schedule=normal", "workload.read_fraction=0"],
    "normal_mixed": ["schedule=normal", "workload.read_fraction=0.66"],
    "cmdf_mixed_32k": ["workload.read_fraction=0.66", "workload.io_size=32K"],
    "login_credit": ["disk.count=8", "target.login_bb_credit=4", "target.incoming_buffers=4",
                     "initiator.max_outstanding=1", "workload.measured_ios=400"],
    "full_duplex": ["initiator.full_duplex=true", "target.full_duplex=true", "workload.read_fraction=0.5"],
    "disks_8": ["disk.count=8"],
    "disks_64": ["disk.count=64"],
    "nodes_126": ["loop.nodes=126"],
    "hops_200m": ["loop.hop_m=200", "workload.read_fraction=0.5"],
    "circuit_hold": ["target.dma_mbs=150", "target.circuit_hold_us=5", "initiator.circuit_hold_us=2",
                     "workload.read_fraction=0.5"],
    "reads_4k_qd4": ["workload.io_size=4K", "workload.queue_depth=4"],
    "random_access": ["disk.access_dist=exponential", "workload.read_fraction=0.66"],
    "open_workload": ["workload.type=open", "workload.rate_iops=2500", "workload.read_fraction=0.66"],
    "bit_errors": ["loop.ber=1e-7", "loop.al_time_us=500", "initiator.exchange_timeout_ms=20",
                   "initiator.abts_timeout_ms=20", "sim.time_limit_s=1000", "workload.measured_ios=1000"],
    "raid5_writes": ["volume.raid=raid5", "disk.count=8", "workload.read_fraction=0", "workload.io_size=16K"],
    "zoned": ["disk.model=zoned", "workload.io_size=4K", "workload.read_fraction=0.66", "workload.queue_depth=4"],
    "erase": ["workload.type=erase", "erase.command=write", "disk.capacity_gb=0.02", "disk.count=4"],
    "rtl": ["cmdf.impl=rtl", "workload.read_fraction=0.66", "workload.measured_ios=500"],
}
IGNORED_RESULTS = ("wall_time_s", "kernel")


def run(fcal_sim: str, settings: list[str], out: str) -> dict[str, Any]:
    sim = run_sim(fcal_sim, settings, stats=out).check(ok=(0, 1))
    if sim.stats is None:
        raise SimError(f"{sim.describe()}: {sim.stats_error}")
    return sim.stats


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Leaves of a JSON value by dotted path (list items by index)."""
    items: Any
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return {prefix: value}
    flat: dict[str, Any] = {}
    for k, v in items:
        flat.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    return flat


def compare(ref: dict[str, Any], cand: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(differences, keys only one side has) over results and shared config keys."""
    r = {k: v for k, v in ref["results"].items() if k not in IGNORED_RESULTS}
    c = {k: v for k, v in cand["results"].items() if k not in IGNORED_RESULTS}
    fr, fc = flatten(r), flatten(c)
    diffs = [f"results.{k}: {fr[k]!r} -> {fc[k]!r}" for k in sorted(fr.keys() & fc.keys()) if fr[k] != fc[k]]
    only = [f"results.{k} (reference only)" for k in sorted(fr.keys() - fc.keys())]
    only += [f"results.{k} (candidate only)" for k in sorted(fc.keys() - fr.keys())]
    cr, cc = flatten(ref["config"]), flatten(cand["config"])
    diffs += [f"config.{k}: {cr[k]!r} -> {cc[k]!r}" for k in sorted(cr.keys() & cc.keys()) if cr[k] != cc[k]]
    return diffs, only


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="the fcal-sim to compare against (e.g. a build of the previous main)")
    parser.add_argument("--candidate", default="build/bin/fcal-sim")
    parser.add_argument("--only", nargs="*", help="scenario names (default: all)")
    parser.add_argument("--list", action="store_true", help="print the scenarios and exit")
    a = parser.parse_args(argv)
    return guard("exactness", lambda: exactness(a))


def exactness(a: argparse.Namespace) -> int:
    if a.list:
        for name, settings in SCENARIOS.items():
            print(f"{name:16} {' '.join(settings)}")
        return 0
    names = a.only or list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        print(f"exactness: unknown scenario {unknown[0]!r} (see --list)", file=sys.stderr)
        return 2
    for p in (a.reference, a.candidate):
        if not os.access(p, os.X_OK):
            print(f"exactness: {p!r} is not an executable", file=sys.stderr)
            return 2
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            ref = run(a.reference, SCENARIOS[name], os.path.join(tmp, "ref.json"))
            cand = run(a.candidate, SCENARIOS[name], os.path.join(tmp, "cand.json"))
            diffs, only = compare(ref, cand)
            print(f"{'same' if not diffs else 'DIFF'}  {name}" + (f"  ({len(only)} keys on one side only)" if only else ""))
            for d in diffs[:20]:
                print(f"      {d}")
            if len(diffs) > 20:
                print(f"      ... {len(diffs) - 20} more")
            failed += bool(diffs)
    print(f"exactness: {len(names) - failed} same, {failed} differ")
    return 1 if failed else 0
