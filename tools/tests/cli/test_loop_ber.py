"""loop.ber and loop.al_time_us (docs/faults.md, "Bit errors on the loop"): at loop.ber=0 (the default) a run gives
exactly the results of a run that does not name the keys, the two counters at 0; the config echo shows both;
out-of-range and malformed values are refused with exit code 2 naming the key."""
from __future__ import annotations

import pytest

from conftest import load_results, sets

COMMON = ["--set", "disk.count=2", "--set", "workload.measured_ios=40", "--quiet"]


def test_ber_zero_is_the_default_run(fcal_sim, tmp_path):
    assert fcal_sim(*COMMON, "--stats-json", tmp_path / "default.json").code == 0, "the default run failed"
    r = fcal_sim(*COMMON, "--set", "loop.ber=0", "--set", "loop.al_time_us=5", "--stats-json", tmp_path / "zero.json")
    assert r.code == 0, f"loop.ber=0: exit {r.code}: {r.err}"
    a, b = load_results(tmp_path / "default.json"), load_results(tmp_path / "zero.json")
    assert a["results"] == b["results"], "loop.ber=0 changed the results"
    for res in (a["results"], b["results"]):
        assert res["frames_discarded"] == 0 and res["code_violations"] == 0, "errors counted without bit errors"
    assert a["config"]["loop"]["ber"] == 0 and a["config"]["loop"]["al_time_us"] == 15000, \
        f"the defaults' echo (AL_TIME 15 ms): {a['config']['loop']}"
    assert b["config"]["loop"]["al_time_us"] == 5, f"loop.al_time_us not echoed: {b['config']['loop']}"


@pytest.mark.parametrize("args", [
    ["loop.ber=-1e-9"], ["loop.ber=2e-3"], ["loop.ber=1"], ["loop.ber=often"], ["loop.al_time_us=0"],
    ["loop.al_time_us=-5"], ["loop.al_time_us=soon"],
    # AL_TIME must exceed twice the round trip once bit errors are on (the default loop's is about 4 us).
    ["loop.ber=1e-9", "loop.al_time_us=1"]])
def test_bad_value_is_refused_naming_the_key(fcal_sim, args):
    r = fcal_sim(*sets(*args), "--quiet")
    key = args[-1].split("=")[0]
    assert r.code == 2, f"{' '.join(args)}: exit {r.code}, expected 2"
    assert key in r.err, f"{' '.join(args)}: the error does not name {key}: {r.err}"
