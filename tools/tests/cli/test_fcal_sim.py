"""fcal-sim's command-line contract: parameters, results JSON, determinism, configuration files, exit codes
0 / 1 / 2 with one-line errors, the trace outputs, and the RTL transmit queue's keys, counters, back-pressure
and VCD (docs/cli.md). Equivalence of the RTL's results: test_rtl_equivalence.py."""
from __future__ import annotations

import json
import re

import pytest

from conftest import expect_refused, load_results

SMALL = ["--set", "disk.count=4", "--set", "workload.measured_ios=200"]
RTL_SMALL = ["--set", "disk.count=4", "--set", "workload.measured_ios=100", "--set", "workload.read_fraction=0.5"]


def test_list_params_text_and_json_agree_and_defaults_given_change_nothing(fcal_sim, tmp_path):
    text = fcal_sim("--list-params")
    assert text.code == 0 and not text.err, f"--list-params: exit {text.code}, stderr {text.err}"
    listing = fcal_sim("--list-params", "--json")
    assert listing.code == 0 and not listing.err, f"--list-params --json: exit {listing.code}, stderr {listing.err}"
    keys = [line.split()[0] for line in text.out.splitlines()[1:] if line.strip()]
    assert keys == [p["key"] for p in listing.json], "the two listings name other keys or another order"
    assert len(keys) >= 100, f"only {len(keys)} parameters listed"
    explicit: list[str] = []
    for p in listing.json:
        for field in ["key", "type", "unit", "default", "default_text", "range", "per_disk", "description"]:
            assert field in p, f"--list-params --json: {p['key']} has no {field}"
        if p["default"] is not None:
            explicit += ["--set", f"{p['key']}={p['default_text']}"]
    assert len(explicit) > 150, f"too few listed defaults: {len(explicit)}"
    r = fcal_sim(*explicit, "--check")
    assert r.code == 0, f"every listed default given with --set: exit {r.code}: {r.err}"
    configs = {}
    for form, given in (("given", explicit), ("defaulted", [])):
        r = fcal_sim(*given, "--set", "disk.count=2", "--set", "workload.measured_ios=20",
                     "--stats-json", tmp_path / f"{form}.json", "--quiet")
        assert r.code == 0, f"defaults {form}: exit {r.code}: {r.err}"
        configs[form] = json.loads((tmp_path / f"{form}.json").read_text())["config"]
    assert configs["given"] == configs["defaulted"], \
        "the listed defaults, given with --set, make another configuration than the defaults"


@pytest.mark.parametrize("other", [["--set", "disk.count=3"], ["--config", "c.json"], ["--stats-json", "s.json"],
                                   ["--trace", "t.trace"], ["--quiet"], ["--check"]], ids=lambda o: o[0])
@pytest.mark.parametrize("json_too", [[], ["--json"]], ids=["text", "json"])
def test_list_params_with_another_option_is_refused(fcal_sim, tmp_path, other, json_too):
    # --list-params runs nothing: the option would be ignored (a file named by it is neither read nor written).
    (tmp_path / "c.json").write_text('{"disk.count": 3}')
    other = [str(tmp_path / o) if o.endswith((".json", ".trace")) else o for o in other]
    r = fcal_sim("--list-params", *json_too, *other)
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, r.err
    assert r.err.startswith("fcal-sim: --list-params ") and f"{other[0]} given" in r.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.json"]


def test_default_run_prints_a_summary(fcal_sim):
    r = fcal_sim()
    assert r.code == 0 and not r.err, f"default run: exit {r.code}, stderr {r.err}"
    assert "IOPS" in r.out and "MB/s" in r.out, f"default run: the summary has no IOPS or MB/s: {r.out}"


