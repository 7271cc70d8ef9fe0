"""Every command in tools/ starts under the python3 running the tests; a missing module is one line and exit 2
before anything runs; the engine keeps the order of its tasks and stops its simulations when interrupted."""
from __future__ import annotations

import glob
import os
import signal
import threading
import time

import pytest

from conftest import ROOT, tool
from fcal_tools import engine
from fcal_tools.sim import run_sim

LAUNCHERS = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "tools", "*"))
                   if os.path.isfile(p) and os.access(p, os.X_OK))


def test_the_launchers_are_the_documented_commands():
    assert LAUNCHERS == sorted("tools/" + n for n in (
        "ber_sweep.py", "bench.py", "cmdf_sweep.py", "decode_sweep.py", "disk_pk.py", "erase_tables.py",
        "exactness.py", "fault_probe.py", "lip_sweep.py", "loop_failover.py", "params_reference.py", "pull_sweep.py", "raid_sweep.py", "rebuild_sweep.py", "rtl_cost.py", "rtl_equivalence.py", "sweep", "sweep_thesis.py"))


@pytest.mark.parametrize("launcher", LAUNCHERS)
def test_every_command_starts(launcher):
    p = tool(launcher, "--help")
    assert p.returncode == 0 and p.stdout.startswith("usage:") and p.stderr == ""


# (tool's command line, what needs the module)
NEEDS_MATPLOTLIB = [
    ("fcal_tools.sweep.cli", ["plot", "docs/thesis/data/ch6_baseline.csv", "--x", "workload.io_size", "--y", "iops"]),
    ("fcal_tools.cmdf_sweep", ["--quick"]),
    ("fcal_tools.raid_sweep", ["--quick"]),
    ("fcal_tools.decode_sweep", ["--quick"]),
    ("fcal_tools.ber_sweep", []),
    ("fcal_tools.disk_pk", []),
]


@pytest.mark.parametrize("module, args", NEEDS_MATPLOTLIB)
def test_a_missing_module_is_one_line_before_anything_runs(tmp_path, module, args):
    # A python3 without matplotlib, as the first python3 on many machines is: the import fails.
    blocker = tmp_path / "matplotlib.py"
    blocker.write_text("raise ImportError('not on this python')\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.path.join(ROOT, 'tools')}")
    p = tool("-c", f"import sys; from {module} import main; sys.exit(main(sys.argv[1:]))", *args,
             "--fcal-sim", str(tmp_path / "never-run"), env=env)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert "needs the Python module matplotlib" in p.stderr and "python3-matplotlib" in p.stderr
    assert not os.path.exists(tmp_path / "never-run")


def test_a_dask_scheduler_without_dask_is_one_line(tmp_path, fcal_sim_path):
    blocker = tmp_path / "distributed.py"
    blocker.write_text("raise ImportError('not on this python')\n")
    env = dict(os.environ, PYTHONPATH=f"{tmp_path}{os.pathsep}{os.path.join(ROOT, 'tools')}")
    p = tool("tools/sweep", "run", "experiments/ch5_distance.toml", "--out", str(tmp_path / "r"),
             "--scheduler", "tcp://127.0.0.1:1", "--fcal-sim", fcal_sim_path, env=env)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "--scheduler needs the Python module distributed" in p.stderr and "python3-distributed" in p.stderr


def square(x: int, children: object = None) -> int:
    time.sleep(0.01 * (5 - x))  # the first tasks finish last
    return x * x


def test_in_order_keeps_the_order_of_the_tasks():
    assert engine.run_all(square, [(x,) for x in range(5)], jobs=5) == [0, 1, 4, 9, 16]


def test_an_interrupted_pool_stops_its_simulations(fcal_sim_path):
    """Ctrl-C while two runs of about a minute are in flight: the pool stops both (and waits for them)."""
    def slow(children):
        return run_sim(fcal_sim_path, ["workload.measured_ios=2000000", "sim.time_limit_s=100000"], children=children)

    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        engine.run_all(slow, [(), ()], jobs=2)
    assert time.monotonic() - t0 < 10
