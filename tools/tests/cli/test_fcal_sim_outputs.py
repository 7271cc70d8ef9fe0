"""fcal-sim's outputs (issue 18: nothing lost at the edges): a refused run leaves existing files as they were and
creates none; an interrupted run (SIGINT, SIGTERM) stops cleanly with its documented exit code, writes the partial
results it was asked for and leaves the trace and VCD untouched; a write that fails (a device, a file size limit)
is exit 6 naming the path, with no file replaced; --vcd writes the path as given; empty and shared paths are bad
input (docs/cli.md)."""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import time

import pytest

from conftest import ROOT, balanced, expect_refused, load_results, sets

TINY = ["--set", "disk.count=2", "--set", "workload.measured_ios=20", "--set", "workload.warmup_ios=0"]
# Long enough to be interrupted (hours), short to start.
LONG = ["--set", "disk.count=4", "--set", "workload.measured_ios=100000000"]
KEPT = ["p.stats", "p.trace", "p.cdf", "p.vcd"]


@pytest.fixture
def outdir(tmp_path):
    """A folder holding four existing outputs, each reading "keep NAME"."""
    folder = tmp_path / "o"
    folder.mkdir()
    for name in KEPT:
        (folder / name).write_text(f"keep {name}\n")
    return folder


def outputs(folder) -> list:
    return ["--stats-json", folder / "p.stats", "--trace", folder / "p.trace", "--cdf", folder / "p.cdf",
            "--vcd", folder / "p.vcd"]


def expect_untouched(folder, what: str, names=KEPT) -> None:
    """Each of `names` still reads "keep NAME"; no file but the four in the folder."""
    for name in names:
        text = (folder / name).read_text()
        assert text == f"keep {name}\n", f"{what}: {name} was changed: {text[:200]}"
    extra = sorted(set(os.listdir(folder)) - set(KEPT))
    assert not extra, f"{what}: files left behind: {extra}"


