"""Exact word times (issue 11): at 1.0, 2.0 and 4.0 Gbaud a word lasts exactly 40, 20 and 10 ns, so many changes
coincide in one instant. A run at 2.0 Gbaud (the first case) once never ended: a port started arbitrating on a frame
queued in the same instant as a primitive it had just passed on, and the port downstream re-armed its receive event
for the same instant forever (docs/loop.md, "The livelock guard"). Every case must complete well within the time
allowed and, with every port traced (the full hop-by-hop path), give the same results as untraced."""
from __future__ import annotations

import pytest

from test_trace_equivalence import traced_and_untraced

CASES = [
    "workload.io_size=32768 schedule=normal loop.baud_gbps=2.0 workload.read_fraction=0.66 workload.seed=2 workload.measured_ios=1000",
    "workload.io_size=4096 schedule=normal loop.baud_gbps=2.0 workload.read_fraction=0.66 workload.seed=1 disk.count=8 workload.measured_ios=400",
    "workload.io_size=262144 loop.baud_gbps=2.0 workload.read_fraction=0.66 workload.seed=3 disk.count=4 workload.measured_ios=300",
    "workload.io_size=32768 schedule=normal loop.baud_gbps=4.0 workload.read_fraction=0.5 workload.seed=2 disk.count=8 workload.measured_ios=400",
    "workload.io_size=32768 loop.baud_gbps=1.0 workload.read_fraction=0.66 workload.seed=2 disk.count=8 workload.measured_ios=400",
    "workload.io_size=8192 schedule=normal loop.baud_gbps=2.0 initiator.full_duplex=true target.full_duplex=true workload.read_fraction=0.5 disk.count=8 workload.measured_ios=400",
]


@pytest.mark.parametrize("case", CASES, ids=[f"case {i}" for i in range(len(CASES))])
def test_completes_and_traced_equals_untraced(fcal_sim, tmp_path, case):
    fast, full = traced_and_untraced(fcal_sim, tmp_path, case.split(), timeout=120)
    assert fast["run_end"] == "completed" and fast["outstanding_ios"] == 0, \
        f"{case}: run_end {fast['run_end']}, {fast['outstanding_ios']} outstanding"
    assert fast == full, f"{case}: traced and untraced differ in " + str([k for k in fast if fast[k] != full.get(k)])
