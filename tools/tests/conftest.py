"""pytest fixtures for fcal's tools and for command-line tests of fcal-sim.

`fcal_sim(*args, input=None)` runs build/bin/fcal-sim (or $FCAL_BIN/fcal-sim: ctest passes the build's bin
folder) and returns its exit code, stdout, stderr and, when stdout is JSON, the parsed document, so that a
CLI test is one call and a few asserts (and a table of cases with pytest.mark.parametrize).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
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


@pytest.fixture(scope="session")
def fcal_sim(fcal_sim_path: str) -> Callable[..., Run]:
    def run(*args: str, input: str | None = None, timeout: float = 60) -> Run:
        env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
        p = subprocess.run([fcal_sim_path, *args], input=input, capture_output=True, text=True, env=env,
                           timeout=timeout)
        try:
            doc = json.loads(p.stdout) if p.stdout.lstrip().startswith(("{", "[")) else None
        except ValueError:
            doc = None
        return Run(p.returncode, p.stdout, p.stderr, doc)
    return run


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter running the tests (the tools are run with it too)."""
    return sys.executable


def tool(*args: str, cwd: str = ROOT, timeout: float = 120, env: dict[str, str] | None = None,
         python: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs `python3 tools/ARGS...` from the repository root, as the README shows."""
    return subprocess.run([python or sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=dict(env or os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
