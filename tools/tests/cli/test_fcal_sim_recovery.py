"""FCP recovery (docs/faults.md, "FCP recovery"), through fcal-sim-test's frame-loss hooks: a lost FCP_CMND,
FCP_XFER_RDY, FCP_DATA or FCP_RSP leads to the exchange timeout, an ABTS, one driver retry and a completed I/O
whose response time includes the timeout; a lost ABTS or BA_ACC adds the ABTS timeout; an I/O that keeps failing
is reported failed after exactly driver.retries retries; the I/O account balances; bad values exit 2.

The expected times are the timeouts set here plus the disk's own service of one 64 KiB I/O (2 ms access,
50 MB/s); the HBAs' and the loop's overheads come on top and together stay under 1 ms."""
from __future__ import annotations

import json

import pytest

from conftest import load_results

T_MS, A_MS = 10, 5  # exchange timeout, ABTS timeout
# One 64 KiB I/O on one fixed disk.
ONE = ["--set", "disk.count=1", "--set", "workload.measured_ios=1", "--set", "workload.warmup_ios=0",
       "--set", f"initiator.exchange_timeout_ms={T_MS}", "--set", f"initiator.abts_timeout_ms={A_MS}", "--quiet"]
SERVICE_MS = 2.0 + 65536 / 50e6 * 1e3
FRAMES = 65536 // 2048  # data frames of one I/O


def results(path):
    """The results of a run, after the check every run gets: every issued I/O completed, failed or is outstanding."""
    r = load_results(path)["results"]
    assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], \
        f"the I/O account does not balance: issued {r['issued_ios']}, completed {r['completed_ios']}, " \
        f"failed {r['failed_ios']}, outstanding {r['outstanding_ios']}"
    return r


def response_between(r, low_ms: float, slack_ms: float, what: str) -> None:
    assert low_ms * 1e3 <= r["max_response_us"] < (low_ms + slack_ms) * 1e3, \
        f"{what}: response {r['max_response_us']} us, expected {low_ms * 1e3:.1f} us plus under {slack_ms} ms"


@pytest.mark.parametrize("read_fraction, drop", [
    (1, "FCP_CMND:1"), (1, "FCP_DATA:5"), (1, "FCP_DATA:32"), (1, "FCP_RSP:1"),
    (0, "FCP_XFER_RDY:1"), (0, "FCP_DATA:3"), (0, "FCP_RSP:1")])
def test_one_lost_frame_is_recovered_by_one_retry(fcal_sim_test, tmp_path, read_fraction, drop):
    what = f"lost {drop} (read_fraction {read_fraction})"
    run = fcal_sim_test(*ONE, "--set", f"workload.read_fraction={read_fraction}", "--test-drop-frame", drop,
                        "--stats-json", tmp_path / "r.json")
    assert run.code == 0 and not run.err, f"{what}: exit {run.code}, stderr {run.err}"
    r = results(tmp_path / "r.json")
    k = int(drop.split(":")[1])
    # Frames dropped after the gap: a read's later data frames and its FCP_RSP; a write's later data frames.
    gap = {(1, True): FRAMES - k + 1, (0, True): FRAMES - k}.get((read_fraction, drop.startswith("FCP_DATA")), 0)
    # A write's disk slot, held for data that never comes (lost FCP_XFER_RDY or FCP_DATA), is freed by the abort.
    held = 1 if read_fraction == 0 and drop in ("FCP_XFER_RDY:1", "FCP_DATA:3") else 0
    assert (r["completed_ios"], r["failed_ios"], r["outstanding_ios"]) == (1, 0, 0), f"{what}: not completed"
    assert (r["retries"], r["aborts"], r["ba_acc_received"], r["abts_timeouts"]) == (1, 1, 1, 0), \
        f"{what}: retries {r['retries']}, aborts {r['aborts']}, BA_ACC {r['ba_acc_received']}, " \
        f"ABTS timeouts {r['abts_timeouts']}; expected 1, 1, 1, 0"
    assert r["sequence_errors"] == gap, f"{what}: {r['sequence_errors']} sequence errors, expected {gap}"
    assert r["disk_mechanics"]["commands_aborted"] == held, f"{what}: commands aborted at the disk"
    response_between(r, T_MS + SERVICE_MS, 1, what)


