"""fcal-sim erasure jobs (docs/erasure.md, "Erasure"): the erase.* keys and per-disk overrides (disk.<i>.<name>),
their errors (exit 2, one line naming the key and the disk), a small fixed-disk erase whose WRITE SAME times follow
access time + range / media rate, the progress lines on stderr, and byte-identical results for a repeated run."""
from __future__ import annotations

import pytest

from conftest import expect_refused, load_results, sets

# Two fixed disks of 1 MB (1953 blocks of 512 bytes), 2 ms access, 50 MB/s.
SMALL = ["--set", "disk.count=2", "--set", "disk.capacity_gb=0.001", "--set", "workload.type=erase", "--quiet"]


def test_list_params_names_the_erase_keys(fcal_sim):
    listing = fcal_sim("--list-params").out.splitlines()
    for k in ["erase.command", "erase.strategy", "erase.tl_policy", "erase.transfer_blocks", "erase.same_blocks",
              "erase.disks", "disk.capacity_gb"]:
        assert any(line.startswith(k + " ") for line in listing), f"--list-params lacks {k}"


@pytest.mark.parametrize("key, what, assignments", [
    ("erase.command", "unknown erase command", ["erase.command=format"]),
    ("erase.strategy", "unknown strategy", ["erase.strategy=random"]),
    ("erase.tl_policy", "unknown transfer length policy", ["erase.tl_policy=auto"]),
    ("erase.transfer_blocks", "transfer length beyond 16 bits", ["erase.transfer_blocks=65536"]),
    ("erase.same_blocks", "empty WRITE SAME range", ["erase.same_blocks=0"]),
    ("erase.disks", "more disks to erase than on the loop", ["erase.disks=3"]),
    ("disk.capacity_gb", "fixed disk without a capacity", ["disk.capacity_gb=0"]),
    ("workload.type", "erase over the ideal transport", ["transport=ideal"]),
    ("disk.1.rate_mbs", "negative per-disk rate", ["disk.1.rate_mbs=-5"]),
    ("disk.1.rate_mbs", "per-disk rate not a number", ["disk.1.rate_mbs=fast"]),
    ("disk.2.rate_mbs", "override for a disk that does not exist", ["disk.2.rate_mbs=40"]),
    ("disk.1.model", "override of a key that is not per disk", ["disk.1.model=zoned"]),
    ("disk.1.sector_time_inner_ms", "per-disk inner sector time below the outer one",
     ["disk.model=zoned", "disk.1.sector_time_inner_ms=0.001"]),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_erase_values_are_refused(fcal_sim, key, what, assignments):
    expect_refused(fcal_sim(*SMALL, *sets(*assignments)), key, what)


def test_per_disk_override_of_the_wrong_type_in_a_file(fcal_sim, tmp_path):
    (tmp_path / "bad.json").write_text('{"disk": {"count": 2, "1": {"seek_write_max_ms": "slow"}}}\n')
    expect_refused(fcal_sim("--config", tmp_path / "bad.json", "--quiet"), "disk.1.seek_write_max_ms")


def test_write_same_erase(fcal_sim, tmp_path):
    (tmp_path / "slow1.json").write_text('{"disk": {"1": {"rate_mbs": 25}}}\n')
    args = ["--config", tmp_path / "slow1.json", *SMALL, "--set", "erase.same_blocks=1000", "--set", "erase.strategy=sequential"]
    r = fcal_sim(*args, "--stats-json", tmp_path / "a.json")
    assert r.code == 0, f"fixed-disk WRITE SAME erase: exit {r.code}: {r.err}"
    assert "erase 100 %" in r.err, f"no progress line on stderr: {r.err}"
    r = fcal_sim(*args, "--stats-json", tmp_path / "b.json")
    assert r.code == 0, f"fixed-disk WRITE SAME erase, again: exit {r.code}: {r.err}"
    a = load_results(tmp_path / "a.json")
    assert a == load_results(tmp_path / "b.json"), "fixed-disk WRITE SAME erase: a repeated run differs"
    res, c = a["results"], a["config"]
    assert c["disk"]["1"] == {"rate_mbs": 25.0}, f"the per-disk override's echo: {c['disk']}"
    blocks = int(0.001e9 / 512)  # 1953
    assert res["run_end"] == "completed", f"run_end {res['run_end']}"
    for d, rate in ((0, 50e6), (1, 25e6)):
        disk = res["disks"][d]
        # 1953 blocks in WRITE SAMEs of at most 1000: 2 commands.
        assert disk["commands"] == 2, f"disk {d}: {disk['commands']} commands, expected 2"
        assert disk["media_bytes"] == blocks * 512, f"disk {d}: {disk['media_bytes']} media bytes"
        # Each command: 2 ms access + its range at the media rate; the HBAs add well under 1 ms per command.
        media = 2 * 2e-3 + blocks * 512 / rate
        assert media < disk["erase_time_s"] < media + 2e-3, f"disk {d}: erase time {disk['erase_time_s']} s, media {media} s"
    total = res["disks"][0]["erase_time_s"] + res["disks"][1]["erase_time_s"]
    assert abs(res["erase_time_s"] - total) < 1e-3, f"erase_time_s {res['erase_time_s']} is not the disks' sum {total}"


@pytest.mark.parametrize("strategy", ["sequential", "parallel"])
def test_failing_commands_print_no_progress_lines(fcal_sim, strategy):
    # Disk 1's drive fails at once: every command to it fails, disk 0's all complete. 1953 blocks in WRITE
    # SAMEs of 100 are 20 commands a disk: disk 0's completions reach 10 % ... 50 % of the 40, a line each,
    # the line of k tenths at completion ceil(k x 40 / 10); the failures add none.
    r = fcal_sim(*SMALL, *sets("erase.same_blocks=100", f"erase.strategy={strategy}", "event.0.kind=fail",
                               "event.0.at_ms=0", "event.0.disk=1"))
    assert r.code == 0, r.err
    per_disk = -(-int(0.001e9 / 512) // 100)
    total = 2 * per_disk
    expected = [f"fcal-sim: erase {10 * k:3d} % ({-(-k * total // 10)} of {total} commands)"
                for k in range(1, 10 * per_disk // total + 1)]
    lines = [line for line in r.err.splitlines() if line.startswith("fcal-sim: erase ")]
    assert [line.split(" at ")[0] for line in lines] == expected, lines
