"""The drives of configs/disks/ load and run in fcal-sim, which prints each one's capacity; the capacity in the
results is floor(N(C)) x sector size, worked out here from the file's geometry (docs/disk.md, "The zoned model").
Bad disk keys exit 2 naming the key."""
from __future__ import annotations

import glob
import json
import math
import os
import re

import pytest

from conftest import ROOT, load_results, sets

DRIVES = sorted(glob.glob(os.path.join(ROOT, "configs", "disks", "*.json")))


def test_there_are_drives():
    assert len(DRIVES) >= 3, f"expected at least 3 drives in configs/disks, found {len(DRIVES)}"


@pytest.mark.parametrize("path", DRIVES, ids=os.path.basename)
def test_drive_runs_with_its_capacity(fcal_sim, tmp_path, path):
    r = fcal_sim("--config", path, "--set", "disk.count=2", "--set", "workload.io_size=4K",
                 "--set", "workload.measured_ios=100", "--stats-json", tmp_path / "r.json")
    assert r.code == 0, f"{path}: exit {r.code}: {r.err}"
    assert re.search(r"zoned disks *capacity", r.out), f"{path}: no capacity line"
    with open(path) as f:
        d = json.load(f)["disk"]
    res = load_results(tmp_path / "r.json")["results"]
    rev = 60000.0 / d["rpm"]
    si, so = rev / d["sector_time_inner_ms"], rev / d["sector_time_outer_ms"]
    c = d["cylinders"]
    sectors = math.floor(d["heads"] * (si * c + (so - si) * c * c / (2 * (c - 1))))
    assert res["disk_mechanics"]["capacity_bytes"] == sectors * d["sector_bytes"], \
        f"{path}: capacity {res['disk_mechanics']['capacity_bytes']} bytes, expected {sectors} sectors"
    assert res["completed_ios"] == res["issued_ios"], f"{path}: I/Os not completed"


@pytest.mark.parametrize("key, assignments", [
    ("disk.model", ["disk.model=tape"]),
    ("disk.access_dist", ["disk.access_dist=normal"]),
    ("disk.scheduler", ["disk.scheduler=sptf"]),
    ("disk.scheduler", ["disk.model=zoned", "disk.positioning=stochastic", "disk.scheduler=sptf"]),
    ("disk.sector_time_inner_ms", ["disk.model=zoned", "disk.sector_time_inner_ms=0.001"]),
    ("disk.seek_read_min_ms", ["disk.model=zoned", "disk.seek_read_min_ms=20"]),
    ("disk.buffer_full_ratio", ["disk.buffer_full_ratio=0"]),
    ("disk.buffer_kib", ["disk.model=zoned", "disk.buffer_kib=8", "target.max_payload=2112"]),
    ("initiator.task_set_full_retry_us", ["initiator.task_set_full_retry_us=-1"]),
])
def test_bad_disk_value_is_refused_naming_the_key(fcal_sim, key, assignments):
    r = fcal_sim(*sets(*assignments))
    assert r.code == 2, f"{' '.join(assignments)}: exit {r.code}, expected 2"
    assert key in r.err, f"{' '.join(assignments)}: the error does not name {key}: {r.err}"
