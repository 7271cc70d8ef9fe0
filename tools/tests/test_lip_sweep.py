"""tools/lip_sweep.py (fcal_tools.lip_sweep): its formula against the closed form of docs/loop_init.md,
"Initialization time", its lost-throughput measure on timelines made by hand, and a --quick sweep (1 and 2
disks) that writes its CSV and its table between a page's markers, with the simulated loop-down time
checked against the formula."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from fcal_tools import lip_sweep
from fcal_tools.lip_sweep import CABLE_S, PROC_S, WORD_S, formula_s, lost_ms, timeout_ms

FULL_FRAME_WORDS = 521  # SOF, 24-byte header, 2048-byte payload, CRC, EOF: the longest frame a port finishes


def test_formula_is_the_closed_form() -> None:
    # docs/loop_init.md: originator = master, W = 0, position maps: T = 4 w + N (212 w + 10 c + 7 p).
    for n in (2, 3, 17, 64, 127):
        assert formula_s(n) == pytest.approx(4 * WORD_S + n * (212 * WORD_S + 10 * CABLE_S + 7 * PROC_S), rel=1e-12)
    # The master k ports downstream adds k LISM receptions and D = k hops; W adds itself.
    hop = 6 * WORD_S + CABLE_S
    assert formula_s(5, k=3) - formula_s(5) == pytest.approx(3 * (12 * WORD_S + PROC_S) + 3 * hop, rel=1e-12)
    assert formula_s(5, wait_s=1e-6) - formula_s(5) == pytest.approx(1e-6, rel=1e-9)
    # 12 LIPs, then 2 fill words, bound the first phase on a loop shorter than 10 words of round trip.
    assert formula_s(1) == pytest.approx(14 * WORD_S + 1 * (12 * WORD_S + PROC_S) + 3 * hop
                                         + 4 * (14 * WORD_S + PROC_S + hop) + 2 * (42 * WORD_S + PROC_S + hop), rel=1e-12)


def test_lost_time_on_a_timeline_by_hand() -> None:
    # 100 MB/s in 0.1 ms bins; the run with the LIP moves nothing for 12 bins (1.2 ms) from 5 ms on.
    without = [100.0] * 400
    with_lip = without[:50] + [0.0] * 12 + without[62:]
    rate, rate_with, lost = lost_ms(without, with_lip, 5.0, 25.0)
    assert rate == pytest.approx(100.0) and rate_with == pytest.approx(100.0 * (20 - 1.2) / 20)
    assert lost == pytest.approx(1.2)
    # Nothing lost before the window counts.
    assert lost_ms(without, with_lip, 6.2, 25.0)[2] == pytest.approx(0.0)


def test_the_exchange_timeout_is_above_the_queue_drain_time() -> None:
    # 125 disks x 4 x 64 KiB at 200 MB/s take 163.8 ms to move: three times that (491.5 ms), rounded up to 10 ms.
    drain_ms = 125 * 4 * 65536 / 200e6 * 1e3
    assert timeout_ms(125) >= 3 * drain_ms and timeout_ms(125) < 3 * drain_ms + 10
    assert timeout_ms(1) == 20.0


def test_quick_sweep_writes_csv_and_table(tmp_path: Path, fcal_sim_path: str) -> None:
    page = tmp_path / "page.md"
    page.write_text("# x\n\n<!-- lip_sweep.py: begin -->\nold\n<!-- lip_sweep.py: end -->\n")
    code = lip_sweep.main(["--quick", "--fcal-sim", fcal_sim_path, "--jobs", "2", "--out", str(tmp_path),
                           "--no-plots", "--write", str(page)])
    assert code == 0
    with open(tmp_path / "lip_sweep.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["ports"]) for r in rows] == [2, 3]
    for r in rows:
        ports, down_us = int(r["ports"]), float(r["loop_down_us"])
        t_us = formula_s(ports) * 1e6
        assert float(r["formula_us"]) == pytest.approx(t_us)
        # At least the idle loop's time (to picosecond rounding), at most one full frame more (docs/loop_init.md,
        # "Stall against port count": a port ends the frame it is sending before it repeats the LIPs).
        assert t_us - 0.1 * WORD_S * 1e6 <= down_us <= t_us + FULL_FRAME_WORDS * WORD_S * 1e6
        assert int(r["lip_count"]) == 1 and int(r["failed_ios"]) == 0
        # Lost data is at most the loop-down time plus one aborted I/O per abort at the run's rate.
        io_ms = 65536 / (float(r["mb_per_s_without"]) * 1e6) * 1e3
        assert float(r["lost_ms"]) <= down_us / 1e3 + int(r["aborts"]) * io_ms + 0.5
    text = page.read_text()
    assert "old" not in text and "| ports | disks | loop_down_us | formula T (us)" in text
    assert text.count("\n| 2 | 1 |") == 1 and text.count("\n| 3 | 2 |") == 1
