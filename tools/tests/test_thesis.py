"""The thesis's reproduction stays reproducible: a small spec run afresh through tools/sweep_thesis.py gives
the summary committed in docs/thesis/data byte for byte, and its figure."""
from __future__ import annotations

import os

from conftest import ROOT, tool


def test_a_thesis_spec_reproduces_its_committed_summary(tmp_path, fcal_sim_path):
    p = tool("tools/sweep_thesis.py", "--only", "ch5_distance", "--jobs", "2", "--fcal-sim", fcal_sim_path,
             "--runs", str(tmp_path / "runs"), "--docs", str(tmp_path / "docs"))
    assert p.returncode == 0, p.stderr
    with open(os.path.join(ROOT, "docs", "thesis", "data", "ch5_distance.csv")) as f:
        committed = f.read()
    with open(tmp_path / "docs" / "data" / "ch5_distance.csv") as f:
        assert f.read() == committed
    assert (tmp_path / "docs" / "ch5_distance_1.png").stat().st_size > 10000
    with open(tmp_path / "docs" / "README.md") as f:
        page = f.read()
    assert "| [`ch5_distance`](../../experiments/ch5_distance.toml) | Fig. 5.11: physical distance | 8 of 8 points, 8 runs (0 failed)" in page