@pytest.mark.parametrize("drop", ["ABTS:1", "BA_ACC:1"])
def test_a_lost_abts_or_ba_acc_adds_the_abts_timeout(fcal_sim_test, tmp_path, drop):
    what = f"lost FCP_RSP and {drop}"
    run = fcal_sim_test(*ONE, "--test-drop-frame", "FCP_RSP:1", "--test-drop-frame", drop,
                        "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"{what}: exit {run.code}: {run.err}"
    r = results(tmp_path / "r.json")
    assert (r["completed_ios"], r["retries"], r["aborts"]) == (1, 1, 1), f"{what}: not one abort and one retry"
    assert (r["ba_acc_received"], r["abts_timeouts"]) == (0, 1), f"{what}: the ABTS did not time out"
    response_between(r, T_MS + A_MS + SERVICE_MS, 1, what)


def test_write_data_and_abts_lost_the_target_drops_the_write_after_its_data_timeout(fcal_sim_test, tmp_path):
    # On a disk with one queue slot the target holds the write (and the slot) until target.data_timeout_ms after
    # its FCP_XFER_RDY; the retry meets TASK SET FULL until then, so it completes after 30 ms + the service.
    what = "lost write data and ABTS"
    run = fcal_sim_test(*ONE, "--set", "workload.read_fraction=0", "--set", "disk.queue_slots=1",
                        "--set", "target.data_timeout_ms=30", "--test-drop-frame", "FCP_DATA:3",
                        "--test-drop-frame", "ABTS:1", "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"{what}: exit {run.code}: {run.err}"
    r = results(tmp_path / "r.json")
    assert (r["completed_ios"], r["retries"], r["abts_timeouts"], r["data_timeouts"]) == (1, 1, 1, 1), \
        f"{what}: completed, retries, ABTS timeouts, data timeouts"
    assert r["disk_mechanics"]["commands_aborted"] == 1 and r["task_set_full_retries"] > 0, \
        f"{what}: the disk slot was not held and freed"
    response_between(r, 30 + SERVICE_MS, 1.5, what)


@pytest.mark.parametrize("retries", [3, 1, 0])
def test_an_unreachable_disk_fails_each_io_after_driver_retries(fcal_sim_test, tmp_path, retries):
    what = f"disk 0 unreachable, driver.retries={retries}"
    run = fcal_sim_test(*ONE, "--set", "workload.measured_ios=2", "--set", f"driver.retries={retries}",
                        "--test-drop-disk", "0", "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"{what}: exit {run.code}"
    assert "2 I/Os failed" in run.err, f"{what}: failed I/Os not reported on stderr: {run.err}"
    assert f"(given up after {retries} retries)" in run.err, f"{what}: the retries not named on stderr: {run.err}"
    assert len(run.err.splitlines()) == 1, f"{what}: expected one stderr line: {run.err}"
    r = results(tmp_path / "r.json")
    assert (r["completed_ios"], r["failed_ios"], r["outstanding_ios"]) == (0, 2, 0), f"{what}: not 2 failed"
    assert r["retries"] == 2 * retries and r["aborts"] == 2 * (retries + 1) and r["abts_timeouts"] == r["aborts"], \
        f"{what}: retries {r['retries']}, aborts {r['aborts']}, ABTS timeouts {r['abts_timeouts']}"
    assert r["measured_ios"] == 0 and len(r["failures"]) == 2, f"{what}: measured or failures"
    assert f"given up after {retries} retries" in r["failures"][0] and "no BA_ACC" in r["failures"][0], \
        f"{what}: the failure does not say why: {r['failures'][0]}"
    # Each attempt: T without an answer, then A without a BA_ACC; the I/Os run one after the other.
    expected_s = 2 * (retries + 1) * (T_MS + A_MS) * 1e-3
    assert abs(r["sim_time_s"] - expected_s) < 1e-3, f"{what}: ran {r['sim_time_s']} s, expected {expected_s} s"


@pytest.mark.parametrize("read_fraction", [1, 0])
def test_a_timeout_shorter_than_the_service_fails_every_attempt(fcal_sim, tmp_path, read_fraction):
    # Reads: their late data dropped; writes: the disk abandons the write it is doing. 3 I/Os x (3 retries + 1).
    what = f"exchange timeout 3.5 ms (read_fraction {read_fraction})"
    run = fcal_sim(*ONE, "--set", "workload.measured_ios=3", "--set", f"workload.read_fraction={read_fraction}",
                   "--set", "initiator.exchange_timeout_ms=3.5", "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"{what}: exit {run.code}: {run.err}"
    r = results(tmp_path / "r.json")
    assert (r["failed_ios"], r["retries"], r["aborts"], r["ba_acc_received"]) == (3, 9, 12, 12), \
        f"{what}: failed {r['failed_ios']}, retries {r['retries']}, aborts {r['aborts']}, BA_ACC {r['ba_acc_received']}"
    assert (r["late_frames"] > 0) == (read_fraction == 1), f"{what}: {r['late_frames']} late frames"
    assert r["disk_mechanics"]["commands_aborted"] == (0 if read_fraction == 1 else 12), \
        f"{what}: every aborted write frees its slot"


def test_recovery_under_load_and_behind_raid(fcal_sim_test, tmp_path):
    run = fcal_sim_test("--set", "disk.count=4", "--set", "disk.model=zoned", "--set", "disk.write_cache=true",
                        "--set", "disk.queue_slots=4", "--set", "workload.queue_depth=8",
                        "--set", "workload.read_fraction=0.5", "--set", "workload.measured_ios=150",
                        "--set", "workload.warmup_ios=0", "--set", "initiator.exchange_timeout_ms=40",
                        "--set", "initiator.abts_timeout_ms=5", "--test-drop-frame", "any:300", "--quiet",
                        "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"zoned disks under load with a 40 ms exchange timeout: exit {run.code}: {run.err}"
    r = results(tmp_path / "r.json")
    assert r["aborts"] > 0 and r["retries"] > 0 and r["completed_ios"] > 0, "zoned disks under load: no recovery seen"
    run = fcal_sim_test("--set", "disk.count=2", "--set", "volume.raid=raid1", "--set", "workload.read_fraction=0.5",
                        "--set", "workload.measured_ios=6", "--set", "workload.warmup_ios=0",
                        "--set", "initiator.exchange_timeout_ms=10", "--set", "initiator.abts_timeout_ms=5",
                        "--test-drop-disk", "1", "--quiet", "--stats-json", tmp_path / "r.json")
    assert run.code == 0, f"RAID 1 with an unreachable member: exit {run.code}: {run.err}"
    r = results(tmp_path / "r.json")
    assert r["failed_ios"] > 0 and "member disk 1" in r["failures"][0], \
        f"RAID 1 with an unreachable member: failures {r['failures'][:1]}"


def test_a_run_with_recovery_is_deterministic(fcal_sim_test, tmp_path):
    docs = []
    for i in (1, 2):
        run = fcal_sim_test(*ONE, "--set", "workload.measured_ios=5", "--set", "workload.read_fraction=0.5",
                            "--test-drop-frame", "any:40", "--stats-json", tmp_path / f"d{i}.json")
        assert run.code == 0, f"recovery run {i}: exit {run.code}: {run.err}"
        docs.append(json.dumps(load_results(tmp_path / f"d{i}.json")))
    assert docs[0] == docs[1], "recovery runs are not deterministic"


@pytest.mark.parametrize("args", [
    # A completion lost between the HBA and the driver is no FCP loss (the exchange is over): no timer runs.
    ["--set", "disk.count=2", "--set", "workload.measured_ios=10", "--set", "initiator.exchange_timeout_ms=10",
     "--test-lose-io", "3"],
    # The HBA's timer facility may keep a notification pending after its last deadline was cancelled
    # (docs/kernel.md, "Timers"): one due after the time limit must not turn the deadlock into a time limit.
    ["--set", "disk.count=4", "--set", "workload.measured_ios=50", "--set", "sim.time_limit_s=5",
     "--test-lose-io", "5"],
], ids=["short exchange timeout", "time limit before the exchange timeout"])
def test_a_lost_completion_is_still_a_deadlock(fcal_sim_test, args):
    run = fcal_sim_test(*args, "--quiet")
    assert run.code == 3, f"--test-lose-io ({' '.join(args)}): exit {run.code}, expected 3 (deadlock)"


@pytest.mark.parametrize("bad", [
    "initiator.exchange_timeout_ms=0", "initiator.exchange_timeout_ms=-1", "initiator.exchange_timeout_ms=1e20",
    "initiator.abts_timeout_ms=0", "initiator.abts_timeout_ms=1e20", "target.data_timeout_ms=0",
    "target.data_timeout_ms=1e20", "driver.retries=-1", "driver.retries=1001", "driver.retries=1.5",
    "driver.retries=many"])
def test_bad_recovery_values_exit_2_naming_the_key(fcal_sim, bad):
    run = fcal_sim("--set", bad, "--quiet")
    assert run.code == 2, f"--set {bad}: exit {run.code}, expected 2"
    assert bad.split("=")[0] in run.err, f"--set {bad}: the error does not name the key: {run.err}"


def test_bad_hook_value_and_the_listed_keys(fcal_sim, fcal_sim_test):
    assert fcal_sim_test("--test-drop-frame", "FCP_DATA:0", "--quiet").code == 2, "--test-drop-frame FCP_DATA:0 accepted"
    listing = fcal_sim("--list-params").out.splitlines()
    for key in ["initiator.exchange_timeout_ms", "initiator.abts_timeout_ms", "target.data_timeout_ms", "driver.retries"]:
        assert any(line.startswith(key + " ") for line in listing), f"--list-params does not list {key}"


def test_commands_held_for_a_login_that_never_comes_fail_by_the_exchange_timeout(fcal_sim, tmp_path):
    """With loop.initialize_at_start the commands wait in the HBA for their targets' logins; at the highest
    loop.ber, 1e-3, a word is hit with p_w = 1 - (1 - 1e-3)^40 = 3.9 %, and an initialization's LI frames make
    over 152 x 8 word transmissions on this ring of 8 ports (docs/loop_init.md, "Timers"), so an attempt
    succeeds with (1 - p_w)^1216 < 1e-20: the loop never finishes its initialization and no login comes
    (random configuration 1096 found the case with loop.ber = 6.33e-6, when the initialization still
    livelocked under bit errors). The exchange timeout bounds an I/O
    from the moment the HBA takes it (docs/faults.md, "FCP recovery"): each try fails after it, the driver
    retries driver.retries times, and the run ends by itself with every I/O failed (none can complete
    without a login), not at the time limit with every I/O outstanding."""
    t_ms, retries, measured, warmup = 200, 1, 20, 0
    config = {"disk.count": 7, "initiator.incoming_buffers": 13, "target.incoming_buffers": 12,
              "loop.ber": 1e-3, "loop.initialize_at_start": True, "workload.type": "open",
              "workload.rate_iops": 2857.5, "workload.seed": 2122596983, "workload.measured_ios": measured,
              "workload.warmup_ios": warmup, "initiator.exchange_timeout_ms": t_ms, "driver.retries": retries}
    (tmp_path / "c.json").write_text(json.dumps(config))
    run = fcal_sim("--config", tmp_path / "c.json", "--stats-json", tmp_path / "out.json", "--quiet", timeout=120)
    assert run.code == 0, f"exit code {run.code}: {run.err[:2000]}"
    r = results(tmp_path / "out.json")
    # The situation the test is about: the loop never finished an initialization, so nothing logged in.
    assert [i["complete"] for i in r["loop_init"]] == [False], r["loop_init"]
    assert r["logins"]["plogi"] == 0
    assert r["run_end"] == "completed"
    issued = 2 * warmup + measured
    assert r["issued_ios"] == issued and r["failed_ios"] == issued and r["completed_ios"] == 0
    assert r["outstanding_ios"] == 0
    assert r["retries"] == issued * retries
    # Every try waited out the whole exchange timeout; the last I/O arrives within a few ms of the start.
    assert (retries + 1) * t_ms / 1e3 <= r["sim_time_s"] < (retries + 1) * t_ms / 1e3 + 0.1, r["sim_time_s"]
    assert all("exchange timeout" in f and "not logged in" in f for f in r["failures"]), r["failures"][:3]
