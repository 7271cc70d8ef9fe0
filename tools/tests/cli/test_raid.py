"""fcal-sim with a RAID volume and the ideal transport (docs/controller.md): the keys and their errors (exit 2
naming the key), --cdf (a bad path is refused before the run; the CSV is a monotone quantile function whose
quantiles are the results' percentiles), p90 and per-disk utilisation, byte-identical results for a repeated run."""
from __future__ import annotations

import csv

import pytest

from conftest import expect_refused, load_results

SMALL = ["--set", "disk.count=5", "--set", "workload.measured_ios=300", "--set", "workload.warmup_ios=20", "--quiet"]


def test_list_params_names_the_keys(fcal_sim):
    listing = fcal_sim("--list-params").out.splitlines()
    for k in ["volume.raid", "volume.stripe_kib", "volume.split_merge", "transport", "workload.lba"]:
        assert any(line.startswith(k + " ") for line in listing), f"--list-params lacks {k}"


@pytest.mark.parametrize("key, what, args", [
    ("volume.raid", "unknown RAID level", SMALL + ["--set", "volume.raid=raid6"]),
    ("volume.raid", "raid1 over an odd disk count", SMALL + ["--set", "volume.raid=raid1"]),
    ("volume.raid", "raid5 over 2 disks", ["--set", "disk.count=2", "--set", "volume.raid=raid5", "--quiet"]),
    ("volume.stripe_kib", "zero stripe unit", SMALL + ["--set", "volume.stripe_kib=0"]),
    ("volume.split_merge", "unknown split-merge discipline", SMALL + ["--set", "volume.split_merge=sometimes"]),
    ("transport", "unknown transport", SMALL + ["--set", "transport=wire"]),
    ("workload.lba", "unknown LBA pattern", SMALL + ["--set", "workload.lba=backwards"]),
    ("workload.io_size", "RAID request not a whole number of blocks",
     SMALL + ["--set", "volume.raid=raid0", "--set", "workload.io_size=1000"]),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_volume_values_are_refused(fcal_sim, key, what, args):
    expect_refused(fcal_sim(*args), key, what)


def test_cdf_to_a_missing_folder_is_refused(fcal_sim, tmp_path):
    expect_refused(fcal_sim(*SMALL, "--cdf", tmp_path / "no" / "such" / "dir" / "cdf.csv"), "--cdf")


@pytest.mark.parametrize("transport", ["loop", "ideal"])
def test_raid5(fcal_sim, tmp_path, transport):
    args = [*SMALL, "--set", "volume.raid=raid5", "--set", "workload.read_fraction=0.5", "--set", "workload.queue_depth=4",
            "--set", f"transport={transport}"]
    r = fcal_sim(*args, "--stats-json", tmp_path / "a.json", "--cdf", tmp_path / "a.csv")
    assert r.code == 0, f"raid5 over {transport}: exit {r.code}: {r.err}"
    r = fcal_sim(*args, "--stats-json", tmp_path / "b.json")
    assert r.code == 0, f"raid5 over {transport}, again: exit {r.code}: {r.err}"
    a, b = load_results(tmp_path / "a.json"), load_results(tmp_path / "b.json")
    assert a == b, f"raid5 over {transport}: a repeated run differs"
    res, c = a["results"], a["config"]
    assert {k: c["volume"][k] for k in ("raid", "stripe_kib", "split_merge")} == \
        {"raid": "raid5", "stripe_kib": 64, "split_merge": "fork_join"}, f"the volume's echo: {c['volume']}"
    assert c["transport"] == transport, f"transport echoed as {c['transport']}"
    assert res["run_end"] == "completed" and res["measured_ios"] == 300, "not 300 measured I/Os"
    assert res["p50_response_us"] <= res["p90_response_us"] <= res["p99_response_us"] <= res["max_response_us"], \
        "percentiles out of order"
    assert len(res["disks"]) == 5, f"{len(res['disks'])} disks"
    for d in res["disks"]:
        assert 0 < d["utilisation"] < 1 and d["ios"] > 0, f"a disk unused or saturated: {d}"
    assert res["volume"]["member_ios"] > res["issued_ios"], "RAID 5 writes make no extra member I/Os"
    assert (len(res["ports"]) == 0) == (transport == "ideal"), f"{len(res['ports'])} ports over {transport}"
    with open(tmp_path / "a.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["quantile", "response_us"], f"CDF header {rows[0]}"
    q = [(float(x), float(y)) for x, y in rows[1:]]
    assert len(q) == 1001 and q[0][0] == 0 and q[-1][0] == 1, "the CDF is not 1001 quantiles from 0 to 1"
    assert all(q[i][1] <= q[i + 1][1] for i in range(1000)), "quantiles not monotone"
    for quantile, key in ((0.5, "p50_response_us"), (0.9, "p90_response_us"), (0.99, "p99_response_us")):
        row = q[round(quantile * 1000)]
        assert abs(row[1] - res[key]) <= 1e-6 + res[key] * 1e-9, f"CDF at {quantile}: {row[1]}, results {res[key]}"
    assert abs(q[-1][1] - res["max_response_us"]) <= 1e-6, "the CDF's last quantile is not the maximum"
