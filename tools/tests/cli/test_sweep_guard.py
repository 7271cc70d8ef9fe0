"""The sweep tool cannot double or orphan runs (issue 18; docs/sweeps.md):
- a malformed spec is refused naming its file; a key fcal-sim does not know is refused before the first run;
- a second `sweep run` into a folder in use is refused (both used to run, recording every run twice);
- SIGTERM and SIGINT stop the sweep (143, 130) and every simulation it started, record none of the stopped ones,
  and a resume then completes the sweep with each run recorded once;
- SIGKILL of the sweep leaves no simulation running for long (fcal-sim --stop-with-parent).
A wrapper around fcal-sim records the PID of every simulation, so the test sees each one end. With SLOW=1 every
simulation takes about a minute (a later --set wins), so that one that is not stopped is seen still running; with
DELAY=S each starts S seconds late, so that a sweep surely still holds its folder when a second one comes."""
from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import time

import pytest

from conftest import ROOT

QUICK = '''{"name": "quick", "seeds": [1, 2], "results": ["iops"], "fixed": {"workload.measured_ios": 600, "disk.count": 4},
 "grid": {"workload.io_size": [4096, 16384, 65536]}}'''


@pytest.fixture
def sweep(tmp_path, fcal_sim_path, python):
    """Starts `sweep run ARGS --fcal-sim WRAPPER` (with extra environment) and returns the process."""
    wrap = tmp_path / "wrap.sh"
    wrap.write_text(f'''#!/usr/bin/env bash
[ -z "${{FCAL_SWEEP_CHECK:-}}" ] || exec "{fcal_sim_path}" "$@"
echo "$$" >>"{tmp_path / "pids"}"
[ -z "${{DELAY:-}}" ] || sleep "$DELAY"
exec "{fcal_sim_path}" "$@" ${{SLOW:+--set workload.measured_ios=200000}}
''')
    wrap.chmod(0o755)
    (tmp_path / "quick.json").write_text(QUICK)

    def start(*args, **env):
        # SIGINT at its default: a background job (ctest run from a script) inherits it ignored.
        return subprocess.Popen([python, os.path.join(ROOT, "tools", "sweep"), "run", *map(str, args),
                                 "--fcal-sim", str(wrap)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE", **env),
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return start


def pids(tmp_path) -> list[int]:
    path = tmp_path / "pids"
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def wait_started(tmp_path, n: int, running: bool = True) -> None:
    """Waits until `n` simulations have started and, if `running`, run fcal-sim itself (the wrapper has exec'd it)
    and have had time to note their parent: one whose sweep ends before fcal-sim's first line goes unnoticed by
    --stop-with-parent (docs/cli.md)."""
    for _ in range(600):
        started = pids(tmp_path)
        if len(started) >= n and (not running or all(running_fcal_sim(pid) for pid in started[:n])):
            time.sleep(0.5 if running else 0)
            return
        time.sleep(0.05)
    pytest.fail(f"{n} simulations did not start")


def running_fcal_sim(pid: int) -> bool:
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "fcal-sim"
    except OSError:
        return False


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (ended, not yet reaped by its parent) has ended too.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def expect_all_ended(tmp_path, seconds: float, what: str) -> None:
    started = pids(tmp_path)
    assert started, f"{what}: no simulation was started"
    deadline = time.monotonic() + seconds
    for pid in started:
        while alive(pid):
            assert time.monotonic() < deadline, f"{what}: simulation {pid} still running after {seconds} s"
            time.sleep(0.1)


def expect_rows(folder, n: int) -> None:
    """N rows, every one ok, no (point, seed) twice."""
    with open(folder / "runs.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    keys = [tuple(v for k, v in r.items() if k not in ("status", "exit_code", "stderr_tail", "iops")) for r in rows]
    assert len(rows) == n, f"{folder}/runs.csv: {len(rows)} rows, expected {n}"
    assert len(set(keys)) == len(keys), f"{folder}/runs.csv: a run recorded twice"
    assert all(r["status"] == "ok" for r in rows), f"{folder}/runs.csv: a run recorded as failed"


@pytest.mark.parametrize("name, content", [("broken.toml", 'name = "x"\nresults = ["iops"\n'), ("list.json", "[1, 2]")])
def test_a_malformed_spec_is_refused_naming_its_file(sweep, tmp_path, name, content):
    (tmp_path / name).write_text(content)
    p = sweep(tmp_path / name, "--out", tmp_path / "b")
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 2 and f"{tmp_path / name}:" in err, f"{name}: exit {p.returncode}, message without the file: {err}"


def test_an_unknown_key_is_refused_before_any_run(sweep, tmp_path):
    (tmp_path / "typo.json").write_text('{"results": ["iops"], "fixed": {"workload.measured_iops": 10}, '
                                        '"grid": {"disk.count": [1, 2]}}')
    p = sweep(tmp_path / "typo.json", "--out", tmp_path / "t")
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 2 and "workload.measured_iops" in err, f"unknown key: exit {p.returncode}: {err}"
    assert not pids(tmp_path), f"unknown key: {len(pids(tmp_path))} simulations ran before the refusal"
    assert not (tmp_path / "t" / "runs.csv").exists(), "unknown key: runs were recorded"


def test_one_sweep_per_folder(sweep, tmp_path):
    first = sweep(tmp_path / "quick.json", "--out", tmp_path / "q", "--jobs", "1", DELAY="1")
    wait_started(tmp_path, 1, running=False)
    second = sweep(tmp_path / "quick.json", "--out", tmp_path / "q", "--jobs", "1")
    err = second.communicate(timeout=120)[1]
    assert second.returncode == 2 and re.search(r"another `sweep run` \(pid [0-9]*\)", err), \
        f"a second sweep into the folder: exit {second.returncode}: {err}"
    first_err = first.communicate(timeout=300)[1]
    assert first.returncode == 0, f"the first sweep failed: {first_err[-2000:]}"
    expect_rows(tmp_path / "q", 6)


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_signal_stops_the_sweep_and_its_simulations(sweep, tmp_path, signum, code):
    name = signal.Signals(signum).name
    victim = sweep(tmp_path / "quick.json", "--out", tmp_path / "s", "--jobs", "2", SLOW="1")
    wait_started(tmp_path, 2)
    victim.send_signal(signum)
    err = victim.communicate(timeout=120)[1]
    assert victim.returncode == code, f"{name}: the sweep exited {victim.returncode}, expected {code}: {err}"
    expect_all_ended(tmp_path, 5, name)
    assert f"interrupted ({name})" in err, f"{name}: the sweep does not say so: {err}"
    lines = (tmp_path / "s" / "runs.csv").read_text().splitlines()
    assert len(lines) == 1, f"{name}: a stopped run was recorded: {lines[1:]}"
    (tmp_path / "pids").unlink()
    resume = sweep(tmp_path / "quick.json", "--out", tmp_path / "s", "--jobs", "2")
    err = resume.communicate(timeout=300)[1]
    assert resume.returncode == 0, f"{name}: the resume failed: {err[-2000:]}"
    assert len(pids(tmp_path)) == 6, f"{name}: the resume ran {len(pids(tmp_path))} simulations, expected 6"
    expect_rows(tmp_path / "s", 6)


def test_the_simulations_of_a_killed_sweep_stop_by_themselves(sweep, tmp_path):
    victim = sweep(tmp_path / "quick.json", "--out", tmp_path / "k", "--jobs", "2", SLOW="1")
    wait_started(tmp_path, 2)
    victim.kill()
    victim.communicate(timeout=60)
    expect_all_ended(tmp_path, 5, "SIGKILL")
    assert len(pids(tmp_path)) == 2, "SIGKILL: simulations started after the kill"
