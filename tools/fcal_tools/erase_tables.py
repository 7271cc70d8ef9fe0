"""Erasure of 14 Compaq BD01864552 disks (docs/model.md, "Erasure"), against the erasure thesis's
Tables 5.4 (WRITE SAME) and 5.5 (WRITE(10), transfer length 256), each disk alone and all 14 in
parallel.

  python3 tools/erase_tables.py calibrate [--jobs N]   # writes configs/erase_14_disks.json
  python3 tools/erase_tables.py tables [--jobs N]      # writes docs/erase/tables.md (+ tables.json)
  python3 tools/erase_tables.py tables --no-run        # rewrites tables.md from tables.json

calibrate fits each disk to Table 5.4's "alone" column only: starting from
configs/disks/compaq_bd01864552.json it scales the disk's sector times by k and its cylinders by k
(so that the capacity stays 18.2 GB while a track holds 1/k as many sectors and the disk needs k
times as many tracks), runs that disk alone with WRITE SAME, and corrects k until the simulated time
matches the thesis's within 0.5 s. tables then runs the calibrated disks, each alone and all 14 in
parallel, with WRITE SAME and with WRITE(10) at 256 blocks; nothing is fitted to Table 5.5.
"""
from __future__ import annotations

import argparse
import json
import os
from typing import Any, Sequence

from . import engine
from .cli import UsageError, guard
from .sim import DEFAULT_FCAL_SIM, ROOT, Starter, run_sim

SIM = DEFAULT_FCAL_SIM
BASE = os.path.join(ROOT, "configs", "disks", "compaq_bd01864552.json")
CONFIG = os.path.join(ROOT, "configs", "erase_14_disks.json")
OUT = os.path.join(ROOT, "docs", "erase")

# The thesis, Table 5.4 (WRITE SAME(10), third strategy): each disk alone, and during the complete
# erasure of all 14; Table 5.5 (WRITE(10), transfer length 256): the same. Seconds.
def _s(m: int, s: int) -> int:
    return 60 * m + s

SAME_ALONE = [_s(6, 5), _s(9, 39), _s(9, 44), _s(10, 57), _s(10, 55), _s(9, 42), _s(6, 37), _s(8, 29), _s(6, 38),
              _s(6, 5), _s(10, 13), _s(9, 51), _s(9, 55), _s(6, 6)]
SAME_ALL = [_s(6, 5), _s(10, 59), _s(9, 43), _s(10, 59), _s(10, 53), _s(9, 42), _s(6, 37), _s(8, 29), _s(6, 37),
            _s(6, 5), _s(10, 12), _s(10, 31), _s(9, 55), _s(6, 5)]
WRITE_ALONE = [_s(19, 52), _s(23, 24), _s(23, 28), _s(24, 43), _s(24, 38), _s(23, 28), _s(20, 27), _s(22, 15),
               _s(20, 24), _s(19, 50), _s(24, 1), _s(23, 32), _s(23, 39), _s(19, 51)]
WRITE_ALL = [_s(53, 43), _s(45, 6), _s(49, 25), _s(54, 15), _s(57, 39), _s(60, 19), _s(54, 27), _s(57, 47),
             _s(42, 40), _s(50, 37), _s(33, 0), _s(35, 10), _s(38, 14), _s(52, 40)]
DISKS = len(SAME_ALONE)
# Long enough for the slowest WRITE(10) run.
TIME_LIMIT_S = 20000


def erase_run(config: dict[str, Any], sets: Sequence[str] = (), children: Starter | None = None) -> dict[str, Any]:
    """Runs fcal-sim on a config dict; returns its results."""
    results: dict[str, Any] = run_sim(SIM, sets, config_text=json.dumps(config), children=children).check().results
    return results


def base_disk() -> dict[str, Any]:
    with open(BASE) as f:
        disk: dict[str, Any] = json.load(f)["disk"]
        return disk


def scaled(k: float) -> dict[str, Any]:
    """The per-disk override of a disk k times slower than the base drive, with the same capacity."""
    d = base_disk()
    return {"sector_time_inner_ms": round(d["sector_time_inner_ms"] * k, 9),
            "sector_time_outer_ms": round(d["sector_time_outer_ms"] * k, 9),
            "cylinders": round(d["cylinders"] * k)}


def erase_config(overrides: list[dict[str, Any]], command: str, strategy: str = "parallel") -> dict[str, Any]:
    """14 disks' loop (15 nodes) with the disks given (overrides[i] for disk i) erased by `command`."""
    disk = base_disk()
    disk["count"] = len(overrides)
    for i, o in enumerate(overrides):
        disk[str(i)] = o
    return {"disk": disk, "loop": {"nodes": DISKS + 1},
            "workload": {"type": "erase"},
            "erase": {"command": command, "strategy": strategy, "transfer_blocks": 256, "same_blocks": 65535},
            "sim": {"time_limit_s": TIME_LIMIT_S}}


def fit(i: int, k: float, children: Starter | None = None) -> tuple[float, float]:
    """k of disk i (from the first guess k) and its simulated WRITE SAME time alone."""
    for _ in range(8):
        t = erase_run(erase_config([scaled(k)], "write_same"), children=children)["erase_time_s"]
        if abs(t - SAME_ALONE[i]) < 0.5:
            break
        k *= SAME_ALONE[i] / t
    return k, t


