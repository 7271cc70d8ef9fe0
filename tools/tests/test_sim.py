"""fcal_tools.sim: the one function that runs fcal-sim, its parameter table and the build identity."""
from __future__ import annotations

import hashlib
import os
import shutil

import pytest

from fcal_tools.sim import SimError, list_params, run_sim, build_identity


def test_run_sim_parses_the_stats_of_the_settings_given(fcal_sim_path):
    run = run_sim(fcal_sim_path, [("disk.count", "3"), "workload.measured_ios=5"])
    assert run.exit_code == 0 and run.stats is not None
    assert run.stats["config"]["disk"]["count"] == 3
    assert run.results["measured_ios"] == 5 and len(run.results["disks"]) == 3


def test_run_sim_reports_a_refused_run_in_one_line(fcal_sim_path):
    run = run_sim(fcal_sim_path, ["disk.cuont=3"])
    assert run.exit_code == 2 and run.stats is None
    with pytest.raises(SimError) as e:
        run.check()
    assert "exit 2" in str(e.value) and "disk.cuont" in str(e.value) and "\n" not in str(e.value)


def test_run_sim_gives_127_for_a_missing_program(tmp_path):
    run = run_sim(str(tmp_path / "no-such-fcal-sim"))
    assert run.exit_code == 127 and "no-such-fcal-sim" in run.stderr


def test_run_sim_config_on_stdin_and_stats_to_a_file(fcal_sim_path, tmp_path):
    out = tmp_path / "s.json"
    run = run_sim(fcal_sim_path, ["workload.measured_ios=3"], config_text='{"disk": {"count": 2}}', stats=str(out))
    assert run.exit_code == 0 and out.exists()
    assert run.results["measured_ios"] == 3 and len(run.results["disks"]) == 2


def test_the_fixture_returns_code_streams_and_json(fcal_sim):
    r = fcal_sim("--quiet", "--stats-json", "-", "--set", "workload.measured_ios=2")
    assert r.code == 0 and r.err == "" and r.results["completed_ios"] >= 2
    bad = fcal_sim("--set", "loop.speed=3GFC")
    assert bad.code == 2 and bad.json is None and len(bad.err.strip().splitlines()) == 1


def test_list_params_reads_the_json_table(fcal_sim_path, fcal_sim):
    params = {p.key: p for p in list_params(fcal_sim_path)}
    listing = fcal_sim("--list-params", "--json").json
    assert set(params) == {p["key"] for p in listing}
    assert params["workload.io_size"].unit == "bytes" and params["workload.io_size"].type == "bytes"
    assert params["disk.access_ms"].per_disk and params["disk.access_ms"].unit == "ms"


def test_list_params_accepts_typed_defaults(tmp_path):
    # fcal-sim's table may give defaults and ranges as text or as typed values: both are kept as given.
    fake = tmp_path / "fcal-sim"
    fake.write_text('#!/bin/sh\necho \'[{"key": "a.b", "type": "integer", "unit": "", "default": 4, '
                    '"range": {"min": 1, "max": 8}, "per_disk": false, "description": "d"}]\'\n')
    fake.chmod(0o755)
    (p,) = list_params(str(fake))
    assert p.default == 4 and p.range == {"min": 1, "max": 8}


def test_build_identity_is_the_sha256_of_the_binary_and_changes_with_it(fcal_sim_path, tmp_path):
    with open(fcal_sim_path, "rb") as f:
        expected = hashlib.sha256(f.read()).hexdigest()[:12]
    assert build_identity(fcal_sim_path) == expected
    copy = tmp_path / "fcal-sim"
    shutil.copy(fcal_sim_path, copy)
    assert build_identity(str(copy)) == expected
    with open(copy, "ab") as f:
        f.write(b"\0")
    os.utime(copy, ns=(1, 1))
    assert build_identity(str(copy)) not in ("", expected)
    assert build_identity(str(tmp_path / "missing")) == ""
