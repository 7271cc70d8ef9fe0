"""tools/pull_sweep.py (fcal_tools.pull_sweep): its formula against the closed form of docs/loop_init.md,
"Initialization time" (its paragraph After a break), its failure check, and a --quick sweep (2 and 3 disks, both
detection times) that writes its CSV and its table between a page's markers, with the simulated loop-down time
checked against the formula and the failed I/Os only the pulled disk's."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from fcal_tools import pull_sweep
from fcal_tools.lip_sweep import CABLE_S, PROC_S, WORD_S, timeout_ms
from fcal_tools.pull_sweep import after_break_s, failure_reasons, pull_timeout_ms

FULL_FRAME_WORDS = 521  # SOF, 24-byte header, 2048-byte payload, CRC, EOF: the longest frame a port finishes


def test_formula_is_the_closed_form() -> None:
    # bypass_detect + h' + 4 w + 9 R' + N (152 w + 7 p), h = 6 w + c, h' = 2 c + 6 w, R' = (N - 1) h + h'.
    h, h2 = 6 * WORD_S + CABLE_S, 2 * CABLE_S + 6 * WORD_S
    for n, detect in ((2, 0.1), (3, 50e-6), (17, 1e-3), (125, 0.1)):
        r2 = (n - 1) * h + h2
        want = detect + h2 + 4 * WORD_S + 9 * r2 + n * (152 * WORD_S + 7 * PROC_S)
        assert after_break_s(n, detect) == pytest.approx(want, rel=1e-12)
    # docs/loop_init.md's example: 3 ports left of a 4-port ring, R' = 2 h + h'.
    assert after_break_s(3, 0.0) - after_break_s(2, 0.0) == pytest.approx(9 * h + 152 * WORD_S + 7 * PROC_S, rel=1e-9)


def test_exchange_timeout_covers_the_stall() -> None:
    assert pull_timeout_ms(2, 100000) == timeout_ms(2) + 100
    assert pull_timeout_ms(125, 1000) == timeout_ms(125) + 10


def test_failures_of_other_disks_are_counted() -> None:
    mine = "I/O 61 (disk 2, read): target 0xE4 left the loop (given up after 3 retries)"
    other = "I/O 7 (disk 1, read): exchange timeout: no FCP_DATA for the rest of the read"
    assert failure_reasons([mine, mine.replace("61", "64")], 2) == (
        0, "target <AL_PA> left the loop (given up after 3 retries)")
    count, reasons = failure_reasons([mine, other], 2)
    assert count == 1 and "exchange timeout" in reasons
    assert failure_reasons([mine], 1)[0] == 1


def test_quick_sweep_writes_csv_and_table(tmp_path: Path, fcal_sim_path: str) -> None:
    page = tmp_path / "page.md"
    page.write_text("# x\n\n<!-- pull_sweep.py: begin -->\nold\n<!-- pull_sweep.py: end -->\n")
    code = pull_sweep.main(["--quick", "--fcal-sim", fcal_sim_path, "--jobs", "2", "--out", str(tmp_path),
                            "--no-plots", "--write", str(page)])
    assert code == 0
    with open(tmp_path / "pull_sweep.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(float(r["bypass_detect_us"]), int(r["ports"])) for r in rows] == [
        (100000.0, 3), (100000.0, 4), (1000.0, 3), (1000.0, 4)]
    for r in rows:
        disks, down_us = int(r["disks"]), float(r["loop_down_us"])
        assert int(r["pulled_disk"]) == disks - 1 and int(r["ports_left"]) == disks
        t_us = after_break_s(disks, float(r["bypass_detect_us"]) * 1e-6) * 1e6
        assert float(r["formula_us"]) == pytest.approx(t_us)
        # Within one full frame (a port ends the frame it is sending) and picosecond rounding of the formula.
        assert t_us - 0.1 * WORD_S * 1e6 <= down_us <= t_us + FULL_FRAME_WORDS * WORD_S * 1e6
        # The pulled disk's I/Os fail (its queue depth at most), each with its reason; no other disk's.
        assert 0 < int(r["failed_ios"]) <= 4 and int(r["failed_other_disks"]) == 0
        assert r["failure_reasons"] == "target <AL_PA> left the loop (given up after 3 retries)"
        # Every remaining disk is re-validated; the pulled one logged out.
        assert int(r["adisc"]) == disks - 1 and int(r["logouts"]) == 1
        # Nothing moves while the loop is down: at least that much is lost.
        assert float(r["lost_ms"]) >= down_us / 1e3 * 0.9
    text = page.read_text()
    assert "old" not in text and "| bypass_detect_us | ports | ports left N | loop_down_us | formula (us)" in text
    assert text.count("\n| 100000 | 3 | 2 |") == 1 and text.count("\n| 1000 | 4 | 3 |") == 1
