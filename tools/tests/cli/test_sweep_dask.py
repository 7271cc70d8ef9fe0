"""The sweep tool on a real Dask cluster (docs/sweeps.md): a scheduler and two workers started as processes on
127.0.0.1 run a small sweep, and its rows (runs.csv, in any order) and summary (byte for byte) are the local pool's.
A wrapper around fcal-sim records its parent process, so the test also sees that the runs were executed by the two
worker processes and not by the client."""
from __future__ import annotations

import csv
import hashlib
import os
import socket
import subprocess
import time

import pytest

from conftest import tool

DASK = "/usr/bin/dask"
SPEC = '''name = "tiny"
seeds = 2
results = ["iops", "mb_per_s", "mean_response_us"]
labels = ["arm"]
[fixed]
"workload.measured_ios" = 50
"disk.count" = 4
[grid]
"workload.io_size" = [4096, 32768]
[[zip]]
arm = ["normal", "cmdf", "unfair"]
schedule = ["normal", "cmdf", "normal"]
"initiator.fair" = [true, true, false]
'''
RUNS = 2 * 3 * 2  # sizes x arms x seeds


@pytest.fixture
def cluster(tmp_path, python):
    """A Dask scheduler and two single-thread workers; yields (address, worker pids); stops them after the test."""
    p = subprocess.run([python, "-c", "import distributed"], capture_output=True)
    assert os.access(DASK, os.X_OK) and p.returncode == 0, \
        "Dask distributed is missing (Debian: python3-distributed; bash scripts/setup.sh installs it)"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    logs = []
    procs = []

    def start(name, *args):
        log = open(tmp_path / f"{name}.log", "w")
        logs.append(log)
        procs.append(subprocess.Popen([DASK, *args], cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT))

    start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
    for w in (1, 2):
        start(f"worker{w}", "worker", address, "--no-nanny", "--nthreads", "1", "--no-dashboard", "--name", f"w{w}",
              "--local-directory", str(tmp_path / f"w{w}"))
    try:
        up = subprocess.run([python, "-c", "import sys\nfrom distributed import Client\n"
                             "with Client(sys.argv[1], timeout='60s') as c:\n    c.wait_for_workers(2, timeout=60)\n",
                             address], capture_output=True, text=True, timeout=120)
        assert up.returncode == 0, "the Dask cluster did not come up: " + up.stderr[-2000:] + \
            "".join((tmp_path / f"{n}.log").read_text()[-1000:] for n in ("scheduler", "worker1", "worker2"))
        yield address, {procs[1].pid, procs[2].pid}
    finally:
        # Workers first, then the scheduler; a worker can hang in its graceful close (seen once under load, with
        # the scheduler gone): after 10 s whatever is left gets SIGKILL rather than a wait forever.
        for proc in reversed(procs):
            proc.terminate()
        deadline = time.monotonic() + 10
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for log in logs:
            log.close()


def rows(path, program):
    """The rows of runs.csv but their `build` column, which must name `program` (the binary each ran)."""
    with open(program, "rb") as f:
        build = hashlib.sha256(f.read()).hexdigest()[:12]
    with open(path, newline="") as f:
        out = []
        for r in csv.DictReader(f):
            assert r.pop("build") == build, f"{path}: a row not made by {program}"
            out.append(sorted(r.items()))
    return sorted(out)


def test_dask_sweep_equals_the_local_pool(tmp_path, fcal_sim_path, python, cluster):
    address, workers = cluster
    (tmp_path / "tiny.toml").write_text(SPEC)
    wrap = tmp_path / "wrap.sh"
    # (The sweep's own checks on the client, --list-params and the dry runs, marked FCAL_SWEEP_CHECK=1, are not
    # the sweep's runs.)
    wrap.write_text(f'#!/usr/bin/env bash\n[ -n "${{FCAL_SWEEP_CHECK:-}}" ] || echo "$PPID" >>"{tmp_path / "parents"}"\n'
                    f'exec "{fcal_sim_path}" "$@"\n')
    wrap.chmod(0o755)
    p = tool("tools/sweep", "run", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "local"), "--jobs", "2",
             "--fcal-sim", fcal_sim_path, python=python)
    assert p.returncode == 0, f"the local sweep did not run: {p.stderr[-2000:]}"
    p = tool("tools/sweep", "run", str(tmp_path / "tiny.toml"), "--out", str(tmp_path / "dask"), "--scheduler", address,
             "--fcal-sim", str(wrap), timeout=300, python=python)
    assert p.returncode == 0, f"the Dask sweep did not run: {p.stderr[-2000:]}"
    local = rows(tmp_path / "local" / "runs.csv", fcal_sim_path)
    assert len(local) == RUNS, f"{len(local)} local rows, expected 2 sizes x 3 arms x 2 seeds = {RUNS}"
    assert all(dict(r)["status"] != "failed" for r in local), "a local run failed"
    dask = rows(tmp_path / "dask" / "runs.csv", str(wrap))
    assert local == dask, f"Dask rows differ from the local pool's: {[r for r in local if r not in dask][:2]}"
    assert (tmp_path / "local" / "summary.csv").read_text() == (tmp_path / "dask" / "summary.csv").read_text(), \
        "summaries differ"
    # Every simulation was started by one of the two worker processes, and both took part.
    parents = [int(p) for p in (tmp_path / "parents").read_text().split()]
    assert len(parents) == RUNS, f"{len(parents)} simulations on the cluster, expected {RUNS}"
    strangers = set(parents) - workers
    assert not strangers, f"runs started by {strangers}, not a worker ({workers})"
    assert len(set(parents)) == 2, f"only {len(set(parents))} of 2 workers ran simulations"
