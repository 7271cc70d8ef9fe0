"""The sweep tool's spec, failure recording, statistics and plot (docs/sweeps.md):
- a zipped axis with a value fcal-sim refuses (disk.count=200): that point is recorded as failed with fcal-sim's exit
  code 2 and the stderr line naming the key, the other points still run, exit code 1;
- three seeds per point: the summary's mean and 95 % half-width equal mean +- t(0.975, 2) s / sqrt(3), recomputed
  here from runs.csv (t = 4.302653, from tables); seeds change the results, so the CI is not zero;
- `plot` draws a PNG; a zip of unequal lengths is refused with exit code 2."""
from __future__ import annotations

import csv
import math

from conftest import tool

SPEC = '''name = "basic"
seeds = 3
results = ["iops", "mean_response_us"]
[fixed]
"workload.measured_ios" = 60
"workload.read_fraction" = 0.5
[[zip]]
"disk.count" = [2, 4, 200]
"workload.io_size" = ["4K", "16K", "4K"]
'''
T = 4.302653  # Student t, 0.975 quantile, 2 degrees of freedom


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_failures_statistics_and_plot(tmp_path, fcal_sim_path, python):
    (tmp_path / "spec.toml").write_text(SPEC)
    p = tool("tools/sweep", "run", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "r"), "--fcal-sim",
             fcal_sim_path, python=python)
    assert p.returncode == 1, f"exit code {p.returncode} with a failed point, expected 1\n{p.stderr[-2000:]}"
    runs = read_csv(tmp_path / "r" / "runs.csv")
    failed = [r for r in runs if r["status"] == "failed" and r["exit_code"] == "2"]
    assert len(failed) == 3, f"the bad point's 3 runs are not recorded as failed with exit code 2: {runs}"
    assert all("disk.count" in r["stderr_tail"] for r in failed), "the stderr tail does not name disk.count"
    assert len([r for r in runs if r["status"] == "ok" and r["exit_code"] == "0"]) == 6, "the good points did not all run"
    summary = {(r["disk.count"], r["workload.io_size"]): r for r in read_csv(tmp_path / "r" / "summary.csv")}
    for key in [("2", "4K"), ("4", "16K")]:
        vals = [float(r["iops"]) for r in runs if (r["disk.count"], r["workload.io_size"]) == key and r["status"] == "ok"]
        assert len(vals) == 3, f"{key}: {len(vals)} runs"
        m = sum(vals) / 3
        s = math.sqrt(sum((v - m) ** 2 for v in vals) / 2)
        assert s > 0, f"{key}: seeds gave identical results {vals}"
        row = summary[key]
        assert int(row["runs"]) == 3 and int(row["failed"]) == 0, f"{key}: {row}"
        assert abs(float(row["iops"]) - m) <= 1e-9 * m, f"{key}: mean {row['iops']}, expected {m}"
        assert abs(float(row["iops_ci95"]) - T * s / math.sqrt(3)) <= 1e-5 * T * s, \
            f"{key}: CI half-width {row['iops_ci95']}, expected {T * s / math.sqrt(3)}"
    bad = summary[("200", "4K")]
    assert bad["runs"] == "0" and bad["failed"] == "3" and bad["iops"] == "", f"the failed point's summary: {bad}"
    p = tool("tools/sweep", "plot", str(tmp_path / "r" / "summary.csv"), "--x", "disk.count", "--y", "iops",
             "--out", str(tmp_path / "p.png"), python=python)
    assert p.returncode == 0 and (tmp_path / "p.png").stat().st_size > 0, f"no plot: {p.stderr[-2000:]}"


def test_zip_of_unequal_lengths_is_refused(tmp_path, fcal_sim_path, python):
    (tmp_path / "bad.json").write_text('{"name": "x", "results": ["iops"], "zip": {"disk.count": [1, 2], "schedule": ["cmdf"]}}')
    p = tool("tools/sweep", "run", str(tmp_path / "bad.json"), "--out", str(tmp_path / "b"), "--fcal-sim",
             fcal_sim_path, python=python)
    assert p.returncode == 2 and "zip" in p.stderr, f"a zip of unequal lengths was not refused (exit {p.returncode}): {p.stderr}"
