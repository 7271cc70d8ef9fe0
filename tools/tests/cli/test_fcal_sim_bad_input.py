"""fcal-sim's promises under bad input (issues 13 and 18): every error path ends with its documented exit code;
what the model cannot represent is refused at configuration time naming the key (I/O sizes past one FC
sequence, I/O counts that overflow, times past sc_time's range, AL_PA 0x00); output paths are checked before
the run; the deadlock (3) and internal-error (5) paths, reached through the test-only hooks (docs/cli.md)."""
from __future__ import annotations

import os
import re

import pytest

from conftest import balanced, expect_refused, load_results, sets

# A run of a few I/Os on one disk, no warm-up.
TINY = ["--set", "disk.count=1", "--set", "workload.measured_ios=2", "--set", "workload.warmup_ios=0", "--quiet"]
# Zoned disks with 4096-byte sectors, so that READ(10)'s 16-bit block count (65535 x 4096 B) is not the limit.
ZONED_4K = ["--set", "disk.model=zoned", "--set", "disk.sector_bytes=4096"]
# One data sequence holds at most 65536 frames (16-bit SEQ_CNT): with 2048-byte payloads 128 MiB.
MIB128 = 65536 * 2048
# Output paths are checked before the run: 10^8 I/Os would take hours, so an exit 2 within the fixture's
# 60 s shows that nothing ran.
LONG = ["--set", "workload.measured_ios=100000000"]
CONTROL_BYTES = re.compile("[\x01-\x08\x0e-\x1f\x7f]")


def test_help_documents_the_exit_codes_and_hides_the_hooks(fcal_sim):
    r = fcal_sim("--help")
    assert r.code == 0, f"--help: exit {r.code}"
    for text in ["0 every I/O completed", "1 sim.time_limit_s", "2 bad input", "3 deadlock", "4 the RTL",
                 "5 internal error", "6 an output could not be written", "130 / 143 interrupted"]:
        assert text in r.out, f"--help does not document exit code '{text}'"
    assert "--test-" not in r.out, "--help shows the test-only hooks"


def test_the_largest_io_runs(fcal_sim, tmp_path):
    r = fcal_sim(*TINY, *ZONED_4K, *sets("workload.measured_ios=1", f"workload.io_size={MIB128}"),
                 "--stats-json", tmp_path / "big.json")
    assert r.code == 0, f"workload.io_size=128M: exit {r.code}: {r.err}"
    res = load_results(tmp_path / "big.json")["results"]
    assert res["completed_ios"] == 1 and res["outstanding_ios"] == 0, f"128M I/O: {res['completed_ios']} completed"


