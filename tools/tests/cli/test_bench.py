"""Smoke test of the speed benchmark (tools/bench.py, issue 19; docs/speed.md): a quick run prints a Markdown table
row, with numbers in the x-real-time and port-activations-per-frame columns, for each scenario, the line on the
memory runs and the targets table. Timings are not checked."""
from __future__ import annotations

import re

from conftest import tool

SCENARIOS = ["baseline", "normal", "64 disks", "126 nodes", "4 KiB QD 4", "RAID 5 writes", "login credit", "rtl"]


def test_quick_benchmark_prints_its_tables(fcal_sim_path, python):
    p = tool("tools/bench.py", "--quick", "--reps", "1", "--fcal-sim", fcal_sim_path, timeout=900, python=python)
    log = p.stdout + p.stderr
    assert p.returncode == 0, f"the benchmark did not run (exit {p.returncode}):\n{log[-3000:]}"
    # | scenario | x real time | best x | wall s | instr / I/O | instr / frame | port act / frame | ...
    missing = [s for s in SCENARIOS
               if not re.search(rf"^\| {re.escape(s)} \| [0-9][0-9.,]* \| [0-9][0-9.,]* \|( [^|]+ \|){{3}} [0-9][0-9.,]* \|",
                                log, re.M)]
    assert not missing, f"no table row for {missing}:\n{log[-3000:]}"
    assert re.search(r"^Runs behind the memory columns", log, re.M), "no line on the memory runs"
    assert re.search(r"^\| target \(issue 19\) \|", log, re.M), "no targets table"
