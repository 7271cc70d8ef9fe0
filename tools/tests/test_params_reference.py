"""The parameter reference (docs/parameters.md) is generated from fcal-sim --list-params --json
(tools/params_reference.py): a test fails when it drifts from what the program declares."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from conftest import ROOT, tool

PARAMETERS = os.path.join(ROOT, "docs", "parameters.md")


def reference(fcal_sim_path: str, *args: str) -> subprocess.CompletedProcess[str]:
    return tool("tools/params_reference.py", "--fcal-sim", fcal_sim_path, *args)


def test_the_parameter_reference_is_current(fcal_sim_path):
    r = reference(fcal_sim_path, "--check", PARAMETERS)
    assert r.returncode == 0, r.stderr


def test_every_listed_key_has_one_row_in_listing_order(fcal_sim_path, fcal_sim):
    keys = [p["key"] for p in fcal_sim("--list-params", "--json").json]
    rows = [line.split("`")[1] for line in reference(fcal_sim_path).stdout.splitlines() if line.startswith("| `")]
    assert rows == keys


@pytest.mark.parametrize("old,new", [
    ("| `loop.hop_m` | 2 |", "| `loop.hop_m` | 3 |"),                # a default typed by hand
    ("| `loop.speed` |", "| `loop.sped` |"),                          # a misspelt key
    ("| `workload.seed` |", "| `workload.seed_old` |"),               # a key the program no longer has
])
def test_a_drifted_copy_fails_and_write_repairs_it(fcal_sim_path, tmp_path, old, new):
    copy = tmp_path / "parameters.md"
    text = open(PARAMETERS, encoding="utf-8").read()
    assert old in text
    copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    r = reference(fcal_sim_path, "--check", str(copy))
    assert r.returncode == 1 and "differs from fcal-sim --list-params --json" in r.stderr
    assert reference(fcal_sim_path, "--write", str(copy)).returncode == 0
    assert copy.read_text(encoding="utf-8") == text


def test_a_file_without_the_markers_is_one_line_and_exit_2(fcal_sim_path, tmp_path):
    plain = tmp_path / "plain.md"
    plain.write_text("no table here\n", encoding="utf-8")
    r = reference(fcal_sim_path, "--check", str(plain))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "plain.md" in r.stderr
    missing = reference(fcal_sim_path, "--check", str(tmp_path / "missing.md"))
    assert missing.returncode == 2 and "missing.md" in missing.stderr


def test_a_program_that_cannot_list_is_one_line(tmp_path):
    broken = tmp_path / "fcal-sim"
    shutil.copy("/bin/false", broken)
    r = reference(str(broken), "--check", PARAMETERS)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1
