"""No SystemC banner from fcal's SystemC programs (docs/cli.md, "fcal-sim"): SystemC 2.3.4 prints it from its own
main() unless SC_COPYRIGHT_MESSAGE=DISABLE, which each program sets before that; a value in the environment is
kept, so SC_COPYRIGHT_MESSAGE=ENABLE brings it back (which shows this test would see a banner)."""
from __future__ import annotations

import os
import subprocess

import pytest

BANNER = "Copyright (c) 1996-"  # SystemC's banner line: "Copyright (c) 1996-2022 by all Contributors,"


def run(path: str, *args: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "SC_COPYRIGHT_MESSAGE"}
    p = subprocess.run([path, *args], capture_output=True, text=True, timeout=60, env=dict(clean, **env))
    return p.stdout + p.stderr


@pytest.mark.parametrize("program, args", [
    ("bin/fcal-sim", ["--check"]), ("bin/fcal-sim-test", ["--check"]), ("bin/fcal-rtl-bench", ["--help"]),
    ("bin/fcal-loop-bench", ["--help"]), ("tests/fuzz_set_replay", []), ("tests/unit_phy", ["--list-tests"])])
def test_no_banner(bin_dir, program, args):
    path = os.path.join(os.path.dirname(bin_dir), program)
    if not os.access(path, os.X_OK):
        pytest.skip(f"{program} is not built here")
    assert BANNER not in run(path, *args), f"{program} prints the SystemC banner"
    assert BANNER in run(path, *args, SC_COPYRIGHT_MESSAGE="ENABLE"), \
        f"{program}: SC_COPYRIGHT_MESSAGE=ENABLE does not bring the banner back"
