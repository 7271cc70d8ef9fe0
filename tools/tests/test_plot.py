"""`sweep plot`: units on the axes, a caption saying what the bands are, a refusal to join several rows at one x,
a spec's [[plot]] blocks drawn directly, and the README's example."""
from __future__ import annotations

import os
import re
import shlex

import pytest

from conftest import ROOT
from fcal_tools.sim import list_params
from fcal_tools.sweep.cli import main
from fcal_tools.sweep.plot import PlotError, curves, seeds_caption
from fcal_tools.units import Units, parse_number, result_unit

BASELINE = os.path.join(ROOT, "docs", "thesis", "data", "ch6_baseline.csv")
pytest.importorskip("matplotlib", reason="sweep plot needs python3-matplotlib (scripts/setup.sh installs it)")


@pytest.fixture(scope="module")
def units(fcal_sim_path):
    return Units(list_params(fcal_sim_path))


def row(x, y, ci="", runs="3", **cols):
    return dict({"workload.io_size": str(x), "iops": str(y), "iops_ci95": ci, "runs": runs, "failed": "0"}, **cols)


def test_axes_carry_units(units):
    assert units.axis("workload.io_size", [1024.0, 65536.0]).label == "workload.io_size (KiB)"
    assert units.axis("workload.io_size", [1024.0, 65536.0]).scale == 1024
    assert units.axis("workload.io_size", [1000.0]).label == "workload.io_size (bytes)"
    assert units.axis("disk.access_ms", [2.0]).label == "disk.access_ms (ms)"
    assert units.axis("disk.3.access_ms", [2.0]).label == "disk.3.access_ms (ms)"  # a per-disk override
    assert units.axis("initiator.cmd_exec_us", [1.0]).label == "initiator.cmd_exec_us (µs)"
    assert units.axis("mb_per_s", [1.0]).label == "mb_per_s (MB/s)"
    assert units.axis("iops", [1.0]).label == "iops (IO/s)"
    assert units.axis("ports.0.arbitration_wait_mean_us", [1.0]).label == "ports.0.arbitration_wait_mean_us (µs)"
    assert units.axis("disks.3.utilisation", [0.5]).label == "disks.3.utilisation (fraction)"
    assert units.axis("completed_ios", [1.0]).label == "completed_ios"
    assert units.value_text("workload.io_size", "1048576") == "1 MiB" and units.value_text("workload.io_size", "4K") == "4 KiB"


@pytest.mark.parametrize("text, size, value", [("4K", True, 4096.0), ("1M", True, 1048576.0), ("4K", False, None),
                                               ("2.5", False, 2.5), ("", False, None), ("nan", False, None)])
def test_numbers_of_a_summary(text, size, value):
    assert parse_number(text, size=size) == value


def test_result_units_by_name():
    assert [result_unit(n) for n in ("mean_response_us", "erase_time_s", "iops", "reads")] == ["µs", "s", "IO/s", ""]


def test_several_rows_at_one_x_are_refused_naming_what_tells_them_apart(units):
    rows = [row(4096, 10, type="read", arm="a"), row(4096, 20, type="write", arm="a"), row(8192, 30, type="read", arm="a")]
    with pytest.raises(PlotError) as e:
        curves(rows, "workload.io_size", "iops", ["arm"], units)
    assert "2 rows at workload.io_size=4096 in the curve 'arm=a'" in str(e.value) and "differ in type" in str(e.value)
    data = curves(rows, "workload.io_size", "iops", ["arm", "type"], units)
    assert data == {"arm=a, type=read": [(4096.0, 10.0, 0.0), (8192.0, 30.0, 0.0)],
                    "arm=a, type=write": [(4096.0, 20.0, 0.0)]}


def test_the_caption_counts_the_seeds():
    assert seeds_caption([row(1, 1, runs="3"), row(2, 2, runs="3")]) == "bands: 95 % CI of the mean over 3 seeds (Student t)"
    assert seeds_caption([row(1, 1, runs="1")]) == "one seed per point: no confidence band"
    assert seeds_caption([row(1, 1, runs="1"), row(2, 2, runs="3"), row(3, 3, runs="5")]) == \
        "bands: 95 % CI of the mean over 3-5 seeds (Student t); points with one seed have none"


def readme_plot_command():
    """The `tools/sweep plot` line of the README's Sweeps section, as arguments after `plot`."""
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("## Sweeps and the thesis"):]
    line = next(l for l in section.splitlines() if "tools/sweep plot" in l and "--x" in l)
    args = shlex.split(line.split("#")[0])
    return args[args.index("plot") + 1:]


def test_the_readme_example_draws_one_row_per_x(tmp_path, fcal_sim_path, capsys):
    args = readme_plot_command()
    assert args[0] == "out/sweeps/ch6_baseline/summary.csv"  # the summary of experiments/ch6_baseline.toml
    out = tmp_path / "readme.png"
    assert main(["plot", BASELINE] + args[1:] + ["--out", str(out), "--fcal-sim", fcal_sim_path]) == 0
    assert out.stat().st_size > 10000


def test_the_old_readme_example_is_refused(tmp_path, capsys):
    rc = main(["plot", BASELINE, "--x", "workload.io_size", "--y", "mb_per_s", "--by", "arm", "--logx",
               "--out", str(tmp_path / "p.png")])
    err = capsys.readouterr().err
    assert rc == 2 and "would be drawn as a zigzag" in err and "type" in err and "rate" in err
    assert not (tmp_path / "p.png").exists()


def test_a_spec_draws_its_plot_blocks(tmp_path, fcal_sim_path, capsys):
    spec = os.path.join(ROOT, "experiments", "ch6_baseline.toml")
    assert main(["plot", spec, "--summary", BASELINE, "--out", str(tmp_path), "--fcal-sim", fcal_sim_path]) == 0
    pngs = sorted(os.listdir(tmp_path))
    assert pngs == [f"ch6_baseline_{i}.png" for i in (1, 2, 3, 4)]
    assert capsys.readouterr().out.split() == [str(tmp_path / p) for p in pngs]


def test_where_and_panels_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "p.png"
    assert main(["plot", BASELINE, "--x", "workload.io_size", "--y", "iops", "--by", "arm", "--panels", "type",
                 "--where", "rate=2.0 Gbaud", "--logx", "--logy", "--out", str(out)]) == 0
    assert out.exists()
    assert main(["plot", BASELINE, "--x", "workload.io_size", "--y", "iops", "--where", "rate"]) == 2
    assert "expected COL=VALUE" in capsys.readouterr().err
