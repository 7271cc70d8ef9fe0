"""fcal-sim's waveform options (docs/cli.md, "Smaller waveforms"): --vcd-window, --vcd-ports, --vcd-rtl-pins and FST.

The VCDs are read with a small parser of the format's own rules (IEEE 1364 section 18), independent of fcal's filter, and
a narrowed file is checked against the full VCD of the same run: a window holds the full file's values at START and its
changes up to END; a port selection holds those ports' signals with the same changes.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field

import pytest

# 4 disks, 16 KiB reads at queue depth 1: arbitration windows about 80 us apart, a run of about 3 ms.
RUN = ["--set", "disk.count=4", "--set", "workload.io_size=16K", "--set", "workload.queue_depth=1",
       "--set", "workload.measured_ios=8", "--set", "workload.warmup_ios=0", "--quiet"]
# A small cmdf.impl=rtl run (the RTL's VCD beside the ports').
RTL_RUN = ["--set", "disk.count=4", "--set", "workload.measured_ios=6", "--set", "workload.warmup_ios=0",
           "--set", "workload.read_fraction=0.5", "--set", "cmdf.impl=rtl", "--quiet"]


@dataclass
class Vcd:
    names: dict[str, list[str]] = field(default_factory=dict)  # id -> full names (aliases share an id)
    initial_time: int | None = None  # the time of the first time stamp (None: values before any)
    times: list[int] = field(default_factory=list)
    changes: dict[str, list[tuple[int, int | str]]] = field(default_factory=dict)  # full name -> (time, value)

    def value_at(self, name: str, t: int) -> int | str | None:
        v = None
        for at, x in self.changes.get(name, []):
            if at > t:
                break
            v = x
        return v


def value(text: str) -> int | str:
    """A value as a number when it is one (FST's round trip pads vectors with zeros)."""
    if text[0] in "bB":
        return int(text[1:], 2) if set(text[1:]) <= {"0", "1"} else text[1:].lower()
    return int(text) if text in ("0", "1") else text.lower()


def parse_vcd(text: str) -> Vcd:
    vcd = Vcd()
    tokens = iter(text.split())
    scope: list[str] = []
    now = 0
    for t in tokens:
        if t == "$scope":
            next(tokens)
            scope.append(next(tokens))
        elif t == "$upscope":
            scope.pop()
        elif t == "$var":
            _type, _size, ident, name = next(tokens), next(tokens), next(tokens), next(tokens)
            vcd.names.setdefault(ident, []).append(".".join(scope + [name]))
        if t.startswith("$"):
            if t not in ("$dumpvars", "$dumpall", "$dumpon", "$dumpoff", "$end"):
                while t != "$end":
                    t = next(tokens)
            continue
        if t.startswith("#"):
            now = int(t[1:])
            if vcd.initial_time is None:
                vcd.initial_time = now
            vcd.times.append(now)
            continue
        if t[0] in "bBrRsS":
            ident, v = next(tokens), value(t)
        else:
            ident, v = t[1:], value(t[0])
        for name in vcd.names[ident]:
            vcd.changes.setdefault(name, []).append((now, v))
    return vcd


def stats(run) -> dict:
    results = dict(run.json["results"])
    for varying in ("kernel", "wall_time_s"):
        results.pop(varying, None)
    return results


@pytest.fixture(scope="module")
def full(fcal_sim, tmp_path_factory) -> tuple[Vcd, dict]:
    path = tmp_path_factory.mktemp("full") / "full.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), "--stats-json", "-")
    assert run.code == 0, run.err
    return parse_vcd(path.read_text()), stats(run)


@pytest.mark.parametrize("window", [(2400, 2900), (0, 100), (1000.5, 1000.7)])
def test_a_window_holds_the_values_at_start_then_the_changes_up_to_end(fcal_sim, tmp_path, full, window):
    whole, _ = full
    start, end = (round(x * 1e6) for x in window)  # picoseconds, the VCDs' unit
    path = tmp_path / "w.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), "--vcd-window", f"{window[0]}:{window[1]}")
    assert run.code == 0, run.err
    part = parse_vcd(path.read_text())
    assert sorted(part.names.values()) == sorted(whole.names.values())
    assert part.initial_time == start and part.times[-1] == end
    assert all(start <= t <= end for t in part.times) and part.times == sorted(part.times)
    for name in whole.changes:
        assert part.changes[name][0] == (start, whole.value_at(name, start)), name
        assert part.changes[name][1:] == [(t, v) for t, v in whole.changes[name] if start < t <= end], name


def test_a_window_after_the_run_holds_its_last_values(fcal_sim, tmp_path, full):
    whole, _ = full
    path = tmp_path / "w.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), "--vcd-window", "1e9:2e9")
    assert run.code == 0, run.err
    part = parse_vcd(path.read_text())
    end = whole.times[-1]
    assert part.times == [end]
    assert all(part.changes[n] == [(end, whole.value_at(n, end))] for n in whole.changes)


def test_a_window_of_one_picosecond_is_one(fcal_sim, tmp_path):
    # 0.4 ps rounds to 0 ps, 0.6 ps to 1 ps: the window is [0, 1] ps.
    path = tmp_path / "w.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), "--vcd-window", "0.0000004:0.0000006")
    assert run.code == 0, run.err
    part = parse_vcd(path.read_text())
    assert part.initial_time == 0 and part.times == [0, 1]


def test_only_the_ports_asked_for_are_traced_with_the_same_changes(fcal_sim, tmp_path, full):
    whole, _ = full
    path = tmp_path / "p.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), "--vcd-ports", "disk2,controller")
    assert run.code == 0, run.err
    part = parse_vcd(path.read_text())
    ports = {name.split(".")[3] for names in part.names.values() for name in names}
    assert ports == {"controller", "disk2"}
    assert part.changes == {n: c for n, c in whole.changes.items() if n.split(".")[3] in ports}


@pytest.mark.parametrize("args, message", [
    (["--vcd-ports", "disk4"], "--vcd-ports: no port 'disk4' (the ports: controller, disk0 ... disk3)"),
    (["--vcd-ports", "disk0,Disk1"], "--vcd-ports: no port 'Disk1'"),
    (["--vcd-ports", "1"], "--vcd-ports: no port '1'"),
    (["--vcd-window", "5:3"], "--vcd-window: '5:3': START_US must be before END_US"),
    (["--vcd-window", "5"], "--vcd-window: '5' is not START_US:END_US"),
    (["--vcd-window", "-1:3"], "--vcd-window: '-1:3' is not START_US:END_US"),
    (["--vcd-window", "1:nan"], "--vcd-window: '1:nan' is not START_US:END_US"),
    # Simulated time is whole picoseconds: 0.1 and 0.2 ps are both 0 ps, 1 000 000.1 and .2 ps both 1 000 000 ps.
    (["--vcd-window", "0.0000001:0.0000002"], "--vcd-window: '0.0000001:0.0000002': START_US and END_US round to the same time"),
    (["--vcd-window", "1.0000001:1.0000002"], "--vcd-window: '1.0000001:1.0000002': START_US and END_US round to the same time"),
    # 3 ps and 3.5 ps: 3.5e-6 us in ps is 3.4999... in floating point, which the filter rounds to 3.
    (["--vcd-window", "0.000003:0.0000035"], "--vcd-window: '0.000003:0.0000035': START_US and END_US round to the same time"),
    (["--vcd-rtl-pins"], "--vcd-rtl-pins: there is no RTL VCD (cmdf.impl is not rtl)"),
])
def test_bad_narrowing_is_refused_in_one_line(fcal_sim, tmp_path, args, message):
    path = tmp_path / "x.vcd"
    run = fcal_sim(*RUN, "--vcd", str(path), *args)
    assert run.code == 2 and run.err.count("\n") == 1 and message in run.err, run.err
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("option", ["--vcd-window", "--vcd-ports", "--vcd-rtl-pins"])
def test_the_narrowing_options_need_vcd(fcal_sim, option):
    run = fcal_sim(*RUN, option, *([] if option == "--vcd-rtl-pins" else ["disk0" if option == "--vcd-ports" else "1:2"]))
    assert run.code == 2 and f"{option} requires --vcd" in run.err


@pytest.mark.parametrize("name", ["w.vcd.gz", "w.VCD.GZ", "w.lxt2", "w.ghw"])
def test_a_name_asking_for_another_format_is_refused(fcal_sim, tmp_path, name):
    run = fcal_sim(*RUN, "--vcd", str(tmp_path / name))
    assert run.code == 2 and "--vcd" in run.err and "the file would not be what its name says" in run.err
    assert not os.listdir(tmp_path)


def test_results_do_not_depend_on_the_waveform_options(fcal_sim, tmp_path, full):
    _, reference = full
    quiet = fcal_sim(*RUN, "--stats-json", "-")
    assert stats(quiet) == reference
    variants = [["--vcd-ports", "disk1"], ["--vcd-window", "100:200"], ["--vcd-ports", "controller", "--vcd-window", "0:50"]]
    if shutil.which("vcd2fst"):
        variants.append([])
    for i, extra in enumerate(variants):
        path = tmp_path / (f"v{i}.fst" if not extra else f"v{i}.vcd")
        run = fcal_sim(*RUN, "--vcd", str(path), *extra, "--stats-json", "-")
        assert run.code == 0 and stats(run) == reference, (extra, run.err)


@pytest.mark.skipif(not shutil.which("fst2vcd"), reason="needs gtkwave's fst2vcd (bash scripts/setup.sh)")
@pytest.mark.parametrize("extra", [[], ["--vcd-window", "2400:2900"]])
def test_fst_holds_the_same_waveform_as_the_vcd(fcal_sim, tmp_path, extra):
    vcd, fst = tmp_path / "w.vcd", tmp_path / "w.fst"
    for path in (vcd, fst):
        run = fcal_sim(*RUN, "--vcd", str(path), *extra)
        assert run.code == 0, run.err
    assert fst.read_bytes()[:1] != b"$"  # not a VCD under another name
    back = subprocess.run(["fst2vcd", "--fstname", str(fst)], capture_output=True, text=True, check=True).stdout
    a, b = parse_vcd(vcd.read_text()), parse_vcd(back)
    assert sorted(a.names.values()) == sorted(b.names.values())
    # FST keeps a change only where the value changes; the VCD writer also repeats a value at times.
    def distinct(changes):
        out = []
        for t, v in changes:
            if not out or out[-1][1] != v:
                out.append((t, v))
        return out
    assert {n: distinct(c) for n, c in a.changes.items()} == {n: distinct(c) for n, c in b.changes.items()}


def test_fst_without_vcd2fst_is_refused_before_the_run(fcal_sim_path, tmp_path):
    env = dict(os.environ, PATH=str(tmp_path), SC_COPYRIGHT_MESSAGE="DISABLE")
    p = subprocess.run([fcal_sim_path, *RUN, "--vcd", str(tmp_path / "w.fst")], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert "FST needs vcd2fst (Debian package gtkwave), which is not on PATH" in p.stderr
    assert os.listdir(tmp_path) == []


def test_rtl_pins_only_keeps_the_tops_pins(fcal_sim, tmp_path):
    full_path, pins_path = tmp_path / "a.vcd", tmp_path / "b.vcd"
    assert fcal_sim(*RTL_RUN, "--vcd", str(full_path)).code == 0
    run = fcal_sim(*RTL_RUN, "--vcd", str(pins_path), "--vcd-rtl-pins", "--vcd-window", "0:400")
    assert run.code == 0, run.err
    whole, pins = parse_vcd((tmp_path / "a_rtl.vcd").read_text()), parse_vcd((tmp_path / "b_rtl.vcd").read_text())
    whole_names = {n for names in whole.names.values() for n in names}
    pin_names = {n for names in pins.names.values() for n in names}
    # The pins are one level below the model's top scope; the full VCD also holds the scopes below them.
    assert pin_names and all(n.count(".") == 1 for n in pin_names)
    assert pin_names == {n for n in whole_names if n.count(".") == 1} and len(whole_names) > len(pin_names)
    assert all(0 <= t <= 400_000_000 for t in pins.times)
    # The ports' VCD of the same run is narrowed to the same window.
    ports = parse_vcd((tmp_path / "b.vcd").read_text())
    assert ports.initial_time == 0 and ports.times[-1] == 400_000_000


@pytest.mark.parametrize("window", ["100:200", "500:5000"])
def test_a_window_leaves_a_time_limited_run_as_it_was(fcal_sim, tmp_path, window):
    # The window's end (before or after the limit) must not change how the run ends.
    limited = [*RUN, "--set", "sim.time_limit_s=0.001", "--stats-json", "-"]
    plain = fcal_sim(*limited)
    run = fcal_sim(*limited, "--vcd", str(tmp_path / "w.vcd"), "--vcd-window", window)
    assert plain.code == 1 and run.code == 1 and stats(run) == stats(plain), run.err
