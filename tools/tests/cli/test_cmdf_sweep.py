"""Smoke test of the NORMAL vs CMDF sweep (tools/cmdf_sweep.py, on the general sweep tool; docs/cmdf.md): a quick
sweep writes its CSV (one row per point, three arms), the gain table and the four figures; run again into the same
folder it has nothing left to run (it resumes) and writes the same CSV."""
from __future__ import annotations

from conftest import tool


def test_quick_sweep_and_resume(tmp_path, fcal_sim_path, python):
    args = ["tools/cmdf_sweep.py", "--quick", "--measured", "100", "--fcal-sim", fcal_sim_path, "--out", str(tmp_path)]
    p = tool(*args, timeout=600, python=python)
    assert p.returncode == 0, f"the sweep did not run:\n{(p.stdout + p.stderr)[-3000:]}"
    lines = (tmp_path / "sweep.csv").read_text().splitlines()
    # --quick: (4 sizes x 3 read fractions + 3 disk counts + 2 depths + 2 access times) x 3 arms
    assert len(lines) - 1 == (4 * 3 + 3 + 2 + 2) * 3, f"{len(lines) - 1} CSV rows"
    for arm in ["normal", "cmdf", "unfair"]:
        assert any(f",{arm}," in line for line in lines), f"no {arm} rows"
    gain = (tmp_path / "gain_table.md").read_text()
    assert "| 64 KiB |" in gain, f"gain table:\n{gain}"
    for figure in ["sizes", "disks", "depth", "access"]:
        assert (tmp_path / f"{figure}.png").stat().st_size > 0, f"no {figure}.png"
    first = (tmp_path / "sweep.csv").read_text()
    p = tool(*args, "--no-plots", timeout=600, python=python)
    assert p.returncode == 0, f"the second run failed:\n{(p.stdout + p.stderr)[-3000:]}"
    assert (tmp_path / "sweep.csv").read_text() == first, "the resumed run wrote another CSV"
    runs = (tmp_path / "runs.csv").read_text().splitlines()
    assert len(runs) - 1 == 57, f"runs.csv holds {len(runs) - 1} runs after the second run, expected 57"
