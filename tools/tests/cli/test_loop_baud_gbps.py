"""loop.baud_gbps overrides the line rate of loop.speed (docs/phy.md): a 2GFC loop at 1.0625 Gbaud gives exactly
the results of a 1GFC loop (the same word time everywhere) and different ones from 2GFC's; the config echo shows
the baud in use (the speed's standard one when the key is not set); bad values exit 2 naming the key."""
from __future__ import annotations

import pytest

from conftest import load_results, sets

COMMON = ["--set", "disk.count=2", "--set", "workload.measured_ios=40", "--set", "workload.io_size=256K", "--quiet"]


def test_the_override_is_the_line_rate(fcal_sim, tmp_path):
    docs = {}
    for name, assignments in (("g1", ["loop.speed=1GFC"]), ("o", ["loop.speed=2GFC", "loop.baud_gbps=1.0625"]),
                       ("g2", ["loop.speed=2GFC"])):
        r = fcal_sim(*COMMON, *sets(*assignments), "--stats-json", tmp_path / f"{name}.json")
        assert r.code == 0, f"{' '.join(assignments)}: exit {r.code}: {r.err}"
        docs[name] = load_results(tmp_path / f"{name}.json")
    g1, o, g2 = docs["g1"], docs["o"], docs["g2"]
    assert g1["results"] == o["results"], "2GFC at 1.0625 Gbaud differs from 1GFC"
    # The standard's rates: 1GFC 1.0625 Gbaud, 2GFC twice that.
    assert o["config"]["loop"]["baud_gbps"] == 1.0625, f"the override's echo: {o['config']['loop']}"
    assert g2["config"]["loop"]["baud_gbps"] == 2.125, f"2GFC's echo: {g2['config']['loop']}"
    assert g1["config"]["loop"]["baud_gbps"] == 1.0625, f"1GFC's echo: {g1['config']['loop']}"
    assert g2["results"] != o["results"], "the override changed nothing"


@pytest.mark.parametrize("bad", ["0", "0.05", "101", "fast"])
def test_bad_baud_is_refused(fcal_sim, bad):
    r = fcal_sim("--set", f"loop.baud_gbps={bad}", "--quiet")
    assert r.code == 2 and "loop.baud_gbps" in r.err, f"loop.baud_gbps={bad}: exit {r.code}: {r.err}"
