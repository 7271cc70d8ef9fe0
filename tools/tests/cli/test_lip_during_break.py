"""fcal-sim: a LIP while the loop is broken (docs/loop_init.md, "Port bypass circuits", "The LPSM in initialization").

Disk 3 of the default 16 leaves at 5 ms (pulled out, or its port fails), which opens the loop at its slot until
the enclosure closes the bypass loop.bypass_detect_us (100 ms) later; at 8 ms, with the loop still open, a port
(the controller, or disk 7) starts a LIP. The LIP cannot get round the open loop; once the bypass closes the loop
must initialize without disk 3 and the I/O go on: the run ends (exit 0) with every I/O completed or failed, only
disk 3's failed, each with its reason.

Expectations from first principles:
- the loop is down at least from the break until the bypass closes, and the break's initialization record
  starts at the break and ends after that;
- its length is the formula of docs/loop_init.md, "Initialization time", paragraph After a break, in its
  general form: the originator is the port downstream of the open slot (disk 4, ring index 5), the master the
  controller (the lowest port name), k = 12 ports downstream of it (indices 6 to 16 and 0), N = 16 ports left;
  the LIP started at 8 ms is lost in the open slot, so it changes nothing of this;
- at most a few I/Os complete before the break (5 ms of the loop's 212.5 MB/s is 16 I/Os of 64 KiB) and none
  while it is down, so the measured window (after the default 160 warm-up I/Os) lies after the loop came back:
  the other disks' I/Os in it completed after the bypass closed.
"""
from __future__ import annotations

import pytest

from conftest import failed_disks, load_results, sets
from fcal_tools.lip_sweep import CABLE_S, HOP_S, WORD_S, after_lips_s

DETECT_S = 100e-3          # loop.bypass_detect_us's default
BREAK_MS, LIP_MS = 5.0, 8.0
PULLED = 3
DISKS = 16
IO_BYTES = 64 * 1024       # the default workload.io_size
LOOP_BYTES_PER_S = 2.125e9 / 10
WARMUP = 160               # the default workload.warmup_ios


def down_after_break_s() -> float:
    """docs/loop_init.md, "After a break": detection, then the originator's LIPs back over the spliced hop
    h' = 2 c + 6 w, 2 words to recognise them and 2 fill words before its LISM, then phases 2 to 6 on the ring of
    N ports with R' = (N - 1) h + h', the master k ports downstream of the originator (D = k h)."""
    n = DISKS                          # the controller and the 15 disks left
    originator = PULLED + 2            # ring index of the disk downstream of the slot (disk i is at i + 1)
    k = (DISKS + 1) - originator       # ports from the originator on to the controller, index 0
    spliced = HOP_S + CABLE_S
    r = (n - 1) * HOP_S + spliced
    return DETECT_S + spliced + 4 * WORD_S + after_lips_s(n, r, k=k)


@pytest.mark.parametrize("leave, lip_from", [
    (("event.0.kind=remove",), ()),                                  # the LIP from the controller
    (("event.0.kind=remove",), ("event.1.disk=7",)),                 # from a disk
    (("event.0.kind=fail", "event.0.failure=port"), ()),             # the port fails instead
])
def test_the_loop_comes_back_after_a_lip_in_the_open_loop(fcal_sim, tmp_path, leave, lip_from):
    out = tmp_path / "r.json"
    r = fcal_sim(*sets("loop.initialize_at_start=true", f"event.0.at_ms={BREAK_MS}", f"event.0.disk={PULLED}", *leave,
                       f"event.1.at_ms={LIP_MS}", "event.1.kind=lip", *lip_from),
                 "--quiet", "--stats-json", out, timeout=120)
    assert r.code == 0, f"exit {r.code}: {r.err[-2000:]}"
    res = load_results(out)["results"]
    assert res["outstanding_ios"] == 0 and res["issued_ios"] == res["completed_ios"] + res["failed_ios"]
    assert failed_disks(res) <= {PULLED}, f"a failure not of disk {PULLED}: {res['failures']}"

    first, brk = res["loop_init"]  # initialize_at_start's, then the break's (the LIP at 8 ms joins it)
    assert first["complete"] and first["start_us"] == 0
    assert brk["complete"] and "event.0" in brk["cause"]
    assert brk["start_us"] == pytest.approx(BREAK_MS * 1e3)
    assert brk["start_us"] + brk["duration_us"] >= BREAK_MS * 1e3 + DETECT_S * 1e6, "up before the bypass closed"
    ports = {a["port"] for a in brk["al_pas"]}
    assert ports == {"controller"} | {f"disk{d}" for d in range(DISKS) if d != PULLED}
    assert brk["master_al_pa"] == "0x01"
    assert res["loop_down_us"] >= DETECT_S * 1e6
    assert res["loop_down_us"] == pytest.approx(first["duration_us"] + brk["duration_us"])
    words = (brk["duration_us"] * 1e-6 - down_after_break_s()) / WORD_S
    assert abs(words) < 2, f"{brk['duration_us']} us, {words:+.3f} words from the formula's {down_after_break_s() * 1e6} us"

    # The measured window lies after the loop came back (see the docstring), and every disk left has I/Os in it.
    assert BREAK_MS * 1e-3 * LOOP_BYTES_PER_S / IO_BYTES < WARMUP
    assert res["measured_ios"] > 0
    for d in range(DISKS):
        if d != PULLED:
            assert res["disks"][d]["ios"] > 0, f"disk {d} completed no I/O after the loop came back"
    assert res["disks"][PULLED]["ios"] == 0
