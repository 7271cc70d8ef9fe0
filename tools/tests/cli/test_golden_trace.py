"""The port-watcher trace of one 2 KiB read against a hand-derived golden file (traces/golden/single_read.trace,
derived in traces/golden/README.md and derive.py). The fcal-sim settings come from the golden file's first line,
`# fcal-sim <options> --trace PATH`; every trace line must match exactly (a diff is shown otherwise)."""
from __future__ import annotations

import difflib
import os
import shlex

from conftest import ROOT

GOLDEN = os.path.join(ROOT, "traces", "golden", "single_read.trace")


def test_trace_matches_the_hand_derived_golden_trace(fcal_sim, tmp_path):
    with open(GOLDEN) as f:
        lines = f.read().splitlines()
    header = lines[0]
    assert header.startswith("# fcal-sim ") and header.endswith(" --trace PATH"), \
        f"the first line of {GOLDEN} is not '# fcal-sim ... --trace PATH': {header}"
    args = shlex.split(header[len("# fcal-sim "):-len(" --trace PATH")])
    r = fcal_sim(*args, "--trace", tmp_path / "run.trace")
    assert r.code == 0, f"fcal-sim exited with {r.code}: {r.err}"
    expected = [line for line in lines if not line.startswith("#")]
    assert expected, f"{GOLDEN} has no trace lines"
    got = (tmp_path / "run.trace").read_text().splitlines()
    diff = "\n".join(difflib.unified_diff(expected, got, "expected (traces/golden/single_read.trace)",
                                          "fcal-sim --trace", lineterm=""))
    assert got == expected, "the trace differs from the hand-derived golden trace:\n" + diff