def test_stats_json_on_stdout_is_complete_and_consistent(fcal_sim):
    r = fcal_sim(*SMALL, "--stats-json", "-")
    assert r.code == 0 and not r.err, f"--stats-json -: exit {r.code}, stderr {r.err}"
    assert r.json is not None, f"--stats-json -: stdout is not the JSON document alone: {r.out[:2000]}"
    assert isinstance(r.json.get("config"), dict) and r.json["config"], "--stats-json -: no config"
    res = r.results
    for k in ["iops", "mb_per_s", "mean_response_us", "p50_response_us", "p99_response_us", "max_response_us",
              "measured_ios", "measured_time_s", "sim_time_s", "wall_time_s", "disks", "ports",
              "command_wait_mean_us", "command_wait_p99_us", "issued_ios", "completed_ios", "outstanding_ios"]:
        assert k in res, f"results.{k} missing"
    assert isinstance(res["disks"], list) and len(res["disks"]) == 4, f"disks: {res['disks']}"
    assert all(isinstance(d, dict) and d for d in res["disks"]), "an empty disk entry"
    assert sum(d["ios"] for d in res["disks"]) == 200, "per-disk ios do not add up to measured_ios"
    assert isinstance(res["ports"], list) and len(res["ports"]) == 5, "ports: expected the controller + 4 disks"
    for p in res["ports"]:
        for k in ["arbitration_wait_mean_us", "arbitration_wait_max_us", "tenancy_share", "frames_sent"]:
            assert k in p, f"ports[].{k} missing"
        assert 0 <= p["tenancy_share"] <= 1, f"tenancy_share {p['tenancy_share']}"
    assert res["issued_ios"] == res["completed_ios"], f"issued {res['issued_ios']} != completed {res['completed_ios']}"
    assert res["outstanding_ios"] == 0, f"outstanding {res['outstanding_ios']}"
    assert res["measured_ios"] == 200, f"measured_ios {res['measured_ios']}"
    assert res["iops"] > 0 and res["mb_per_s"] > 0, "no throughput"
    assert res["p50_response_us"] <= res["p99_response_us"] <= res["max_response_us"], "percentiles out of order"
    assert res["measured_time_s"] > 0 and res["sim_time_s"] >= res["measured_time_s"], "window times"


def test_stats_json_to_a_file_keeps_the_summary(fcal_sim, tmp_path):
    r = fcal_sim(*SMALL, "--stats-json", tmp_path / "stats.json")
    assert r.code == 0, f"--stats-json FILE: exit {r.code}: {r.err}"
    assert "IOPS" in r.out, "--stats-json FILE: no summary on stdout"
    assert load_results(tmp_path / "stats.json")["results"]["measured_ios"] == 200, "--stats-json FILE: bad results"


def test_same_seed_same_results_other_seed_other_results(fcal_sim, tmp_path):
    runs = {}
    for name, seed in (("7a", 7), ("7b", 7), ("8", 8)):
        r = fcal_sim(*SMALL, "--set", "workload.read_fraction=0.5", "--quiet", "--set", f"workload.seed={seed}",
                     "--stats-json", tmp_path / f"{name}.json")
        assert r.code == 0, f"seed {seed} run {name}: exit {r.code}: {r.err}"
        runs[name] = load_results(tmp_path / f"{name}.json")
    a, b, c = runs["7a"], runs["7b"], runs["8"]
    assert a == b, "same seed, different results: " + str([k for k in a["results"] if a["results"][k] != b["results"].get(k)])
    assert a["results"] != c["results"], "seeds 7 and 8 gave identical results"
    assert a["config"]["workload"]["seed"] == 7 and c["config"]["workload"]["seed"] == 8, "seeds not echoed"


CONFIG_FORMS = {
    "nested": {"disk": {"count": 3, "access_ms": 1.5}, "workload": {"measured_ios": 100, "io_size": "8K", "seed": 5},
               "loop": {"speed": "4GFC", "length_m": 40}, "initiator": {"al_pa": "0x02"}},
    "dotted": {"disk.count": 3, "disk.access_ms": 1.5, "workload.measured_ios": 100, "workload.io_size": "8K",
               "workload.seed": 5, "loop.speed": "4GFC", "loop.length_m": 40, "initiator.al_pa": "0x02"},
    "mixed": {"disk": {"count": 3}, "disk.access_ms": 1.5, "workload": {"measured_ios": 100, "io_size": 8192},
              "workload.seed": 5, "loop.speed": "4GFC", "loop": {"length_m": 40}, "initiator.al_pa": 2},
}


def test_config_nested_dotted_and_mixed_and_set_overrides(fcal_sim, tmp_path):
    configs = {}
    for form, content in CONFIG_FORMS.items():
        (tmp_path / f"{form}.json").write_text(json.dumps(content))
        r = fcal_sim("--config", tmp_path / f"{form}.json", "--stats-json", tmp_path / f"{form}.out.json", "--quiet")
        assert r.code == 0, f"--config {form}: exit {r.code}: {r.err}"
        doc = json.loads((tmp_path / f"{form}.out.json").read_text())
        c = configs[form] = doc["config"]
        assert c["disk"]["count"] == 3 and c["disk"]["access_ms"] == 1.5, f"--config {form}: {c['disk']}"
        assert (c["workload"]["measured_ios"], c["workload"]["io_size"], c["workload"]["seed"]) == (100, 8192, 5), \
            f"--config {form}: {c['workload']}"
        # 40 m over 4 hops (3 disks + the controller): 10 m each.
        assert c["loop"]["speed"] == "4GFC" and c["loop"]["nodes"] == 4 and c["loop"]["hop_m"] == 10.0, \
            f"--config {form}: {c['loop']}"
        assert c["initiator"]["al_pa"].upper() == "0X02", f"--config {form}: {c['initiator']}"
        assert doc["results"]["measured_ios"] == 100 and len(doc["results"]["disks"]) == 3, \
            f"--config {form}: the run does not follow the file"
    assert configs["nested"] == configs["dotted"], "--config: nested and dotted forms give different configurations"
    r = fcal_sim("--config", tmp_path / "nested.json", "--set", "disk.count=2", "--set", "workload.io_size=4K",
                 "--stats-json", tmp_path / "override.json", "--quiet")
    assert r.code == 0, f"--config with --set: exit {r.code}: {r.err}"
    c = json.loads((tmp_path / "override.json").read_text())["config"]
    assert c["disk"]["count"] == 2 and c["workload"]["io_size"] == 4096, "--set does not override --config"
    assert c["disk"]["access_ms"] == 1.5 and c["loop"]["speed"] == "4GFC", "--set with --config: file values lost"
    assert c["loop"]["nodes"] == 3, "loop.nodes does not follow disk.count + 1"


