"""fcal-sim with logins (docs/hba.md, "Logins"): with loop.initialize_at_start the controller logs in to
every disk (one PLOGI and one PRLI each) before its first command; after every later initialization it
re-validates each logged-in disk with one ADISC; a run without initialization has no `logins` block
and no login frame. The counts follow from the rules: one login per target on the loop, one ADISC per
logged-in target and initialization, on each loop."""
from __future__ import annotations

import pytest

from conftest import load_results, sets

LOADED = [*sets("disk.count=6", "workload.io_size=16K", "disk.access_ms=0.2", "disk.rate_mbs=400",
                "workload.queue_depth=4", "workload.measured_ios=400", "workload.warmup_ios=50",
                "initiator.exchange_timeout_ms=20"), "--quiet"]
AT_START = sets("loop.initialize_at_start=true")
LIP = sets("event.0.at_ms=3.0013", "event.0.kind=lip")


def run(fcal_sim, tmp_path, *args: str, name: str = "r.json") -> dict:
    r = fcal_sim(*LOADED, *args, "--stats-json", tmp_path / name, timeout=300)
    assert r.code == 0, f"exit {r.code}: {r.err}"
    res: dict = load_results(tmp_path / name)["results"]
    assert res["failed_ios"] == 0 and res["outstanding_ios"] == 0, f"failed {res['failed_ios']}: {res['failures']}"
    assert res["issued_ios"] == res["completed_ios"]
    return res


def test_no_initialization_no_logins(fcal_sim, tmp_path) -> None:
    assert "logins" not in run(fcal_sim, tmp_path)


@pytest.mark.parametrize("loops", [1, 2])
def test_logins_at_start_one_plogi_and_prli_per_disk(fcal_sim, tmp_path, loops: int) -> None:
    runs = [run(fcal_sim, tmp_path, *AT_START, *sets(f"loop.count={loops}"), name=n) for n in ("a.json", "b.json")]
    assert runs[0] == runs[1], "logins at start, repeated with the same seed: the results differ"
    logins = runs[0]["logins"]
    assert logins["plogi"] == logins["prli"] == 6 * loops
    assert logins["adisc"] == logins["logouts"] == logins["ls_rjt"] == logins["els_timeouts"] == 0
    assert logins["commands_failed"] == logins["exchanges_failed"] == 0
    # The workload's first commands (queue depth 4) come before any login is done and wait.
    assert logins["commands_held"] >= 4


def test_a_lip_revalidates_every_disk_once(fcal_sim, tmp_path) -> None:
    logins = run(fcal_sim, tmp_path, *LIP)["logins"]
    assert logins["adisc"] == 6
    assert logins["plogi"] == logins["prli"] == logins["logouts"] == 0


def test_logins_at_start_then_a_lip(fcal_sim, tmp_path) -> None:
    res = run(fcal_sim, tmp_path, *AT_START, *LIP)
    assert res["loop_initializations"] == 2
    logins = res["logins"]
    assert (logins["plogi"], logins["prli"], logins["adisc"]) == (6, 6, 6)


@pytest.mark.parametrize("retries", [0, 2])
def test_an_unanswered_plogi_is_sent_again_els_retries_times(fcal_sim_test, tmp_path, retries: int) -> None:
    """The first frame any HBA receives is the controller's PLOGI to the only disk: --test-drop-frame any:1 loses
    it (docs/hba.md, "Logins"). Without retries the disk is logged out when the exchange timeout ends the
    PLOGI, and its I/O fails with the reason after the driver's retries. With retries the PLOGI goes again
    after that timeout, then PRLI, and the I/O completes: no sooner than the timeout plus the disk's own
    service of one 64 KiB read (2 ms access, 50 MB/s), the initialization, login and HBA overheads adding
    less than 1 ms."""
    t_ms = 10
    path = tmp_path / "r.json"
    r = fcal_sim_test(*sets("disk.count=1", "workload.measured_ios=1", "workload.warmup_ios=0",
                            "loop.initialize_at_start=true", f"initiator.exchange_timeout_ms={t_ms}",
                            f"initiator.els_retries={retries}"),
                      "--test-drop-frame", "any:1", "--quiet", "--stats-json", path)
    assert r.code == 0, f"exit {r.code}: {r.err}"
    res = load_results(path)["results"]
    logins = res["logins"]
    assert logins["els_timeouts"] == 1 and logins["els_retries"] == min(retries, 1), f"logins: {logins}"
    if retries == 0:
        assert logins["plogi"] == 1 and logins["prli"] == 0 and logins["logouts"] == 1, f"logins: {logins}"
        assert res["failed_ios"] == 1 and "target 0xEF did not answer PLOGI" in res["failures"][0], res["failures"]
        return
    assert logins["plogi"] == 2 and logins["prli"] == 1 and logins["logouts"] == 0, f"logins: {logins}"
    assert res["completed_ios"] == 1 and res["failed_ios"] == 0, res["failures"]
    low_us = (t_ms + 2.0 + 65536 / 50e6 * 1e3) * 1e3
    assert low_us <= res["max_response_us"] < low_us + 1000, f"response {res['max_response_us']} us, expected {low_us:.1f} us + < 1 ms"
