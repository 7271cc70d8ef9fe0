"""DECODE on a RAID 0 volume of DECODE's drives (docs/controller.md, "DECODE"): a read-only workload gives the same
results with and without DECODE over the same layout; with no free slots DECODE is plain RAID 0 even for writes;
with free slots writes relocate and a repeated run is byte-identical; bad keys exit 2 naming the key."""
from __future__ import annotations

import os

import pytest

from conftest import ROOT, expect_refused, load_results, sets

DRIVE = os.path.join(ROOT, "configs", "disks", "decode_5400rpm.json")
# The paper's set-up in small: 8 disks, 4 KiB (8-sector) units, a 10 MB file, 1-64 sectors, open arrivals.
BASE = ["--config", DRIVE, *sets(*[
    "disk.count=8", "volume.raid=raid0", "volume.stripe_kib=4", "transport=ideal", "workload.type=open",
    "workload.rate_iops=150", "workload.io_size=512", "workload.io_size_max=32K", "workload.span_bytes=10485760",
    "workload.measured_ios=600", "workload.warmup_ios=100"]), "--quiet"]
COUNTERS = ("decode_relocations", "decode_in_place_writes")


def run(fcal_sim, path, *assignments):
    r = fcal_sim(*BASE, *sets(*assignments), "--stats-json", path)
    assert r.code == 0, f"{' '.join(assignments)}: exit {r.code}: {r.err}"
    return load_results(path)


def without_counters(doc):
    r = dict(doc["results"], volume={k: v for k, v in doc["results"]["volume"].items() if k not in COUNTERS})
    return r


def test_read_only_decode_changes_nothing(fcal_sim, tmp_path):
    on = run(fcal_sim, tmp_path / "on.json", "workload.read_fraction=1", "volume.decode=true")
    off = run(fcal_sim, tmp_path / "off.json", "workload.read_fraction=1", "decode.free_fraction=0.125")
    a, b = without_counters(on), without_counters(off)
    assert a == b, "read-only: DECODE changed the results: " + str([k for k in a if a[k] != b.get(k)])
    v = on["results"]["volume"]
    assert v["decode_relocations"] == 0 and v["decode_in_place_writes"] == 0, f"read-only: DECODE counted writes: {v}"
    assert on["results"]["writes"] == 0 and on["results"]["reads"] == 600, "read-only: not 600 reads"


def test_without_free_slots_decode_is_raid0(fcal_sim, tmp_path):
    on = run(fcal_sim, tmp_path / "on.json", "workload.read_fraction=0.75", "volume.decode=true", "decode.free_fraction=0")
    off = run(fcal_sim, tmp_path / "off.json", "workload.read_fraction=0.75")
    a, b = without_counters(on), without_counters(off)
    assert a == b, "no free slots: DECODE differs from RAID 0: " + str([k for k in a if a[k] != b.get(k)])
    v = on["results"]["volume"]
    assert v["decode_relocations"] == 0 and v["decode_in_place_writes"] > 0, f"no free slots: {v}"
    assert "decode_relocations" not in off["results"]["volume"], "plain RAID 0 reports DECODE counters"


def test_decode_with_writes(fcal_sim, tmp_path):
    a = run(fcal_sim, tmp_path / "a.json", "workload.read_fraction=0.75", "volume.decode=true")
    b = run(fcal_sim, tmp_path / "b.json", "workload.read_fraction=0.75", "volume.decode=true")
    assert a == b, "DECODE with writes: a repeated run differs"
    r, c = a["results"], a["config"]
    assert c["volume"]["decode"] is True, "volume.decode not echoed"
    assert c["decode"] == {"area_units": 10, "threshold": 0.5, "own_write": True, "free_fraction": 0.125}, \
        f"DECODE's defaults: {c['decode']}"
    assert r["run_end"] == "completed" and r["completed_ios"] == r["issued_ios"] == 800, \
        "DECODE with writes: not 2 x 100 + 600 completed"
    v = r["volume"]
    assert v["decode_relocations"] > 0 and v["decode_in_place_writes"] > 0, f"DECODE with writes: {v}"
    assert r["read_mean_response_us"] > 0 and r["write_mean_response_us"] > 0, "no read or write response times"


def test_list_params_names_the_keys(fcal_sim):
    listing = fcal_sim("--list-params").out.splitlines()
    for k in ["volume.decode", "decode.area_units", "decode.threshold", "decode.own_write", "decode.free_fraction",
              "workload.io_size_max", "workload.span_bytes"]:
        assert any(line.startswith(k + " ") for line in listing), f"--list-params lacks {k}"


SMALL = ["--set", "disk.count=4", "--set", "workload.measured_ios=50", "--quiet"]


@pytest.mark.parametrize("key, what, assignments", [
    ("volume.decode", "DECODE without a volume", ["volume.decode=true"]),
    ("volume.decode", "DECODE on raid5", ["volume.raid=raid5", "volume.decode=true"]),
    ("volume.decode", "DECODE switch not a boolean", ["volume.raid=raid0", "volume.decode=maybe"]),
    ("decode.free_fraction", "free slots on raid1", ["volume.raid=raid1", "decode.free_fraction=0.25"]),
    ("decode.free_fraction", "free fraction above 0.5", ["volume.raid=raid0", "volume.decode=true", "decode.free_fraction=0.6"]),
    ("decode.threshold", "negative threshold", ["volume.raid=raid0", "volume.decode=true", "decode.threshold=-0.1"]),
    ("decode.area_units", "negative equivalent area", ["volume.raid=raid0", "volume.decode=true", "decode.area_units=-1"]),
    ("workload.io_size_max", "largest size below the smallest", ["workload.io_size=8K", "workload.io_size_max=4K"]),
    ("workload.io_size_max", "sizes not whole blocks", ["workload.io_size=1000", "workload.io_size_max=4K"]),
    ("workload.span_bytes", "span beyond the volume", ["volume.raid=raid0", "workload.span_bytes=1000G"]),
    ("workload.span_bytes", "span smaller than one I/O", ["workload.span_bytes=32K"]),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_decode_values_are_refused(fcal_sim, key, what, assignments):
    expect_refused(fcal_sim(*SMALL, *sets(*assignments)), key, what)
