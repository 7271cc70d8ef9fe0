"""Embedding fcal (docs/cli.md, "Embedding fcal"): `cmake --install` puts the programs, the model libraries and the
headers (include/fcal/<layer>/...) under a prefix with a CMake package, and a user's own sc_main (examples/embed)
finds it with find_package(fcal), builds against "fcal/sim/..." headers, links fcal::fcal_sim and runs a simulation
to completion. The test-only hooks stay in the build tree's fcal-sim-test."""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from conftest import ROOT


def cmake(*args, **kwargs):
    p = subprocess.run(["cmake", *map(str, args)], capture_output=True, text=True, timeout=600, **kwargs)
    assert p.returncode == 0, f"cmake {' '.join(map(str, args))}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"


@pytest.fixture(scope="module")
def prefix(bin_dir, tmp_path_factory):
    path = tmp_path_factory.mktemp("prefix")
    cmake("--install", os.path.dirname(bin_dir), "--prefix", path)
    return path


@pytest.mark.parametrize("name", ["bin/fcal-sim", "bin/fcal-codec", "include/fcal/loop/lport.hpp",
                                  "include/fcal/sim/storage_system.hpp", "lib/cmake/fcal/fcal-config.cmake"])
def test_installed(prefix, name):
    assert (prefix / name).exists(), f"{name} not installed"


@pytest.mark.parametrize("name, what", [("bin/fcal-loop-bench", "a test bench"),
                                        ("bin/fcal-sim-test", "the test variant fcal-sim-test")])
def test_not_installed(prefix, name, what):
    assert not (prefix / name).exists(), f"{what} was installed"


@pytest.mark.parametrize("hook", [["--test-lose-io", "1"], ["--test-throw-io", "1"], ["--test-drop-frame", "any:1"],
                                  ["--test-drop-disk", "0"]], ids=lambda h: h[0])
def test_the_installed_fcal_sim_refuses_the_hooks(prefix, hook):
    p = subprocess.run([prefix / "bin" / "fcal-sim", *hook, "--check"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and hook[0] in p.stderr, f"the installed fcal-sim accepts {hook[0]} (exit {p.returncode}: {p.stderr})"


def test_the_test_variant_accepts_the_hooks(fcal_sim_test):
    r = fcal_sim_test("--test-lose-io", "1", "--check")
    assert r.code == 0, f"fcal-sim-test refuses --test-lose-io: {r.err}"


def test_an_embedding_program_builds_and_runs(prefix, tmp_path):
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    cmake("-S", os.path.join(ROOT, "examples", "embed"), "-B", tmp_path / "embed", *generator,
          f"-DCMAKE_PREFIX_PATH={prefix}")
    cmake("--build", tmp_path / "embed")
    p = subprocess.run([tmp_path / "embed" / "my_storage_platform"], capture_output=True, text=True, timeout=120)
    assert re.search(r"^run completed: [0-9.]+ IOPS", p.stdout, re.M), \
        f"the embedded simulation did not complete (exit {p.returncode}): {p.stdout[-2000:]} {p.stderr[-2000:]}"