def calibrate(jobs: int) -> None:
    ks = [t / SAME_ALONE[0] * 0.6 for t in SAME_ALONE]  # a first guess; corrected by fit
    fitted = engine.run_all(fit, [(i, ks[i]) for i in range(DISKS)], jobs)
    config = erase_config([scaled(k) for k, _ in fitted], "write_same")
    with open(CONFIG, "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    for i, (k, t) in enumerate(fitted):
        print(f"disk {i + 1:2}: k = {k:.5f}, WRITE SAME alone {t:.1f} s (thesis {SAME_ALONE[i]} s)")


def mmss(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s:02d} s"


def tables(jobs: int) -> None:
    with open(CONFIG) as f:
        config = json.load(f)
    overrides = [config["disk"][str(i)] for i in range(DISKS)]
    commands = ("write_same", "write")
    work = [(i, c) for c in commands for i in range(DISKS)]
    # All 14 with each command; the same 14 WRITE(10) streams on a loop of half the rate (where the loop
    # binds); then each disk alone with each command.
    runs: list[tuple[dict[str, Any], tuple[str, ...]]] = [(erase_config(overrides, c), ()) for c in commands]
    runs.append((erase_config(overrides, "write"), ("loop.speed=1GFC",)))
    runs += [(erase_config([overrides[i]], c), ()) for i, c in work]
    done = engine.run_all(erase_run, runs, jobs)
    parallel = dict(zip(commands, done[:2]))
    slow = done[2]
    singles = done[3:]
    result = {c: {"alone": [singles[j]["erase_time_s"] for j, (i, cc) in enumerate(work) if cc == c],
                  "all": [d["erase_time_s"] for d in parallel[c]["disks"]],
                  "all_job_s": parallel[c]["erase_time_s"],
                  "all_mb_per_s": parallel[c]["mb_per_s"],
                  "commands_per_disk": parallel[c]["disks"][0]["commands"],
                  "wire_bytes_per_disk": parallel[c]["disks"][0]["wire_bytes"],
                  "media_bytes_per_disk": parallel[c]["disks"][0]["media_bytes"]}
              for c in ("write_same", "write")}
    result["write_1gfc"] = one_loop_rate(slow)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "tables.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    write_markdown(result)


def one_loop_rate(r: dict[str, Any]) -> dict[str, Any]:
    """The figures kept of an all-14 run at another loop rate."""
    return {"all": [d["erase_time_s"] for d in r["disks"]], "all_job_s": r["erase_time_s"], "all_mb_per_s": r["mb_per_s"]}


def write_markdown(result: dict[str, Any]) -> None:
    lines = ["# Erasure of 14 disks: fcal beside the erasure thesis", "",
             "Generated by `python3 tools/erase_tables.py tables` from `configs/erase_14_disks.json` "
             "(see docs/model.md, \"Erasure\"). Each disk's WRITE SAME time alone is calibrated to Table 5.4; "
             "nothing is fitted to Table 5.5. \"all 14\" is every disk's own erase time while all 14 are "
             "erased in parallel on one 2GFC loop.", "",
             "| disk | WRITE SAME alone: thesis | fcal | WRITE SAME all 14: thesis | fcal "
             "| WRITE(10) 256 alone: thesis | fcal | WRITE(10) 256 all 14: thesis | fcal |",
             "|---|---|---|---|---|---|---|---|---|"]
    s, w = result["write_same"], result["write"]
    for i in range(DISKS):
        lines.append(f"| {i + 1} | {mmss(SAME_ALONE[i])} | {mmss(s['alone'][i])} | {mmss(SAME_ALL[i])} | {mmss(s['all'][i])} "
                     f"| {mmss(WRITE_ALONE[i])} | {mmss(w['alone'][i])} | {mmss(WRITE_ALL[i])} | {mmss(w['all'][i])} |")
    diff_thesis = [WRITE_ALONE[i] - SAME_ALONE[i] for i in range(DISKS)]
    diff_fcal = [w["alone"][i] - s["alone"][i] for i in range(DISKS)]
    lines += ["",
              f"- WRITE(10) minus WRITE SAME, each disk alone: thesis {min(diff_thesis)}-{max(diff_thesis)} s, "
              f"fcal {min(diff_fcal):.1f}-{max(diff_fcal):.1f} s.",
              f"- Whole job, all 14 in parallel: WRITE SAME thesis {mmss(max(SAME_ALL))}, fcal {mmss(s['all_job_s'])}; "
              f"WRITE(10) thesis {mmss(max(WRITE_ALL))}, fcal {mmss(w['all_job_s'])} "
              f"(data on the loop {w['all_mb_per_s']:.1f} MB/s).",
              f"- The same 14 WRITE(10) streams on a 1GFC loop: the job {mmss(result['write_1gfc']['all_job_s'])}, "
              f"each disk {mmss(min(result['write_1gfc']['all']))} to {mmss(max(result['write_1gfc']['all']))} "
              f"(data on the loop {result['write_1gfc']['all_mb_per_s']:.1f} MB/s).",
              f"- Per disk: WRITE SAME {s['commands_per_disk']} commands, {s['wire_bytes_per_disk']} wire bytes, "
              f"{s['media_bytes_per_disk']} media bytes; WRITE(10) {w['commands_per_disk']} commands, "
              f"{w['wire_bytes_per_disk']} wire bytes, {w['media_bytes_per_disk']} media bytes (disk 1).", ""]
    with open(os.path.join(OUT, "tables.md"), "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["calibrate", "tables"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-run", action="store_true", help="tables: only rewrite tables.md from tables.json")
    a = ap.parse_args(argv)
    return guard("erase_tables", lambda: erase_tables(a))


def erase_tables(a: argparse.Namespace) -> int:
    if a.what == "tables" and a.no_run:
        with open(os.path.join(OUT, "tables.json")) as f:
            write_markdown(json.load(f))
        return 0
    if not os.path.exists(SIM):
        raise UsageError(f"{SIM} not found: build first (bash scripts/setup.sh)")
    (calibrate if a.what == "calibrate" else tables)(a.jobs)
    return 0
