"""Soak under bit errors (docs/faults.md, "Faults and recovery"): 10^5 I/Os on a loop with loop.ber=1e-6 end with
every I/O completed or failed (none outstanding, no hang), every abort either retried or ending a failed I/O after
exactly driver.retries retries, and the same results from the same seed; throughput falls, retries rise, as the
error rate rises. FCAL_SOAK_IOS sets the soak's I/Os (default 100000)."""
from __future__ import annotations

import os

from conftest import load_results, sets

# 4 KiB mixed I/Os on the baseline loop; AL_TIME 0.5 ms, exchange timeout 5 ms, so that a lost word costs the loop
# less than an exchange timeout.
FAULTS = sets(*["workload.io_size=4K", "workload.read_fraction=0.5", "workload.queue_depth=2",
                      "loop.al_time_us=500", "initiator.exchange_timeout_ms=5", "initiator.abts_timeout_ms=5",
                      "target.data_timeout_ms=20", "workload.warmup_ios=0", "sim.time_limit_s=100000"])


def run(fcal_sim, path, ber, ios, *extra, timeout=60):
    r = fcal_sim(*FAULTS, "--set", f"loop.ber={ber}", "--set", f"workload.measured_ios={ios}", *extra,
                 "--stats-json", path, "--quiet", timeout=timeout)
    assert r.code == 0, f"loop.ber={ber}, {ios} I/Os: exit {r.code}: {r.err[:2000]}"
    return load_results(path)


def check_account(r, n, retries, what):
    assert r["run_end"] == "completed", f"{what}: run_end {r['run_end']}"
    assert r["outstanding_ios"] == 0, f"{what}: {r['outstanding_ios']} outstanding"
    assert r["issued_ios"] == n, f"{what}: issued {r['issued_ios']}, expected {n}"
    assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"], f"{what}: issued != completed + failed"
    # Every abort is followed by a retry, except the last of a failed I/O: aborts = retries + failed, and a failed
    # I/O used up all its retries.
    assert r["aborts"] == r["retries"] + r["failed_ios"], \
        f"{what}: aborts {r['aborts']} != retries {r['retries']} + failed {r['failed_ios']}"
    assert r["retries"] >= retries * r["failed_ios"], f"{what}: a failed I/O did not use its {retries} retries"
    assert r["frames_discarded"] > 0 and r["code_violations"] >= r["frames_discarded"], \
        f"{what}: {r['frames_discarded']} frames discarded, {r['code_violations']} code violations"


def test_soak(fcal_sim, tmp_path):
    ios = int(os.environ.get("FCAL_SOAK_IOS", "100000"))
    r = run(fcal_sim, tmp_path / "soak.json", "1e-6", ios, timeout=300)["results"]
    check_account(r, ios, 3, "soak at loop.ber=1e-6")
    print(f"{ios} I/Os: {r['completed_ios']} completed, {r['failed_ios']} failed, {r['retries']} retries, "
          f"{r['frames_discarded']} frames discarded, {r['code_violations']} code violations")


def test_same_seed_same_results_under_bit_errors(fcal_sim, tmp_path):
    a, b = (run(fcal_sim, tmp_path / f"same{k}.json", "1e-6", 3000, "--set", "driver.retries=1") for k in (1, 2))
    check_account(a["results"], 3000, 1, "repeat")
    assert a == b, "same configuration and seed under bit errors: the results differ"


def test_iops_fall_and_retries_rise_with_the_error_rate(fcal_sim, tmp_path):
    # A coarse check of docs/faults/ber.png.
    points = []
    for ber in ["0", "1e-8", "1e-7", "1e-6", "1e-5"]:
        r = run(fcal_sim, tmp_path / "b.json", ber, 3000)["results"]
        points.append((ber, r["iops"], r["retries"]))
    for (ber0, iops0, retries0), (ber, iops, retries) in zip(points, points[1:]):
        assert iops <= iops0 * 1.01 and retries >= retries0, \
            f"loop.ber={ber}: IOPS {iops} (at {ber0}: {iops0}), retries {retries} (at {ber0}: {retries0})"