REFUSED = [
    # workload.io_size: one byte more than a sequence holds.
    ("workload.io_size", TINY + ZONED_4K + sets(f"workload.io_size={MIB128 + 1}")),
    # READ(10)/WRITE(10) count blocks in 16 bits: with 512-byte blocks 65535 x 512 B is the largest I/O.
    ("workload.io_size", TINY + sets(f"workload.io_size={65536 * 512}")),
    ("workload.io_size", TINY + sets("workload.io_size=1G")),
    ("workload.io_size", TINY + sets("workload.io_size=1G", "workload.read_fraction=0", "target.burst_bytes=1M")),
    # The payloads set the limit: 1024-byte frames halve it, and the error names the payload key.
    ("initiator.max_payload", TINY + ZONED_4K + sets("initiator.max_payload=1024", f"workload.io_size={MIB128 // 2 + 4}")),
    ("target.max_payload", TINY + ZONED_4K + sets("target.max_payload=512", f"workload.io_size={MIB128 // 4 + 4}")),
    # The message names the limit that binds (issue 18: 1G was told "at most 128M").
    (f"at most {65535 * 512}", TINY + sets("workload.io_size=1G")),
    # I/O counts: 2 x warm-up + measured must not wrap (it used to "complete" with nothing measured).
    ("workload.warmup_ios", sets("workload.warmup_ios=9223372036854775807", "workload.measured_ios=3")),
    ("workload.warmup_ios", sets("workload.warmup_ios=4611686018427387905", "workload.measured_ios=9223372036854775807")),
    # Real values whose delays sc_time cannot hold (2^63 ps, about 9.2e6 s).
    ("loop.hop_m", sets("loop.hop_m=1e20")),
    ("loop.length_m", sets("loop.length_m=1e20")),
    ("loop.hop_m", sets("loop.hop_m=1e9", "loop.propagation_ns_per_m=1e9")),
    ("disk.access_ms", sets("disk.access_ms=1e300")),
    ("disk.rate_mbs", sets("disk.rate_mbs=1e-300")),
    ("initiator.cmd_exec_us", sets("initiator.cmd_exec_us=1e22")),
    ("workload.rate_iops", sets("workload.type=open", "workload.rate_iops=1e-300")),
    ("sim.time_limit_s", sets("sim.time_limit_s=1e10")),
    # Shorter than a picosecond: no time at all (it ran and reported a deadlock).
    ("sim.time_limit_s", sets("sim.time_limit_s=1e-13")),
    *[(key, sets(f"{key}=1e300")) for key in [
        "initiator.xfer_rdy_us", "initiator.dma_sched_us", "initiator.sft_us", "target.cmd_exec_us",
        "target.rsp_gen_us", "target.dma_sched_us", "target.sft_us", "driver.arrival_us", "driver.completion_us",
        "initiator.frame_proc_ns", "target.frame_proc_ns"]],
    # The close timers, the TASK SET FULL retry and the zoned disk's times.
    *[(key, sets(f"{key}=1e22")) for key in [
        "initiator.circuit_hold_us", "target.circuit_hold_us", "initiator.task_set_full_retry_us",
        "disk.command_overhead_us"]],
    *[(key, sets("disk.model=zoned", f"{key}=1e17")) for key in [
        "disk.seek_read_max_ms", "disk.seek_write_max_ms", "disk.sector_time_inner_ms"]],
    # Zoned geometries whose capacity a 64-bit count (or a double, exactly) cannot hold.
    ("disk.cylinders", sets("disk.model=zoned", "disk.rpm=1e-300")),
    ("disk.cylinders", sets("disk.model=zoned", "disk.cylinders=10000000", "disk.heads=255",
                            "disk.sector_time_outer_ms=0.0000001")),
    # More sectors than READ(10)/WRITE(10) can address (2^32).
    ("disk.cylinders", sets("disk.model=zoned", "disk.cylinders=1000000", "disk.heads=64")),
    # The ideal transport has no HBA for the RTL.
    ("cmdf.impl", sets("transport=ideal", "cmdf.impl=rtl")),
    # An access time representable as a mean but not as the longest exponential draw (36.7 x).
    ("disk.access_ms", sets("disk.access_ms=1e9", "disk.access_dist=exponential")),
    ("initiator.dma_mbs", sets("initiator.dma_mbs=1e-300")),
    ("target.dma_mbs", sets("target.dma_mbs=1e-300")),
    # The controller cannot take the FL_Port's AL_PA.
    ("initiator.al_pa", sets("initiator.al_pa=0x00")),
    # Found by fuzzing: a number beyond a double.
    ("disk.access_ms", sets("disk.access_ms=1e400")),
    # Messages that contradicted themselves (issue 18).
    ("loop.al_time_us: 0 is out of range (must be > 0 and <= 1e+07)", sets("loop.al_time_us=0")),
    ("disk.0004.access_ms: a disk index has no leading zeros (disk.4.access_ms)", sets("disk.0004.access_ms=3")),
    # 2^64 - 1 is >= 0: the limit it passes is the top of a 64-bit signed integer, 2^63 - 1.
    (f"workload.seed: {2**64 - 1} is out of range (must be >= 0 and <= {2**63 - 1})", sets(f"workload.seed={2**64 - 1}")),
    # The keys of issue 21: out of range, or a disk that cannot serve several commands at once.
    ("disk.max_concurrent", TINY + sets("disk.model=zoned", "disk.max_concurrent=2")),
    ("disk.max_concurrent", TINY + sets("disk.max_concurrent=0")),
    ("disk.max_concurrent", TINY + sets("disk.max_concurrent=-1")),
    ("disk.0.max_concurrent", TINY + sets("disk.model=zoned", "disk.0.max_concurrent=4")),
    ("driver.disk_outstanding", TINY + sets("driver.disk_outstanding=-1")),
    ("initiator.sft_engine", TINY + sets("initiator.sft_engine=fast")),
    ("target.sft_engine", TINY + sets("target.sft_engine=")),
]


@pytest.mark.parametrize("needle, args", REFUSED, ids=[" ".join(a[-2:]) for _, a in REFUSED])
def test_unrepresentable_value_is_refused_naming_the_key(fcal_sim, needle, args):
    expect_refused(fcal_sim(*args), needle, "fcal-sim " + " ".join(args))


