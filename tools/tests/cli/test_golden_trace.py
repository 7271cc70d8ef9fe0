"""Port-watcher traces against hand-derived golden files (traces/golden/README.md): one 2 KiB read
(single_read.trace, derive.py) and one loop initialization of 3 ports (loop_init_3port.trace,
derive_loop_init.py). The fcal-sim settings come from the golden file's first line,
`# fcal-sim <options> --trace PATH`; a line `# window: to T ns` limits the comparison to the trace's
lines at or before T (what comes later is not derived). Every trace line must match exactly (a diff
is shown otherwise)."""
from __future__ import annotations

import difflib
import os
import re
import shlex

import pytest

from conftest import ROOT

GOLDEN_DIR = os.path.join(ROOT, "traces", "golden")
WINDOW = re.compile(r"^# window: to ([0-9]+\.[0-9]{3}) ns\b")


@pytest.mark.parametrize("name", ["single_read.trace", "loop_init_3port.trace"])
def test_trace_matches_the_hand_derived_golden_trace(fcal_sim, tmp_path, name):
    golden = os.path.join(GOLDEN_DIR, name)
    with open(golden) as f:
        lines = f.read().splitlines()
    header = lines[0]
    assert header.startswith("# fcal-sim ") and header.endswith(" --trace PATH"), \
        f"the first line of {golden} is not '# fcal-sim ... --trace PATH': {header}"
    args = shlex.split(header[len("# fcal-sim "):-len(" --trace PATH")])
    windows = [float(m.group(1)) for m in map(WINDOW.match, lines) if m]
    assert len(windows) <= 1, f"{golden} has more than one '# window:' line"
    r = fcal_sim(*args, "--trace", tmp_path / "run.trace")
    assert r.code == 0, f"fcal-sim exited with {r.code}: {r.err}"
    expected = [line for line in lines if not line.startswith("#")]
    assert expected, f"{golden} has no trace lines"
    got = (tmp_path / "run.trace").read_text().splitlines()
    if windows:
        assert float(expected[-1].split()[0]) == windows[0], f"{golden}: the last line is not at the window's end"
        later = [line for line in got if float(line.split()[0]) > windows[0]]
        assert later, "the run's trace ends inside the window: the window's last instant is not covered"
        got = [line for line in got if float(line.split()[0]) <= windows[0]]
    diff = "\n".join(difflib.unified_diff(expected, got, f"expected (traces/golden/{name})", "fcal-sim --trace",
                                          lineterm=""))
    assert got == expected, "the trace differs from the hand-derived golden trace:\n" + diff
