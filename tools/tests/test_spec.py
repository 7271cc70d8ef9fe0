"""Sweep specs: what is refused before fcal-sim is even asked (naming the file), and what they expand to."""
from __future__ import annotations

import json

import pytest

from fcal_tools.sweep.spec import Spec, SpecError, load

BASE = {"results": ["iops"], "grid": {"disk.count": [2, 4]}}


def spec(**changes):
    return Spec(dict(BASE, **changes), "s.toml")


@pytest.mark.parametrize("changes, message", [
    ({"result": ["iops"]}, "unknown entry 'result'"),
    ({"fixd": {"disk.count": 1}}, "unknown entry 'fixd'"),
    ({"results": ["iops", "disks..ios"]}, "'disks..ios' is not a result path"),
    ({"results": ["disks.-1.ios"]}, "is not a result path"),
    ({"results": ["iops", "iops"]}, "named twice"),
    ({"part": [{"name": "a", "gird": {}}]}, "part a: unknown entry 'gird'"),
    ({"plot": [{"x": "disk.count", "y": "iopss"}]}, "'iopss' is neither a column nor a result"),
    ({"plot": [{"x": "disk.cont", "y": "iops"}]}, "'disk.cont' is neither"),
    ({"plot": [{"x": "iops", "y": "disk.count"}]}, "y must be one of the results"),
    ({"plot": [{"x": "disk.count", "y": "iops", "panels": "type"}]}, "'type' is neither"),
    ({"plot": [{"x": "disk.count", "y": "iops", "colour": "red"}]}, "unknown entry 'colour'"),
    ({"base": "no/such.json"}, "no such file"),
    ({"labels": ["build"], "fixed": {"build": "x"}}, "'build' names a column the sweep writes itself"),
    ({"results": ["iops", "runs"]}, "'runs' names a column the sweep writes itself"),
])
def test_refused_naming_the_file(changes, message):
    with pytest.raises(SpecError) as e:
        spec(**changes)
    assert str(e.value).startswith("s.toml") and message in str(e.value)


def test_points_and_list_index_results():
    s = spec(results=["iops", "disks.1.utilisation", "ports.0.arbitration_wait_mean_us"], seeds=2,
             zip={"arm": ["a", "b"], "schedule": ["normal", "cmdf"]}, labels=["arm"])
    assert [(p["disk.count"], p["arm"]) for p in s.points()] == [(2, "a"), (2, "b"), (4, "a"), (4, "b")]
    assert s.settings(s.points()[1]) == [("disk.count", "2"), ("schedule", "cmdf")]
    assert len(s.runs()) == 8


def test_base_is_relative_to_the_spec_and_a_part_may_have_its_own(tmp_path):
    (tmp_path / "configs").mkdir()
    for name in ("a.json", "b.json"):
        (tmp_path / "configs" / name).write_text("{}")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(dict(BASE, base="configs/a.json",
                                    part=[{"name": "one"}, {"name": "two", "base": "configs/b.json"}])))
    s = load(str(path))
    assert [s.base_of(i) for i in range(4)] == [str(tmp_path / "configs" / n) for n in ("a.json",) * 2 + ("b.json",) * 2]
    assert s.bases() == sorted({str(tmp_path / "configs" / "a.json"), str(tmp_path / "configs" / "b.json")})


def test_every_experiment_spec_loads_with_its_figures():
    import glob
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    specs = sorted(glob.glob(os.path.join(root, "experiments", "*.toml")))
    assert specs
    figures = sum(len(load(p).figures) for p in specs)
    assert figures == 19  # (as many as docs/thesis/ shows)