@pytest.mark.parametrize("option", ["--trace", "--vcd"])
def test_ideal_transport_has_no_ports_to_trace(fcal_sim, tmp_path, option):
    expect_refused(fcal_sim("--set", "transport=ideal", option, tmp_path / "out"), option)


@pytest.mark.parametrize("code, args", [
    # Representable: the constant access time runs until the time limit.
    (1, sets("disk.access_ms=1e9", "disk.access_dist=constant", "sim.time_limit_s=1")),
    # Just inside the range the run is valid: it reaches the time limit (1), not an error.
    (1, TINY + sets("initiator.cmd_exec_us=9e12", "sim.time_limit_s=0.01")),
    (1, TINY + sets("disk.access_ms=9e9", "sim.time_limit_s=0.01")),
    (1, TINY + sets("workload.type=open", "workload.rate_iops=1e-5", "sim.time_limit_s=0.01")),
    # A 9e6 s limit (just under sc_time's 9.2e6 s) completes.
    (0, TINY + sets("sim.time_limit_s=9e6")),
    (0, TINY + sets("initiator.al_pa=0x02")),
], ids=lambda v: " ".join(v[-2:]) if isinstance(v, list) else str(v))
def test_large_but_representable_values_run(fcal_sim, code, args):
    r = fcal_sim(*args)
    assert r.code == code, f"fcal-sim {' '.join(args)}: exit {r.code}, expected {code}: {r.err}"


@pytest.mark.parametrize("content, needle", [
    ('{"initiator": {"al_pa": 0}}', "initiator.al_pa"),
    ('{"disk.access_ms": 1e400}', "number overflow"),
    # A key given twice was last-wins, and {"": {...}} was unwrapped.
    ('{"disk": {"count": 4}, "disk": {"count": 5}}', "disk: given twice"),
    ('{"disk.count": 4, "disk.count": 6}', "disk.count: given twice"),
    ('{"disk": {"2": {"access_ms": 4, "access_ms": 6}}}', "disk.2.access_ms: given twice"),
    ('{"": {"disk": {"count": 4}}}', "an empty key"),
    ('{"disk.count": 99999999999999999999}', "disk.count: 1e+20 is out of range 1..125"),
], ids=["al_pa 0", "overflow", "twice nested", "twice dotted", "twice per disk", "empty key", "huge integer"])
def test_bad_config_file_is_refused(fcal_sim, tmp_path, content, needle):
    (tmp_path / "c.json").write_text(content + "\n")
    expect_refused(fcal_sim("--config", tmp_path / "c.json"), needle)


def test_an_unreadable_config_file_is_refused(fcal_sim):
    # Opened, but a read fails (an I/O error): it ended as an internal error. /proc/self/mem is such a file (the
    # first page is never mapped); some containers have no /proc/self/mem, and there no file does this for root.
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc/self/mem in this environment: no file here opens and then fails to read")
    expect_refused(fcal_sim("--check", "--config", "/proc/self/mem"), "cannot read")


@pytest.mark.parametrize("depth", [10000, 5000])
def test_deep_nesting_is_refused_in_a_short_line(fcal_sim, tmp_path, depth):
    # 10 000 nested objects used to crash (exit 139), 5 000 to print a 10 000-character key.
    (tmp_path / "deep.json").write_text('{"a":' * depth + "1" + "}" * depth + "\n")
    r = fcal_sim("--config", tmp_path / "deep.json")
    expect_refused(r, "nested deeper than 16 levels", f"depth {depth}")
    assert len(r.err.encode()) < 300, f"depth {depth}: a {len(r.err.encode())}-byte message"


def test_control_characters_and_long_keys_are_escaped_and_cut(fcal_sim, tmp_path):
    r = fcal_sim("--set", "disk.co\x01unt=3")
    expect_refused(r, "unknown parameter", "a control character in a key")
    assert "\\u0001" in r.err, f"control character not escaped: {r.err!r}"
    r = fcal_sim("--set", "k" * 10000 + "=1")
    expect_refused(r, "(10000 bytes)", "a 10000-byte key")
    assert len(r.err.encode()) < 300, f"a 10000-byte key: a {len(r.err.encode())}-byte message"
    r = fcal_sim("--config", tmp_path / "no\x1b[2Jfile.json")
    expect_refused(r, "\\u001b[2J", "ESC in a file name")
    assert not CONTROL_BYTES.search(r.err), f"a control byte reached stderr: {r.err!r}"
    r = fcal_sim("--set", "disk.0.\x1bx=1")
    expect_refused(r, "\\u001b", "ESC in a key")
    assert not CONTROL_BYTES.search(r.err), f"a control byte reached stderr: {r.err!r}"


