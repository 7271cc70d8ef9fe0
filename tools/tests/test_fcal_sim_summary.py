"""fcal-sim's summary says what ran and prints only lines that mean something for the run; no SystemC banner
unless asked for (docs/cli.md, "fcal-sim"). The figures in it are checked against the run's own stats JSON,
written in the same run, and the scenario's words against the settings given."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

SHORT = ["--set", "workload.measured_ios=20", "--set", "workload.warmup_ios=4"]


def run_with_stats(fcal_sim, tmp_path, *args: str) -> tuple[str, dict[str, Any]]:
    stats = tmp_path / "stats.json"
    r = fcal_sim(*args, "--stats-json", str(stats))
    assert r.code == 0, r.err
    return r.out, json.loads(stats.read_text())


CASES = {
    "closed, loop": (["--set", "disk.count=4", "--set", "workload.queue_depth=3", *SHORT],
                     ["4 disks on a 2GFC loop (5 nodes), closed workload, queue depth 3, 65536-byte I/Os, 100% reads, "
                      "schedule cmdf", "throughput", "command wait (HBA)", "transmit queue     SystemC model"],
                     ["open workload", "erase"]),
    "open, ideal transport (configs/md1_single_disk.json's shape)":
        (["--set", "transport=ideal", "--set", "workload.type=open", "--set", "workload.rate_iops=151.0245505509",
          "--set", "disk.count=1", *SHORT],
         ["1 disks behind the ideal transport, open workload at 151.0 IOPS, 65536-byte I/Os, 100% reads\n",
          "throughput", "transport          ideal"],
         ["queue depth", "schedule", "command wait", "transmit queue", "controller port"]),
    "open, loop, normal schedule": (["--set", "workload.type=open", "--set", "workload.rate_iops=2000",
                                     "--set", "schedule=normal", "--set", "disk.count=2", *SHORT],
                                    ["open workload at 2000.0 IOPS", "schedule normal", "command wait (HBA)"],
                                    ["queue depth"]),
    "mixed sizes": (["--set", "workload.io_size_max=16K", "--set", "workload.io_size=4K", "--set",
                     "workload.read_fraction=0.25", *SHORT], ["4096- to 16384-byte I/Os, 25% reads"], []),
    "erase job": (["--set", "workload.type=erase", "--set", "disk.count=2", "--set", "disk.capacity_gb=0.05"],
                  ["2 disks on a 2GFC loop (3 nodes), erase job, schedule cmdf\n", "media written", "command response"],
                  ["IOPS", "throughput", "measured I/Os", "queue depth", "reads"]),
}


@pytest.mark.parametrize("args, present, absent", list(CASES.values()), ids=list(CASES))
def test_the_summary_prints_what_applies(fcal_sim, tmp_path, args, present, absent):
    out, _ = run_with_stats(fcal_sim, tmp_path, *args)
    for text in present:
        assert text in out, out
    for text in absent:
        assert text not in out, out


def test_the_erase_summary_gives_the_job_s_time_and_what_it_wrote(fcal_sim, tmp_path):
    out, stats = run_with_stats(fcal_sim, tmp_path, "--set", "workload.type=erase", "--set", "disk.count=2",
                                "--set", "disk.capacity_gb=0.05")
    e, seconds = stats["results"]["erase"], stats["results"]["erase_time_s"]
    assert f"{e['blocks_per_command']} blocks per command: {seconds:.3f} s" in out
    assert f"media written      {e['media_bytes'] / 1e9:.3f} GB ({e['media_bytes'] / seconds / 1e6:.2f} MB/s) " \
           f"by {e['commands']} commands" in out
    # Two disks of 0.05 GB (10^9 bytes), written whole.
    assert e["media_bytes"] == 2 * (50_000_000 // 512 * 512)


def test_the_rtl_summary_says_the_rtl_ran_and_how_many_decisions_lockstep_compared(fcal_sim, tmp_path):
    out, stats = run_with_stats(fcal_sim, tmp_path, "--set", "cmdf.impl=rtl", "--set", "rtl.lockstep=true",
                                "--set", "disk.count=4", *SHORT)
    rtl = stats["results"]["rtl"]
    assert rtl["decisions_compared"] > 0
    assert (f"transmit queue     RTL (Verilated), {rtl['cycles']} cycles, in lock-step with the SystemC model: "
            f"{rtl['decisions_compared']} decisions compared\n") in out
    out, stats = run_with_stats(fcal_sim, tmp_path, "--set", "cmdf.impl=rtl", "--set", "disk.count=4", *SHORT)
    assert f"transmit queue     RTL (Verilated), {stats['results']['rtl']['cycles']} cycles\n" in out


def run_bare(fcal_sim_path: str, env_extra: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """fcal-sim without the fixture, whose environment disables the banner."""
    env = {k: v for k, v in os.environ.items() if k not in ("SC_COPYRIGHT_MESSAGE", "SYSTEMC_DISABLE_COPYRIGHT_MESSAGE")}
    env.update(env_extra)
    return subprocess.run([fcal_sim_path, *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("args", [SHORT, ["--set", "loop.speed=3GFC"], ["--check"]], ids=["run", "refused", "check"])
def test_no_systemc_banner_without_the_environment_variable(fcal_sim_path, args):
    r = run_bare(fcal_sim_path, {}, *args)
    assert "SystemC 2.3" not in r.stdout + r.stderr and "Copyright" not in r.stdout + r.stderr
    # The banner is still SystemC's to print when asked for: the check above can fail.
    asked = run_bare(fcal_sim_path, {"SC_COPYRIGHT_MESSAGE": "ENABLE"}, *args)
    assert "SystemC 2.3" in asked.stdout + asked.stderr
    assert r.returncode == asked.returncode
