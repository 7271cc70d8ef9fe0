"""The sweep tool end to end (in this process, through its command line): it checks itself against fcal-sim
before the first run, records each row's fcal-sim build and refuses to mix builds on resume, takes a base
config, indexes lists in result paths, and says in one line how to resume after Ctrl-C."""
from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from fcal_tools.sim import build_identity
from fcal_tools.sweep.cli import main


def write_spec(tmp_path, name="s", **spec):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(spec))
    return str(path)


def sweep(*args):
    return main([str(a) for a in args])


def rows(folder):
    with open(os.path.join(folder, "runs.csv"), newline="") as f:
        return list(csv.DictReader(f))


def wrapper(tmp_path, fcal_sim_path, log="calls"):
    """A wrapper around fcal-sim that logs the runs that are not the sweep's own checks."""
    w = tmp_path / "wrap.sh"
    w.write_text(f'#!/bin/sh\n[ -n "$FCAL_SWEEP_CHECK" ] || echo run >>"{tmp_path / log}"\nexec "{fcal_sim_path}" "$@"\n')
    w.chmod(0o755)
    return str(w)


SMALL = dict(results=["iops"], fixed={"workload.measured_ios": 20}, grid={"disk.count": [2, 3]})


@pytest.mark.parametrize("changes, message", [
    (dict(fixed={"workload.measured_iops": 20}), "not fcal-sim parameters: workload.measured_iops"),
    (dict(results=["iops", "mb_per_sec"]), "'mb_per_sec' is not a result of fcal-sim (did you mean mb_per_s?)"),
    (dict(results=["disks.0.utilization"]), "did you mean disks.0.utilisation?"),
    (dict(results=["disks"]), "'disks' is not a result of fcal-sim (a table or list, not a value; e.g. disks.0."),
    (dict(results=["kernel"]), "a table or list, not a value; e.g. kernel."),
])
def test_refused_before_any_run(tmp_path, fcal_sim_path, capsys, changes, message):
    spec = write_spec(tmp_path, **dict(SMALL, **changes))
    assert sweep("run", spec, "--out", tmp_path / "r", "--fcal-sim", wrapper(tmp_path, fcal_sim_path)) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "calls").exists() and not (tmp_path / "r" / "runs.csv").exists()


def test_a_base_config_the_simulator_refuses(tmp_path, fcal_sim_path, capsys):
    (tmp_path / "base.json").write_text('{"disk": {"cuont": 3}}')
    spec = write_spec(tmp_path, base="base.json", **SMALL)
    assert sweep("run", spec, "--out", tmp_path / "r", "--fcal-sim", fcal_sim_path) == 2
    err = capsys.readouterr().err
    assert "base.json" in err and "disk.cuont" in err and len(err.strip().splitlines()) == 1


def test_list_indices_base_config_and_builds(tmp_path, fcal_sim_path, fcal_sim, capsys):
    # The base config gives 4 disks and 8 measured I/Os; the grid's first point has 2 disks, so the dry run
    # cannot see disks.3, which only points with 4 disks have: accepted (its list exists), and the points
    # without it fail alone, saying so.
    (tmp_path / "base.json").write_text('{"disk": {"count": 4}, "workload": {"measured_ios": 8}}')
    spec = write_spec(tmp_path, base="base.json", results=["iops", "disks.3.ios", "ports.0.arbitrations_won"],
                      grid={"disk.count": [2, 4]})
    out = tmp_path / "r"
    assert sweep("run", spec, "--out", out, "--fcal-sim", fcal_sim_path) == 1
    r = rows(out)
    assert [x["disk.count"] for x in r if x["status"] == "ok"] == ["4"]
    (bad,) = [x for x in r if x["status"] != "ok"]
    assert bad["disk.count"] == "2" and "results without disks.3.ios" in bad["stderr_tail"]
    (good,) = [x for x in r if x["status"] == "ok"]
    direct = fcal_sim("--quiet", "--stats-json", "-", "--config", str(tmp_path / "base.json"),
                      "--set", "disk.count=4", "--set", "workload.seed=1").results
    assert good["disks.3.ios"] == str(direct["disks"][3]["ios"])
    assert good["ports.0.arbitrations_won"] == str(direct["ports"][0]["arbitrations_won"])
    # Every row names the build that made it.
    assert {x["build"] for x in r} == {build_identity(fcal_sim_path)}

    # Another build (a copy that differs by one byte) is refused on resume, naming both, until asked.
    other = tmp_path / "fcal-sim"
    shutil.copy(fcal_sim_path, other)
    with open(other, "ab") as f:
        f.write(b"\0")
    capsys.readouterr()
    assert sweep("run", spec, "--out", out, "--fcal-sim", other, "--retry-failed") == 2
    err = capsys.readouterr().err
    assert f"2 by build {build_identity(fcal_sim_path)}" in err and f"this fcal-sim is build {build_identity(str(other))}" in err
    assert "--allow-mixed-builds" in err and len(err.strip().splitlines()) == 1
    assert sweep("run", spec, "--out", out, "--fcal-sim", other, "--retry-failed", "--allow-mixed-builds") == 1
    assert [x["build"] for x in rows(out)] == [build_identity(fcal_sim_path)] * 2 + [build_identity(str(other))]


def test_a_results_file_from_before_builds_were_recorded(tmp_path, fcal_sim_path, capsys):
    spec = write_spec(tmp_path, **SMALL)
    out = tmp_path / "r"
    out.mkdir()
    (out / "runs.csv").write_text("disk.count,workload.measured_ios,seed,status,exit_code,stderr_tail,iops\n"
                                  "2,20,1,ok,0,,123.5\n")
    assert sweep("run", spec, "--out", out, "--fcal-sim", fcal_sim_path) == 2
    assert "1 recording no build" in capsys.readouterr().err
    assert sweep("run", spec, "--out", out, "--fcal-sim", fcal_sim_path, "--allow-mixed-builds") == 0
    r = rows(out)
    assert [(x["disk.count"], x["build"], x["iops"]) for x in r][0] == ("2", "", "123.5")
    assert len(r) == 2 and r[1]["build"] == build_identity(fcal_sim_path)


def test_ctrl_c_says_how_to_resume_in_one_line(tmp_path, fcal_sim_path):
    spec = write_spec(tmp_path, results=["iops"], fixed={"workload.measured_ios": 200000},
                      grid={"disk.count": [2, 3, 4]})
    w = wrapper(tmp_path, fcal_sim_path)
    # (SIGINT at its default: a background process of a non-interactive shell would ignore it.)
    proc = subprocess.Popen([sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL);"
                             " os.execv(sys.argv[1], sys.argv[1:])", sys.executable, "tools/sweep", "run", spec,
                             "--out", str(tmp_path / "r"), "--jobs", "2", "--fcal-sim", w],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    for _ in range(600):
        if (tmp_path / "calls").exists():
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err
    assert lines[-1].startswith("sweep s: interrupted (SIGINT); 0 runs recorded in this session, 3 left: resume with "
                                f"`python3 tools/sweep run {spec} --out {tmp_path / 'r'} --fcal-sim {w} --jobs 2`")