BAD = [
    ("disk.cont", ["--set", "disk.cont=3"]),
    ("disk.count", ["--set", "disk.count=abc"]),
    ("disk.count", ["--set", "disk.count=0"]),
    ("workload.read_fraction", ["--set", "workload.read_fraction=1.5"]),
    ("workload.io_size", ["--set", "workload.io_size=0"]),
    ("initiator.al_pa", ["--set", "initiator.al_pa=0xF0"]),
    ("loop.nodes", ["--set", "disk.count=16", "--set", "loop.nodes=10"]),
    ("schedule", ["--set", "schedule=sometimes"]),
    ("cmdf.fifo", ["--set", "cmdf.fifo=sideways"]),
    ("--bogus", ["--bogus"]),
    # The RTL transmit queue's keys (issue 8).
    ("cmdf.impl", ["--set", "cmdf.impl=verilog"]),
    ("rtl.lockstep", ["--set", "rtl.lockstep=true"]),
    ("rtl.clock_mhz", ["--set", "cmdf.impl=rtl", "--set", "rtl.clock_mhz=0"]),
    ("rtl.clock_mhz", ["--set", "cmdf.impl=rtl", "--set", "rtl.clock_mhz=1e-12"]),
    ("rtl.clock_mhz", ["--set", "cmdf.impl=rtl", "--set", "rtl.clock_mhz=1e300"]),
    ("initiator.tx_fifo_frames", ["--set", "cmdf.impl=rtl", "--set", "initiator.tx_fifo_frames=32"]),
    ("initiator.cmd_fifo_frames", ["--set", "cmdf.impl=rtl", "--set", "initiator.cmd_fifo_frames=8"]),
    ("initiator.tx_fifo_frames", ["--set", "initiator.tx_fifo_frames=0"]),
]


@pytest.mark.parametrize("needle, args", BAD, ids=[" ".join(a) for _, a in BAD])
def test_bad_value_is_refused_naming_the_key(fcal_sim, needle, args):
    expect_refused(fcal_sim(*args), needle, "fcal-sim " + " ".join(args))


@pytest.mark.parametrize("content, needle", [
    ('{"disk": {"count": 3,}\n', "malformed.json"),
    ('{"disk": {"count": "3"}}\n', "disk.count"),
], ids=["malformed", "wrong type"])
def test_bad_config_file_is_refused_naming_it(fcal_sim, tmp_path, content, needle):
    (tmp_path / "malformed.json").write_text(content)
    expect_refused(fcal_sim("--config", tmp_path / "malformed.json"), needle)


def test_missing_config_file_is_refused_naming_it(fcal_sim, tmp_path):
    expect_refused(fcal_sim("--config", tmp_path / "missing.json"), str(tmp_path / "missing.json"))


TRACE_LINE = re.compile(r"^[0-9]+(\.[0-9]+)? [0-9A-Fa-f]{2} [A-Z_]+ [0-9]+ [^ ]+=>[^ ]+$")


def test_trace_and_vcd(fcal_sim, tmp_path):
    r = fcal_sim("--set", "disk.count=2", "--set", "workload.measured_ios=10", "--trace", tmp_path / "trace.txt",
                 "--vcd", tmp_path / "wave.vcd", "--quiet")
    assert r.code == 0 and not r.err, f"--trace/--vcd run: exit {r.code}, stderr {r.err}"
    lines = (tmp_path / "trace.txt").read_text().splitlines()
    assert lines, "--trace: no trace written"
    bad = [line for line in lines if not TRACE_LINE.match(line)]
    assert not bad, f"--trace: a line is not '<time> <AL_PA> <STATE> <count> <A>=><B>': {bad[0]}"
    assert any("=>OPN" in line for line in lines), "--trace: no OPN"
    assert any("=>SOF" in line for line in lines), "--trace: no SOF"
    vcd = (tmp_path / "wave.vcd").read_text()
    assert "$enddefinitions" in vcd, "--vcd: no $enddefinitions"
    assert "lpsm_state" in vcd, "--vcd: no lpsm_state signal"


