"""pytest fixtures for fcal's tools and for command-line tests of fcal-sim.

`fcal_sim(*args, input=None)` runs build/bin/fcal-sim (or $FCAL_BIN/fcal-sim: ctest passes the build's bin
folder) and returns its exit code, stdout, stderr and, when stdout is JSON, the parsed document, so that a
CLI test is one call and a few asserts (and a table of cases with pytest.mark.parametrize).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TOOLS)


@dataclass
class Run:
    code: int
    out: str
    err: str
    json: Any  # stdout parsed as JSON, or None

    @property
    def results(self) -> dict[str, Any]:
        return self.json["results"]


@pytest.fixture(scope="session")
def bin_dir() -> str:
    path = os.environ.get("FCAL_BIN") or os.path.join(ROOT, "build", "bin")
    if not os.access(os.path.join(path, "fcal-sim"), os.X_OK):
        pytest.fail(f"no fcal-sim in {path}: build first (bash scripts/setup.sh) or set FCAL_BIN")
    return os.path.abspath(path)


@pytest.fixture(scope="session")
def fcal_sim_path(bin_dir: str) -> str:
    return os.path.join(bin_dir, "fcal-sim")


def runner(program: str) -> Callable[..., Run]:
    """A function that runs `program` with the arguments given (str or path) and returns its Run."""
    def run(*args: Any, input: str | None = None, timeout: float = 60) -> Run:
        env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
        p = subprocess.run([program, *map(str, args)], input=input, capture_output=True, text=True, env=env,
                           timeout=timeout)
        try:
            doc = json.loads(p.stdout) if p.stdout.lstrip().startswith(("{", "[")) else None
        except ValueError:
            doc = None
        return Run(p.returncode, p.stdout, p.stderr, doc)
    return run


@pytest.fixture(scope="session")
def fcal_sim(fcal_sim_path: str) -> Callable[..., Run]:
    return runner(fcal_sim_path)


@pytest.fixture(scope="session")
def fcal_sim_test(bin_dir: str) -> Callable[..., Run]:
    """fcal-sim-test: fcal-sim with the test-only hooks (--test-lose-io, --test-throw-io, --test-drop-frame,
    --test-drop-disk; tb/test_hooks.hpp)."""
    return runner(os.path.join(bin_dir, "fcal-sim-test"))


def sets(*assignments: str) -> list[str]:
    """["a=1", "b=2"] -> ["--set", "a=1", "--set", "b=2"]."""
    return [word for a in assignments for word in ("--set", a)]


def expect_refused(r: Run, needle: str, what: str = "") -> None:
    """Bad input: exit 2, one line on stderr naming `needle`, nothing on stdout."""
    what = what or needle
    assert r.code == 2, f"{what}: exit code {r.code}, expected 2 (stderr: {r.err[:2000]})"
    assert len(r.err.splitlines()) == 1, f"{what}: expected a one-line error on stderr, got: {r.err[:2000]}"
    assert needle in r.err, f"{what}: the error does not name {needle!r}: {r.err}"
    assert not r.out, f"{what}: unexpected stdout: {r.out[:500]}"


def load_results(path: Any, drop: tuple[str, ...] = ("wall_time_s",)) -> dict[str, Any]:
    """A stats JSON file with `drop` (the wall-clock time by default) taken out of its results."""
    with open(path) as f:
        doc: dict[str, Any] = json.load(f)
    for key in drop:
        doc["results"].pop(key)
    return doc


def balanced(res: dict[str, Any]) -> bool:
    """The I/O account of a run's results: every issued I/O completed, failed or is reported outstanding."""
    return bool(res["issued_ios"] == res["completed_ios"] + res["failed_ios"] + res["outstanding_ios"])


def ended_balanced(fcal_sim: Callable[..., Run], out: Path, *args: Any, timeout: float = 300) -> dict[str, Any]:
    """Runs fcal-sim with `args` and `--stats-json out`: it must end by itself (exit 0) with the I/O account
    balanced. Its results, without the wall-clock time and the kernel's counts (which tracing changes)."""
    r = fcal_sim(*args, "--stats-json", out, timeout=timeout)
    assert r.code == 0, f"exit {r.code}: {r.err[-2000:]}"
    res = load_results(out, drop=("wall_time_s", "kernel"))["results"]
    assert balanced(res), "the I/O account"
    return res


def fast_and_traced(fcal_sim: Callable[..., Run], tmp_path: Path, *args: Any, timeout: float = 300) -> dict[str, Any]:
    """ended_balanced() untraced (the fast path) and with every port traced (the full path, docs/loop.md; the trace
    in tmp_path / "full.trace"): the two results must be the same. Those results."""
    fast = ended_balanced(fcal_sim, tmp_path / "fast.json", *args, timeout=timeout)
    full = ended_balanced(fcal_sim, tmp_path / "full.json", *args, "--trace", tmp_path / "full.trace", timeout=timeout)
    assert fast == full, "traced and untraced results differ in " + str([k for k in fast if fast[k] != full.get(k)])
    return fast


FAILURE = re.compile(r"^I/O \d+ \(disk (\d+), (read|write)\): (.+)$")


def failed_disks(res: dict[str, Any]) -> set[int]:
    """The disks of the failures a run's results list (`failures`), each checked to carry a reason."""
    disks = set()
    for line in res["failures"]:
        m = FAILURE.match(line)
        assert m and m.group(3).strip(), f"a failure without its disk or reason: {line!r}"
        disks.add(int(m.group(1)))
    return disks


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter running the tests (the tools are run with it too)."""
    return sys.executable


def tool(*args: str, cwd: str = ROOT, timeout: float = 120, env: dict[str, str] | None = None,
         python: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs `python3 tools/ARGS...` from the repository root, as the README shows."""
    return subprocess.run([python or sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=dict(env or os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
