"""cmdf.impl=rtl (and rtl.lockstep=true) give byte-identical results to cmdf.impl=model over the issue's matrix
(docs/rtl.md): normal and cmdf, each FIFO policy, arbitration only, preemption only; reads, writes and 66 % reads;
16 disks at queue depth 1 and 4 disks at queue depth 4. The comparison is tools/rtl_equivalence.py's."""
from __future__ import annotations

from conftest import tool


def test_rtl_equals_the_model(fcal_sim_path, python):
    p = tool("tools/rtl_equivalence.py", "--quick", "--fcal-sim", fcal_sim_path, timeout=600, python=python)
    assert p.returncode == 0, f"tools/rtl_equivalence.py --quick: exit {p.returncode}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
