"""The options of issue 21 (disk.max_concurrent, initiator/target.sft_engine, driver.disk_outstanding) at their
defaults are the model without them: each given explicitly gives the same results, byte for byte but for the wall
time, as not given at all (docs/disk.md, "Concurrent commands"; docs/hba.md, "Single-frame transfers",
"Outstanding commands per disk"); each away from its default changes the run. Comparison with the program before
the options: tools/exactness.py."""
from __future__ import annotations

import pytest

from conftest import load_results, sets

# Deep queues, mixed traffic, TASK SET FULL (2 slots for 6 I/Os per disk): every path the options touch.
BASE = sets(*["disk.count=3", "workload.queue_depth=6", "disk.queue_slots=2", "workload.io_size=8K",
                    "workload.read_fraction=0.66", "workload.measured_ios=300"]) + ["--quiet"]
DEFAULTS = ["disk.max_concurrent=1", "initiator.sft_engine=dma", "target.sft_engine=dma", "driver.disk_outstanding=0"]


def run(fcal_sim, path, *assignments):
    r = fcal_sim(*BASE, *sets(*assignments), "--stats-json", path)
    assert r.code == 0, f"{' '.join(assignments) or 'the options unset'}: exit {r.code}: {r.err}"
    return load_results(path)


@pytest.fixture(scope="module")
def unset(fcal_sim, tmp_path_factory):
    """The results with none of the options given."""
    return run(fcal_sim, tmp_path_factory.mktemp("unset") / "unset.json")["results"]


def test_the_defaults_given_are_the_options_unset(fcal_sim, tmp_path, unset):
    given = run(fcal_sim, tmp_path / "set.json", *DEFAULTS)["results"]
    assert given == unset, "the options at their defaults change the results"


@pytest.mark.parametrize("option", ["disk.max_concurrent=2", "initiator.sft_engine=own", "target.sft_engine=own",
                                    "driver.disk_outstanding=1"])
def test_each_option_reaches_the_model(fcal_sim, tmp_path, unset, option):
    b = run(fcal_sim, tmp_path / "other.json", option)["results"]
    assert unset["mean_response_us"] != b["mean_response_us"], f"{option}: the results did not change"
    assert b["issued_ios"] == b["completed_ios"], f"{option}: I/Os not completed"