STATES = "MONITORING|ARBITRATING|ARBITRATION_WON|OPEN|OPENED|XMITTED_CLOSE|RECEIVED_CLOSE|TRANSMITTED_CLOSE"


def test_time_limit_exits_1_with_every_ports_state(fcal_sim):
    r = fcal_sim("--set", "sim.time_limit_s=0.001")
    assert r.code == 1, f"a tiny sim.time_limit_s: exit {r.code}, expected 1"
    assert "sim.time_limit_s" in r.err, f"time limit: stderr does not say why: {r.err}"
    assert re.search(rf"controller .*({STATES})", r.err), f"time limit: no controller state in the diagnosis: {r.err}"
    disks = [line for line in r.err.splitlines() if re.search(r"disk[0-9]+ ", line)]
    assert len(disks) == 16, f"time limit: expected a state line for each of the 16 disks: {r.err}"


def test_rtl_counters_only_with_the_rtl(fcal_sim, tmp_path):
    r = fcal_sim(*RTL_SMALL, "--stats-json", tmp_path / "model.json", "--quiet")
    assert r.code == 0, f"model run: exit {r.code}: {r.err}"
    r = fcal_sim(*RTL_SMALL, "--set", "cmdf.impl=rtl", "--set", "rtl.lockstep=true",
                 "--stats-json", tmp_path / "rtl.json", "--quiet")
    assert r.code == 0, f"rtl lock-step run: exit {r.code}: {r.err}"
    m = load_results(tmp_path / "model.json")["results"]
    res = load_results(tmp_path / "rtl.json")["results"]
    assert "rtl" not in m, "the model's results carry an rtl block"
    c = res["rtl"]
    # One cycle per push and one per pop: every frame the controller sent went through the RTL twice.
    frames = res["ports"][0]["frames_sent"]
    assert c["cycles"] >= 2 * frames > 0, f"rtl.cycles {c['cycles']} for {frames} frames"
    assert c["decisions_compared"] > c["cycles"], f"lock step compared {c['decisions_compared']} decisions"
    assert res["issued_ios"] == res["completed_ios"] and res["outstanding_ios"] == 0, "the RTL run lost I/Os"


@pytest.mark.parametrize("impl, depth", [("model", 2), ("rtl", 64)])
def test_full_transmit_fifo_holds_frames_and_loses_nothing(fcal_sim, tmp_path, impl, depth):
    r = fcal_sim("--set", "disk.count=4", "--set", "workload.queue_depth=2", "--set", "workload.read_fraction=0",
                 "--set", "workload.measured_ios=100", "--set", f"initiator.tx_fifo_frames={depth}",
                 "--set", f"cmdf.impl={impl}", "--stats-json", tmp_path / "bp.json", "--quiet")
    assert r.code == 0, f"back-pressure run ({impl}): exit {r.code}: {r.err}"
    res = load_results(tmp_path / "bp.json")["results"]
    assert res["tx_frames_held"] > 0, f"{impl}: the HBA held no frames with a {depth}-frame FIFO"
    assert res["issued_ios"] == res["completed_ios"] > 0 and res["outstanding_ios"] == 0, f"{impl}: I/Os lost"


def test_vcd_with_the_rtl_writes_a_second_vcd_on_the_same_axis(fcal_sim, tmp_path):
    r = fcal_sim(*RTL_SMALL, "--set", "workload.measured_ios=10", "--set", "workload.warmup_ios=0",
                 "--set", "cmdf.impl=rtl", "--vcd", tmp_path / "wave.vcd", "--quiet")
    assert r.code == 0, f"--vcd run: exit {r.code}: {r.err}"
    rtl = tmp_path / "wave_rtl.vcd"
    assert rtl.exists() and rtl.stat().st_size, f"no {rtl} (files: {sorted(p.name for p in tmp_path.iterdir())})"
    text = rtl.read_text()
    for s in ["head_valid", "head_tag", "frame_count", "cmd_count", "preempt_req", "q_dest", "push", "pop", "clk"]:
        assert re.search(rf"\$var .* {s}(\s|\[)", text), f"RTL VCD: no signal {s}"
    for name in ("wave.vcd", "wave_rtl.vcd"):
        lines = (tmp_path / name).read_text().splitlines()
        timescale = lines.index(next(line for line in lines if line.startswith("$timescale")))
        assert re.search(r"1 *ps", " ".join(lines[timescale:timescale + 2])), f"{name}: not in ps"
        stamps = [int(line[1:]) for line in lines if line.startswith("#")]
        assert all(a < b for a, b in zip(stamps, stamps[1:])), f"{name}: time stamps not increasing"
        assert stamps and stamps[-1] > 0, f"{name}: no time after 0"
