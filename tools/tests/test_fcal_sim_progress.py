"""fcal-sim's progress on stderr (docs/cli.md, "Progress"): on when stderr is a terminal or with --progress, off
otherwise; it changes no result. The counts it shows are checked against the run's settings: the I/Os asked are
warm-up + measured + cool-down."""
from __future__ import annotations

import json
import os
import pty
import re
import subprocess

import pytest

WARMUP, MEASURED = 40, 1200
RUN = ["--set", f"workload.measured_ios={MEASURED}", "--set", f"workload.warmup_ios={WARMUP}", "--quiet"]
FAST = ["--progress-interval", "0.01"]  # updates every 10 ms of wall time, so that a short run shows some
LINE = re.compile(r"fcal-sim: (\d+\.\d{3}) s simulated, (\d+) of (\d+) (I/Os|commands) done \((\d+\.\d) %\), "
                  r"(about .+ left|less than a second left|estimating the time left)")


def without_cost(results: dict) -> dict:
    return {k: v for k, v in results.items() if k not in ("wall_time_s", "kernel")}


def updates(text: str) -> list[re.Match[str]]:
    return [m for m in (LINE.fullmatch(part) for part in re.split(r"[\r\n]+", text) if part.strip()) if m]


def test_with_progress_stderr_gets_lines_and_the_results_stay_the_same(fcal_sim):
    shown = fcal_sim(*RUN, *FAST, "--progress", "--stats-json", "-")
    plain = fcal_sim(*RUN, "--stats-json", "-")
    assert shown.code == 0 and plain.code == 0
    assert plain.err == ""
    assert json.dumps(without_cost(shown.results), sort_keys=True) == json.dumps(without_cost(plain.results), sort_keys=True)
    lines = shown.err.splitlines()
    assert lines and "\r" not in shown.err  # not a terminal: a line per update
    found = updates(shown.err)
    assert len(found) == len(lines)
    asked = 2 * WARMUP + MEASURED
    done = [int(m.group(2)) for m in found]
    times = [float(m.group(1)) for m in found]
    assert all(int(m.group(3)) == asked and m.group(4) == "I/Os" for m in found)
    assert done == sorted(done) and times == sorted(times) and done[-1] <= asked
    # Shown only between the 1 ms slices: the simulated time is a whole number of milliseconds.
    assert all(abs(t * 1000 - round(t * 1000)) < 1e-6 for t in times)
    for m in found:  # the share: the I/Os', or the time limit's if larger
        assert float(m.group(5)) >= 100 * int(m.group(2)) / asked - 0.05


@pytest.mark.parametrize("flags", [[], FAST, ["--no-progress", *FAST]], ids=["default", "fast", "off"])
def test_without_progress_a_pipe_gets_nothing(fcal_sim, flags):
    r = fcal_sim(*RUN, *flags)
    assert r.code == 0 and r.err == ""


def run_on_a_terminal(fcal_sim_path: str, *args: str) -> tuple[int, str, str]:
    """fcal-sim with stderr on a pseudo-terminal; returns the exit code, stdout and what the terminal got."""
    try:
        master, slave = pty.openpty()
    except OSError as e:  # e.g. a container without /dev/pts: nothing to test the terminal case on
        pytest.skip(f"no pseudo-terminal here: {e}")
    p = subprocess.Popen([fcal_sim_path, *args], stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal's other side is closed
            break
        if not chunk:
            break
        seen += chunk
    out, _ = p.communicate(timeout=60)
    os.close(master)
    return p.returncode, out, seen.decode()


def test_on_a_terminal_one_line_is_redrawn_and_erased(fcal_sim_path):
    code, out, seen = run_on_a_terminal(fcal_sim_path, *RUN, *FAST)
    assert code == 0 and out == ""
    assert seen.startswith("\r") and "\n" not in seen and updates(seen)
    assert seen.endswith("\r") and seen.rstrip("\r").split("\r")[-1].strip() == ""  # erased at the end
    code, out, seen = run_on_a_terminal(fcal_sim_path, *RUN, *FAST, "--no-progress")
    assert code == 0 and seen == ""


def test_an_erase_job_counts_commands_and_keeps_its_tenths(fcal_sim):
    r = fcal_sim("--set", "workload.type=erase", "--set", "disk.count=2", "--set", "disk.capacity_gb=0.3",
                 "--set", "erase.command=write", "--quiet", "--progress", *FAST, timeout=120)
    assert r.code == 0
    tenths = [line for line in r.err.splitlines() if line.startswith("fcal-sim: erase ")]
    assert len(tenths) == 10
    found = updates(r.err)
    assert found and all(m.group(4) == "commands" for m in found)