def test_list_params_shows_the_true_range(fcal_sim):
    r = fcal_sim("--list-params")
    line = next((line for line in r.out.splitlines() if line.startswith("loop.al_time_us ")), "")
    assert re.match(r"^loop\.al_time_us .* > 0 and <= 1e\+07 ", line), f"--list-params: loop.al_time_us's range: {line}"


def test_unwritable_outputs_are_refused_before_the_run(fcal_sim, tmp_path):
    missing = tmp_path / "no" / "such" / "dir"
    (tmp_path / "adir").mkdir()
    for option, path in [("--stats-json", missing / "s.json"), ("--stats-json", tmp_path / "adir"),
                         ("--trace", missing / "t.txt"), ("--vcd", missing / "w.vcd")]:
        expect_refused(fcal_sim(*LONG, option, path), str(path), f"{option} {path}")
    # With the RTL the second VCD (PATH_rtl.vcd) is checked too: here it is a directory.
    (tmp_path / "w_rtl.vcd").mkdir()
    r = fcal_sim(*LONG, "--set", "cmdf.impl=rtl", "--vcd", tmp_path / "w.vcd")
    expect_refused(r, str(tmp_path / "w_rtl.vcd"), "the RTL's VCD a directory")
    assert "--vcd" in r.err, f"the --vcd error does not name the option: {r.err}"
    # A writable path still works and gets the results.
    r = fcal_sim(*TINY, "--stats-json", tmp_path / "ok.json")
    assert r.code == 0, f"writable --stats-json: exit {r.code}: {r.err}"
    assert "completed_ios" in load_results(tmp_path / "ok.json")["results"], "stats not written"


def test_a_lost_completion_is_a_deadlock(fcal_sim_test, tmp_path):
    r = fcal_sim_test("--set", "disk.count=4", "--set", "workload.measured_ios=50", "--test-lose-io", "5",
                      "--stats-json", tmp_path / "dead.json", "--quiet")
    assert r.code == 3, f"--test-lose-io: exit {r.code}, expected 3: {r.err}"
    assert "deadlock" in r.err, f"deadlock: stderr does not say so: {r.err}"
    assert re.search(r"controller 0x01 ", r.err), f"deadlock: no controller state: {r.err}"
    disks = [line for line in r.err.splitlines() if re.match(r"^  system\.loop\.disk[0-9]+ 0x", line)]
    assert len(disks) == 4, f"deadlock: expected the state of each of the 4 disks: {r.err}"
    res = load_results(tmp_path / "dead.json")["results"]
    assert res["run_end"] == "deadlock", f"run_end {res['run_end']}"
    assert res["outstanding_ios"] == 1, f"outstanding {res['outstanding_ios']}, expected the one lost"
    assert balanced(res), "the account"
    assert res["failed_ios"] == 0 and res["aborts"] == 0, "a lost completion is no FCP failure"
    assert res["completed_ios"] == 2 * res["warmup_ios"] + 50 - 1, "all but the lost one completed"


def test_an_exception_in_the_simulation_is_an_internal_error(fcal_sim_test):
    r = fcal_sim_test("--set", "disk.count=4", "--set", "workload.measured_ios=50", "--test-throw-io", "5", "--quiet")
    assert r.code == 5, f"--test-throw-io: exit {r.code}, expected 5"
    assert "internal error" in r.err, f"internal error: stderr does not say so: {r.err}"
    assert "--test-throw-io: completion 5" in r.err, f"internal error: the exception is not shown: {r.err}"


def test_requests_waiting_in_the_driver_are_outstanding_at_the_time_limit(fcal_sim, tmp_path):
    r = fcal_sim("--set", "disk.count=2", "--set", "workload.queue_depth=8", "--set", "driver.disk_outstanding=1",
                 "--set", "sim.time_limit_s=0.01", "--quiet", "--stats-json", tmp_path / "limit.json")
    assert r.code == 1, f"time limit with driver.disk_outstanding=1: exit {r.code}"
    res = load_results(tmp_path / "limit.json")["results"]
    assert balanced(res), "the account"
    # 8 per disk: 1 at the disk, 7 waiting in the driver.
    assert res["outstanding_ios"] == 16, f"outstanding {res['outstanding_ios']}, expected 2 disks x 8"


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_progress_interval_not_a_number_is_refused(fcal_sim, value):
    # NaN passed the range check (it ran with the shortest interval).
    expect_refused(fcal_sim(*TINY, "--progress-interval", value), "--progress-interval", f"--progress-interval {value}")
