"""Resume after a killed sweep loses and repeats nothing (docs/sweeps.md): a sweep is killed with SIGKILL after a
few runs are recorded, a torn half row is added to the file (as if the kill hit a write), and the sweep is run again.
The resumed run starts exactly the runs that are missing (counted by a wrapper around fcal-sim), the file ends with
one row per (point, seed), and the rows equal an uninterrupted run's."""
from __future__ import annotations

import csv
import os
import subprocess
import time

from conftest import ROOT, tool

SPEC = '''{"name": "resume", "seeds": [3, 5], "results": ["iops", "mean_response_us"],
 "fixed": {"workload.measured_ios": 300, "disk.count": 8},
 "grid": {"workload.io_size": [2048, 8192, 16384, 32768, 65536], "schedule": ["normal", "cmdf"]}}'''
TOTAL = 20


def wrapper(tmp_path, fcal_sim_path):
    """fcal-sim behind a script that counts the sweep's runs (not its own checks, marked FCAL_SWEEP_CHECK=1)."""
    w = tmp_path / "wrap.sh"
    w.write_text(f'#!/bin/sh\n[ -n "$FCAL_SWEEP_CHECK" ] || echo run >>"{tmp_path / "calls"}"\n'
                 f'exec "{fcal_sim_path}" "$@"\n')
    w.chmod(0o755)
    return str(w)


def calls(tmp_path):
    path = tmp_path / "calls"
    return len(path.read_text().splitlines()) if path.exists() else 0


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_resume_after_sigkill(tmp_path, fcal_sim_path, python):
    (tmp_path / "spec.json").write_text(SPEC)
    spec, wrap = str(tmp_path / "spec.json"), wrapper(tmp_path, fcal_sim_path)
    p = tool("tools/sweep", "run", spec, "--out", str(tmp_path / "ref"), "--jobs", "2", "--fcal-sim", fcal_sim_path,
             python=python)
    assert p.returncode == 0, f"the uninterrupted sweep failed: {p.stderr[-2000:]}"
    cut = tmp_path / "cut"
    victim = subprocess.Popen([python, os.path.join(ROOT, "tools", "sweep"), "run", spec, "--out", str(cut),
                               "--jobs", "1", "--fcal-sim", wrap], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    for _ in range(600):
        if (cut / "runs.csv").exists() and len((cut / "runs.csv").read_text().splitlines()) >= 5:
            break
        time.sleep(0.05)
    victim.kill()
    victim.wait()
    before = len((cut / "runs.csv").read_text().splitlines()) - 1
    assert 4 <= before < TOTAL, f"{before} rows when killed (want 4..{TOTAL - 1})"
    with open(cut / "runs.csv", "a") as f:
        f.write("2048,normal,999,ok,0,,12")  # a torn row: no newline, it was never finished
    time.sleep(1)  # the run in flight at the kill ends (orphaned); its result was never recorded
    (tmp_path / "calls").unlink()
    p = tool("tools/sweep", "run", spec, "--out", str(cut), "--jobs", "2", "--fcal-sim", wrap, python=python)
    assert p.returncode == 0, f"the resumed sweep failed: {p.stderr[-2000:]}"
    assert f"{before} already recorded, {TOTAL - before} to run" in p.stderr, \
        f"the resume did not see {before} recorded runs: {p.stderr[-2000:]}"
    assert calls(tmp_path) == TOTAL - before, f"the resume ran {calls(tmp_path)} simulations, expected {TOTAL - before}"
    resumed = rows(cut / "runs.csv")
    assert len(resumed) == TOTAL, f"{len(resumed)} rows after the resume, expected {TOTAL}"
    assert not any("999" in r.values() for r in resumed), "the torn row survived"
    points = [(r["workload.io_size"], r["schedule"], r["seed"]) for r in resumed]
    assert len(set(points)) == len(points), "a (point, seed) recorded twice"
    # The build column names the binary each row ran: fcal-sim for the reference, the wrapper here.
    assert "build" in resumed[0], "runs.csv has no build column"
    strip = lambda rs: sorted(sorted((k, v) for k, v in r.items() if k != "build") for r in rs)
    assert strip(resumed) == strip(rows(tmp_path / "ref" / "runs.csv")), "the resumed rows differ from an uninterrupted run's"
    assert (cut / "summary.csv").read_text() == (tmp_path / "ref" / "summary.csv").read_text(), "summaries differ"
    # A third run has nothing left to do.
    (tmp_path / "calls").unlink()
    tool("tools/sweep", "run", spec, "--out", str(cut), "--fcal-sim", wrap, python=python)
    assert calls(tmp_path) == 0, f"a finished sweep ran {calls(tmp_path)} simulations again"