def interrupt(fcal_sim_path, folder, signum, *args, stdout=subprocess.PIPE):
    """Starts fcal-sim, waits until its outputs' temporary files exist (the run has started), sends `signum`
    and returns (exit code, stdout, stderr)."""
    # SIGINT at its default: a background job (ctest run from a script) inherits it ignored.
    p = subprocess.Popen([fcal_sim_path, *map(str, args)], stdout=stdout, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(300):
        if any(name.startswith(".p.") for name in os.listdir(folder)):
            break
        time.sleep(0.1)
    time.sleep(0.3)
    p.send_signal(signum)
    out, err = p.communicate(timeout=60)
    return p.returncode, out, err


def test_a_run_refused_at_the_last_check_leaves_the_outputs(fcal_sim, outdir):
    # The AL_TIME rule used to truncate all four outputs.
    r = fcal_sim(*outputs(outdir), "--set", "loop.ber=0.001", "--set", "loop.al_time_us=1")
    expect_refused(r, "loop.al_time_us", "refused run (AL_TIME)")
    expect_untouched(outdir, "refused run (AL_TIME)")


@pytest.mark.parametrize("key, args", [
    # The rules that used to come only with elaboration: the RTL's depths, the span, a stripe unit larger
    # than a fixed disk (exit 5 before), a disk smaller than one I/O (exit 5 before).
    ("initiator.tx_fifo_frames", ["cmdf.impl=rtl", "initiator.tx_fifo_frames=8"]),
    ("workload.span_bytes", ["workload.span_bytes=1K"]),
    ("volume.stripe_kib", ["volume.raid=raid0", "disk.capacity_gb=0.00001"]),
    ("workload.io_size", ["disk.capacity_gb=0.000001"]),
])
def test_rules_across_keys_are_checked_before_any_output(fcal_sim, outdir, key, args):
    r = fcal_sim(*TINY, *outputs(outdir), *sets(*args))
    expect_refused(r, key, f"refused run ({key})")
    expect_untouched(outdir, f"refused run ({key})")


def test_a_refused_run_creates_no_vcd(fcal_sim, outdir):
    # It used to probe the path by creating an empty one.
    fcal_sim("--vcd", outdir / "new.vcd", "--set", "loop.ber=0.001", "--set", "loop.al_time_us=1")
    assert not (outdir / "new.vcd").exists(), f"a refused run created {outdir / 'new.vcd'}"


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_signal_ends_the_run_with_partial_results(fcal_sim_path, outdir, signum, code):
    rc, _, err = interrupt(fcal_sim_path, outdir, signum, *LONG, *outputs(outdir), "--quiet")
    name = signal.Signals(signum).name
    assert rc == code, f"{name}: exit {rc}, expected {code}: {err[:500]}"
    assert f"interrupted by {name}" in err, f"{name}: stderr does not say so: {err[:500]}"
    res = json.loads((outdir / "p.stats").read_text())["results"]
    assert res["run_end"] == "interrupted", f"{name}: run_end {res['run_end']}"
    assert balanced(res), f"{name}: account"
    assert 0 < res["completed_ios"] < 100000000, f"{name}: {res['completed_ios']} completed"
    assert (outdir / "p.cdf").read_text().splitlines()[0] == "quantile,response_us", f"{name}: the CDF was not written"
    expect_untouched(outdir, name, ["p.trace", "p.vcd"])


def test_a_signal_leaves_complete_json_on_stdout(fcal_sim_path, outdir):
    rc, out, err = interrupt(fcal_sim_path, outdir, signal.SIGTERM, *LONG, "--stats-json", "-",
                             "--trace", outdir / "p.trace")
    assert rc == 143, f"SIGTERM, --stats-json -: exit {rc}: {err[:500]}"
    assert json.loads(out)["results"]["run_end"] == "interrupted", "SIGTERM, --stats-json -: no complete JSON on stdout"


def test_write_errors_exit_6_naming_the_output(fcal_sim, fcal_sim_path, tmp_path):
    r = fcal_sim(*TINY, "--trace", "/dev/full", "--quiet")
    assert r.code == 6, f"--trace /dev/full: exit {r.code}, expected 6"
    assert "fcal-sim: --trace: '/dev/full': cannot write (No space left on device)" in r.err, f"--trace /dev/full: {r.err}"
    r = fcal_sim(*TINY, "--trace", "/dev/null", "--stats-json", "/dev/null", "--quiet")
    assert r.code == 0, f"outputs to /dev/null: exit {r.code}: {r.err}"
    # (--list-params takes no other option.)
    for what in ([*TINY, "--stats-json", "-"], TINY, ["--list-params"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([fcal_sim_path, *what], stdout=full, stderr=subprocess.PIPE, text=True,
                               timeout=60, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
        label = " ".join(w for w in what if w not in TINY) or "the summary"
        assert p.returncode == 6, f"{label} > /dev/full: exit {p.returncode}, expected 6"
        assert "standard output: cannot write" in p.stderr, f"{label} > /dev/full: {p.stderr}"


def limited(fcal_sim_path, *args):
    """fcal-sim under a 64 KiB file size limit with SIGXFSZ ignored, so that writes past it fail with EFBIG."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
    return subprocess.run([fcal_sim_path, *map(str, args)], capture_output=True, text=True, timeout=60,
                          preexec_fn=limit, env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))


@pytest.mark.parametrize("option", ["--trace", "--vcd"])
def test_a_file_size_limit_replaces_nothing(fcal_sim_path, outdir, option):
    # It cuts the trace, and the VCD that SystemC writes without reporting errors.
    path = outdir / f"p.{option[2:]}"
    p = limited(fcal_sim_path, *TINY, "--set", "workload.measured_ios=400", "--stats-json", outdir / "p.stats",
                option, path, "--quiet")
    assert p.returncode == 6, f"a size limit with {option}: exit {p.returncode}, expected 6: {p.stderr}"
    assert f"{option}: '{path}': cannot write" in p.stderr, f"a size limit: {option} not named: {p.stderr}"
    expect_untouched(outdir, f"a size limit ({option})")


def test_a_file_size_limit_on_the_rtls_vcd(fcal_sim_path, outdir):
    # Verilator's own VCD writer ended the program on a write error (5.006 deadlocked doing it).
    p = limited(fcal_sim_path, *TINY, "--set", "workload.measured_ios=400", "--set", "cmdf.impl=rtl",
                "--stats-json", outdir / "p.stats", "--vcd", outdir / "p.vcd", "--quiet")
    assert p.returncode == 6, f"a size limit with the RTL's VCD: exit {p.returncode}, expected 6: {p.stderr}"
    assert f"--vcd: '{outdir / 'p_rtl.vcd'}': cannot write (File too large)" in p.stderr, \
        f"a size limit: the RTL's VCD not named: {p.stderr}"
    expect_untouched(outdir, "a size limit (the RTL's VCD)", ["p.stats", "p.vcd"])


def test_vcd_writes_the_path_given(fcal_sim, tmp_path):
    r = fcal_sim(*TINY, "--vcd", tmp_path / "wave", "--quiet")
    assert r.code == 0, f"--vcd without .vcd: exit {r.code}: {r.err}"
    assert "$enddefinitions" in (tmp_path / "wave").read_text(), f"--vcd {tmp_path / 'wave'}: not written there"
    assert not (tmp_path / "wave.vcd").exists(), "--vcd PATH also wrote PATH.vcd"
    (tmp_path / "adir").mkdir()
    expect_refused(fcal_sim(*TINY, "--vcd", tmp_path / "adir"), "is a directory", "--vcd a directory")
    assert not (tmp_path / "adir.vcd").exists(), "--vcd a directory wrote DIR.vcd"
    os.mkfifo(tmp_path / "pipe")
    expect_refused(fcal_sim(*TINY, "--vcd", tmp_path / "pipe"), "is not a regular file", "--vcd a pipe")
    assert not (tmp_path / "pipe.vcd").exists(), "--vcd a pipe wrote PIPE.vcd"
    # With the RTL, its VCD is PATH minus .vcd plus _rtl.vcd.
    r = fcal_sim(*TINY, "--set", "cmdf.impl=rtl", "--vcd", tmp_path / "rtlwave", "--quiet")
    assert r.code == 0, f"--vcd with the RTL: exit {r.code}: {r.err}"
    for name in ("rtlwave", "rtlwave_rtl.vcd"):
        assert (tmp_path / name).exists() and (tmp_path / name).stat().st_size, \
            f"--vcd with the RTL: no {name} (files {sorted(os.listdir(tmp_path))})"


@pytest.mark.parametrize("option", ["--stats-json", "--trace", "--vcd", "--cdf", "--config"])
def test_an_empty_path_is_bad_input(fcal_sim, option):
    expect_refused(fcal_sim(*TINY, option, ""), f"{option}: an empty path", f'{option} ""')


def test_one_path_for_two_outputs_is_bad_input(fcal_sim, tmp_path):
    r = fcal_sim(*TINY, "--stats-json", tmp_path / "same", "--cdf", tmp_path / "same")
    expect_refused(r, "is the path of another output", "--stats-json and --cdf on one path")


def test_one_path_spelt_two_ways_is_bad_input(fcal_sim, tmp_path, monkeypatch):
    # Relative paths to a file not yet there ("x", "./x", "../dir/x") name one file too (they used to
    # pass, the second output overwriting the first).
    (tmp_path / "dir").mkdir()
    monkeypatch.chdir(tmp_path / "dir")
    for other in ("./n.out", "../dir/n.out", str(tmp_path / "dir" / "n.out")):
        r = fcal_sim(*TINY, "--stats-json", "n.out", "--cdf", other)
        expect_refused(r, "is the path of another output", f"--stats-json n.out and --cdf {other}")
        assert not (tmp_path / "dir" / "n.out").exists(), f"--cdf {other}: wrote n.out"


def test_check_runs_and_writes_nothing(fcal_sim, outdir, tmp_path):
    r = fcal_sim(*LONG, "--check", "--stats-json", outdir / "new.stats", "--trace", outdir / "p.trace")
    assert r.code == 0 and not r.err, f"--check: exit {r.code}, stderr {r.err}"
    assert not r.out, f"--check printed: {r.out[:300]}"
    assert not (outdir / "new.stats").exists(), "--check wrote its --stats-json"
    expect_untouched(outdir, "--check", ["p.trace"])
    r = fcal_sim("--check", "--set", "loop.ber=0.001", "--set", "loop.al_time_us=1")
    expect_refused(r, "loop.al_time_us", "--check of a refused configuration")
    r = fcal_sim("--check", "--stats-json", tmp_path / "no" / "such" / "folder" / "s.json")
    expect_refused(r, "no folder", "--check of an output in a folder that does not exist")


def test_tracing_changes_only_the_kernel_block(fcal_sim, tmp_path):
    args = [*TINY, "--set", "workload.measured_ios=200", "--quiet"]
    assert fcal_sim(*args, "--stats-json", tmp_path / "plain.json").code == 0, "plain run failed"
    assert fcal_sim(*args, "--stats-json", tmp_path / "traced.json", "--trace", "/dev/null").code == 0, "traced run failed"
    a = load_results(tmp_path / "plain.json")["results"]
    b = load_results(tmp_path / "traced.json")["results"]
    assert a["kernel"]["port_activations"] != b["kernel"]["port_activations"], "expected the traced run to cost more"
    a.pop("kernel"), b.pop("kernel")
    assert a == b, "--trace changed a result other than wall_time_s and kernel: " + \
        str([k for k in a if a[k] != b.get(k)])
    with open(os.path.join(ROOT, "docs", "cli.md")) as f:
        assert "byte-identical JSON apart from `wall_time_s` and the `kernel` block" in f.read(), \
            "docs/cli.md: the determinism promise does not name the kernel block, which --trace and --vcd change"
