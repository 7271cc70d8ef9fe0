"""fcal-sim: a LIP from the controller at the very instant the enclosure closes the bypass of a pulled disk
(docs/loop_init.md, "Port bypass circuits", "The LPSM in initialization").

Disk d of 4 is pulled at 5 ms; the bypass closes loop.bypass_detect_us (100 ms, its default) later, at 105 ms,
and the controller's `lip` event comes at 105 ms too. The loop must initialize without disk d and the run end
by itself (exit 0, nothing outstanding). Before the fix, with disk 3 pulled (the controller downstream of the
slot: the LIP(F8) originator), the controller took its LIP(F8) back for its LIPs and originated, and the short
run of LIP(F7,x) it had switched to in the same instant came back after it: taken for another port's, it was
repeated round the loop for ever (the run stopped only at its time limit, 4 I/Os outstanding).

Expectations from first principles (docs/loop_init.md, "Initialization time", paragraph After a break): N = 4 ports
left, the spliced hop h' = 2 c + 6 w, R' = 3 h + h'; the master is the controller (the lowest port name),
k ports downstream of the originator, the disk downstream of the slot (for disk 3: the controller, k = 0).
- a disk originator has sent its LIP(F8) for 100 ms: its LIPs are back h' after the closure, recognised 2 w
  later, and its LISM follows 2 fill words after: h' + 4 w; the controller joins as a repeater (its `lip` finds
  another port's LIP run arriving) and changes nothing;
- the controller as originator starts LIP(F7,x) at 105 ms in place of its LIP(F8,x): it sends at least 12
  before IDLE (12 w > h' + 2 w here), then its LISM 2 fill words later: 14 w;
- then phases 2 to 6 (fcal_tools.lip_sweep.after_lips_s). The break's record lasts 100 ms plus that.
"""
from __future__ import annotations

import pytest

from conftest import load_results, sets
from fcal_tools.lip_sweep import CABLE_S, HOP_S, WORD_S, after_lips_s

DETECT_S = 100e-3   # loop.bypass_detect_us's default
PULL_MS = 5.0
DISKS = 4


def expected_down_s(pulled: int) -> float:
    n = DISKS                              # the controller and the 3 disks left
    spliced = HOP_S + CABLE_S              # h' = 2 c + 6 w
    r = (n - 1) * HOP_S + spliced
    if pulled == DISKS - 1:                # the controller is downstream of the slot
        return DETECT_S + max(spliced + 2 * WORD_S, 12 * WORD_S) + 2 * WORD_S + after_lips_s(n, r)
    originator = pulled + 2                # ring index of the disk downstream of the slot (disk i is at i + 1)
    k = (DISKS + 1) - originator           # ports from the originator on to the controller, index 0
    return DETECT_S + spliced + 4 * WORD_S + after_lips_s(n, r, k=k)


def run(fcal_sim, tmp_path, disks: int, pulled: int, lip_ms: float, lip_from: int | None = None) -> dict:
    """The run with disk `pulled` of `disks` removed at PULL_MS and a LIP at lip_ms (from the controller, or disk
    lip_from): short, frames lost at the break recovered after 150 ms (FCP recovery). Its results, once it has
    ended by itself with every I/O completed or failed and every initialization complete."""
    out = tmp_path / "r.json"
    lip = [f"event.1.disk={lip_from}"] if lip_from is not None else []
    r = fcal_sim(*sets(f"disk.count={disks}", "loop.initialize_at_start=true", f"event.0.at_ms={PULL_MS}",
                       "event.0.kind=remove", f"event.0.disk={pulled}", f"event.1.at_ms={lip_ms:.9f}", "event.1.kind=lip",
                       *lip, "workload.measured_ios=100", "workload.warmup_ios=20", "initiator.exchange_timeout_ms=150",
                       "sim.time_limit_s=1"),
                 "--quiet", "--stats-json", out, timeout=120)
    assert r.code == 0, f"exit {r.code}: {r.err[-2000:]}"
    res = load_results(out)["results"]
    assert res["run_end"] == "completed" and res["outstanding_ios"] == 0
    assert all(i["complete"] for i in res["loop_init"]), res["loop_init"]
    return res


@pytest.mark.parametrize("pulled", range(DISKS))
def test_a_lip_at_the_instant_the_bypass_closes(fcal_sim, tmp_path, pulled):
    res = run(fcal_sim, tmp_path, DISKS, pulled, PULL_MS + DETECT_S * 1e3)
    first, brk = res["loop_init"]  # initialize_at_start's, then the break's (the LIP joins it)
    assert brk["start_us"] == pytest.approx(PULL_MS * 1e3)
    assert {a["port"] for a in brk["al_pas"]} == {"controller"} | {f"disk{d}" for d in range(DISKS) if d != pulled}
    words = (brk["duration_us"] * 1e-6 - expected_down_s(pulled)) / WORD_S
    assert abs(words) < 0.01, f"{brk['duration_us']} us, {words:+.4f} words from {expected_down_s(pulled) * 1e6} us"


@pytest.mark.parametrize("disks, pulled, lip_from", [(2, 0, 1), (2, 1, None), (4, 1, 2), (4, 3, None), (4, 3, 0)])
@pytest.mark.parametrize("offset_ns", [-40, -18.824, -10, 0, 5, 18.824, 100, 200, 300, 500])
def test_a_lip_near_the_instant_the_bypass_closes(fcal_sim, tmp_path, disks, pulled, lip_from, offset_ns):
    """The same within a few hundred nanoseconds of the closure, from the controller or a disk: a port that
    switched its LIP(F8,x) to LIP(F7,x) shortly before or after its LIP(F8,x) came back removes both (before
    the fix: LIPs circulating for ever, or an internal error). The loop must initialize and the run end."""
    run(fcal_sim, tmp_path, disks, pulled, PULL_MS + DETECT_S * 1e3 + offset_ns * 1e-6, lip_from)
