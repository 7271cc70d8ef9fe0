"""fcal-sim: an ABTS that reaches a disk in the very instant its service ends (docs/disk.md, "The TLM-2.0
protocol"; docs/faults.md, "FCP recovery"). Two loops, round robin, the controller's timeouts (1 ms) far shorter
than a response (500 us to build it, after a 0.5 ms access): every exchange times out and is aborted, and once an
abort reached a disk in the instant its read ended. The disk's `Abort` met the command in service or done in the
SystemC kernel's order of the target HBA's frame processing and the disk's actuator, which tracing changes
(`disk_mechanics.commands_aborted` one apart). The end comes first now, whichever process runs first: the command
is done, and the abort finds nothing held. The run must end by itself with the I/O account balanced, with the same
results traced (the full path) as untraced (the fast path, docs/loop.md)."""
from __future__ import annotations

from conftest import fast_and_traced, sets

ABORT_AT_SERVICE_END = ["disk.count=2", "loop.count=2", "driver.multipath=round_robin", "workload.io_size=3000",
                        "workload.type=open", "workload.rate_iops=1000", "target.rsp_gen_us=500", "disk.access_ms=0.5",
                        "initiator.exchange_timeout_ms=1", "initiator.abts_timeout_ms=1", "workload.measured_ios=100",
                        "workload.warmup_ios=0"]


def test_abort_in_the_instant_a_service_ends_is_the_same_traced(fcal_sim, tmp_path):
    res = fast_and_traced(fcal_sim, tmp_path, "--quiet", *sets(*ABORT_AT_SERVICE_END))
    # Every I/O fails after its retries (the timeouts are shorter than a response), each try aborted.
    assert res["failed_ios"] == 100 and res["completed_ios"] == 0
    assert res["disk_mechanics"]["commands_aborted"] > 0
