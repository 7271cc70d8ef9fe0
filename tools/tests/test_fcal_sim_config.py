"""fcal-sim's configuration input: several --config files in order, a stats JSON as a configuration, byte sizes
with K/KiB/M/MiB/G/GiB, choices in any case, and the one-line refusals (docs/cli.md, "fcal-sim" and "Values").

Expectations are computed apart from the program: a merged configuration against the same keys given by --set,
a size against its power of 1024 written out, a choice against the table's own spelling."""
from __future__ import annotations

import json
from typing import Any

import pytest

SHORT = ["--set", "workload.measured_ios=20", "--set", "workload.warmup_ios=4"]


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"a": {"b": 1}, "c.d": 2} -> {"a.b": 1, "c.d": 2}."""
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat.update(flatten(value, prefix + key + "."))
        else:
            flat[prefix + key] = value
    return flat


def as_set_text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def without_cost(results: dict[str, Any]) -> dict[str, Any]:
    """Results less what describes how the run was computed (docs/cli.md, "fcal-sim")."""
    return {k: v for k, v in results.items() if k not in ("wall_time_s", "kernel")}


LAYERS = {
    "two files": ([{"disk": {"count": 6, "access_ms": 3}, "loop.speed": "1GFC", "workload": {"queue_depth": 2}},
                   {"disk.count": 4, "workload": {"io_size": "16KiB"}, "disk": {"2": {"access_ms": 7}}}], []),
    "three files, the last wins": ([{"workload.read_fraction": 0.2}, {"workload.read_fraction": 0.5},
                                    {"workload": {"read_fraction": 0.7}, "disk.count": 3}], []),
    "--set over the files": ([{"disk.count": 5, "loop.speed": "4GFC"}, {"workload.queue_depth": 3}],
                             ["disk.count=2", "workload.queue_depth=1"]),
    "ideal transport and an open workload": ([{"transport": "ideal", "workload.type": "open"},
                                              {"workload": {"rate_iops": 500}, "disk.count": 2}], []),
}


@pytest.mark.parametrize("files, sets", list(LAYERS.values()), ids=list(LAYERS))
def test_files_apply_in_order_then_the_sets(fcal_sim, tmp_path, files, sets):
    args = list(SHORT)
    merged: dict[str, Any] = {}
    for i, layer in enumerate(files):
        path = tmp_path / f"layer{i}.json"
        path.write_text(json.dumps(layer))
        args += ["--config", str(path)]
        merged.update(flatten(layer))
    for assignment in sets:
        key, value = assignment.split("=", 1)
        merged[key] = value
    layered = fcal_sim(*args, *[a for s in sets for a in ("--set", s)], "--stats-json", "-")
    assert layered.code == 0, layered.err
    # The same keys, each once, by --set.
    direct = fcal_sim(*SHORT, *[a for k, v in merged.items() for a in ("--set", f"{k}={as_set_text(v)}")],
                      "--stats-json", "-")
    assert direct.code == 0, direct.err
    assert layered.json["config"] == direct.json["config"]
    assert without_cost(layered.results) == without_cost(direct.results)


def test_a_key_twice_in_one_file_is_refused_but_two_files_may_give_it(fcal_sim, tmp_path):
    twice = tmp_path / "twice.json"
    twice.write_text('{"disk": {"count": 4}, "disk.count": 5}')
    r = fcal_sim("--config", str(twice))
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1 and "disk.count: given twice" in r.err
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text('{"disk": {"count": 4}}')
    b.write_text('{"disk.count": 5}')
    r = fcal_sim("--config", str(a), "--config", str(b), *SHORT, "--stats-json", "-")
    assert r.code == 0 and r.json["config"]["disk"]["count"] == 5


REPRODUCED = {
    "baseline, small": ["--set", "disk.count=4"],
    "zoned disks, raid5": ["--set", "disk.count=5", "--set", "disk.model=zoned", "--set", "volume.raid=raid5",
                           "--set", "workload.read_fraction=0.5", "--set", "workload.io_size=8KiB"],
    "ideal transport, open workload": ["--set", "transport=ideal", "--set", "workload.type=open",
                                       "--set", "workload.rate_iops=800", "--set", "disk.count=3"],
    "per-disk override, 4GFC": ["--set", "disk.count=3", "--set", "disk.1.access_ms=6", "--set", "loop.speed=4gfc"],
}


@pytest.mark.parametrize("args", list(REPRODUCED.values()), ids=list(REPRODUCED))
def test_a_stats_json_given_as_config_reproduces_the_run(fcal_sim, tmp_path, args):
    stats = tmp_path / "run.stats.json"
    first = fcal_sim(*SHORT, *args, "--quiet", "--stats-json", str(stats))
    assert first.code == 0, first.err
    again = fcal_sim("--config", str(stats), "--stats-json", "-")
    assert again.code == 0, again.err
    original = json.loads(stats.read_text())
    assert again.json["config"] == original["config"]
    # Byte-identical apart from wall_time_s and the kernel block: the documents dumped the same way.
    assert json.dumps(without_cost(again.results), sort_keys=True) == json.dumps(without_cost(original["results"]),
                                                                                  sort_keys=True)


def test_a_stats_json_layers_under_later_files_and_sets(fcal_sim, tmp_path):
    stats = tmp_path / "run.stats.json"
    assert fcal_sim(*SHORT, "--set", "disk.count=4", "--quiet", "--stats-json", str(stats)).code == 0
    r = fcal_sim("--config", str(stats), "--set", "workload.io_size=4K", "--stats-json", "-")
    assert r.code == 0 and r.json["config"]["workload"]["io_size"] == 4 * 1024
    assert r.json["config"]["disk"]["count"] == 4


KIB, MIB, GIB = 1024, 1024 ** 2, 1024 ** 3
SIZES = [("32768", 32768), ("32K", 32 * KIB), ("32k", 32 * KIB), ("32KiB", 32 * KIB), ("1M", MIB), ("1MiB", MIB),
         ("2m", 2 * MIB), ("1G", GIB), ("1GiB", GIB)]


@pytest.mark.parametrize("text, expected", SIZES)
def test_byte_sizes_are_powers_of_1024(fcal_sim, text, expected):
    # workload.span_bytes is a size no run here has to move (a 1 GiB I/O would take long).
    r = fcal_sim(*SHORT, "--set", "workload.io_size=4096", "--set", f"workload.span_bytes={text}", "--stats-json", "-")
    assert r.code == 0, r.err
    assert r.json["config"]["workload"]["span_bytes"] == expected


CHOICES = [("loop.speed", "4gfc", "4GFC"), ("loop.speed", "8Gfc", "8GFC"), ("volume.raid", "RAID5", "raid5"),
           ("transport", "Ideal", "ideal"), ("initiator.dma_policy", "ROUND_ROBIN", "round_robin"),
           ("schedule", "NORMAL", "normal")]


@pytest.mark.parametrize("key, given, canonical", CHOICES)
def test_choices_in_any_case_are_echoed_as_the_table_spells_them(fcal_sim, key, given, canonical):
    r = fcal_sim(*SHORT, "--set", f"{key}={given}", "--stats-json", "-")
    assert r.code == 0, r.err
    value: Any = r.json["config"]
    for part in key.split("."):
        value = value[part]
    assert value == canonical


REFUSED = [
    (["--set", "workload.io_size=32kb"], "workload.io_size", "did you mean 32KiB?"),
    (["--set", "workload.io_size=32KB"], "workload.io_size", "did you mean 32KiB?"),
    (["--set", "workload.io_size=4mib"], "workload.io_size", "did you mean 4MiB?"),
    (["--set", "workload.io_size=1.5K"], "workload.io_size", None),
    (["--set", "workload.io_size=32 K"], "workload.io_size", None),
    (["--set", "workload.io_size=2GiB"], "workload.io_size", None),  # out of range 1..1G
    (["--set", "loop.speed=3gfc"], "loop.speed", None),
    (["--set", "initiator.dma_policy=Round-Robin"], "initiator.dma_policy", "did you mean round_robin?"),
    (["--set", "volume.raid=raid6"], "volume.raid", None),
    (["--set", "loop.sped=4GFC"], "loop.sped", "did you mean loop.speed?"),
    (["--config", ""], "--config", None),
    (["--config", "/nonexistent/fcal.json"], "/nonexistent/fcal.json", None),
]


@pytest.mark.parametrize("args, named, hint", REFUSED, ids=[" ".join(a) for a, _, _ in REFUSED])
def test_refusals_are_one_line_naming_the_key(fcal_sim, args, named, hint):
    r = fcal_sim(*args)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and r.err.startswith("fcal-sim: ") and named in r.err
    if hint is None:
        assert "did you mean" not in r.err
    else:
        assert hint in r.err


def test_a_bad_second_file_is_named_and_nothing_runs(fcal_sim, tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text('{"disk.count": 3}')
    bad.write_text('{"workload": {"io_size": "8kB"}}')
    stats = tmp_path / "s.json"
    r = fcal_sim("--config", str(good), "--config", str(bad), "--stats-json", str(stats))
    assert r.code == 2 and r.err.count("\n") == 1
    assert str(bad) in r.err and "workload.io_size" in r.err and "did you mean 8KiB?" in r.err
    assert not stats.exists()


@pytest.mark.parametrize("after", [b'{"disk.count": 5}', b"\n", b""], ids=["a second object", "a newline", "nothing"])
def test_a_nul_byte_after_the_json_is_refused(fcal_sim, tmp_path, after):
    # JSON text holds no NUL byte; what follows one must not vanish unread (the parser stops at it).
    path = tmp_path / "nul.json"
    path.write_bytes(b'{"disk.count": 3}\0' + after)
    r = fcal_sim("--config", str(path), *SHORT, "--stats-json", str(tmp_path / "s.json"))
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, r.err
    assert r.err.startswith(f"fcal-sim: {path}: ") and "NUL byte" in r.err
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize("key, value", [("disk", {"count": 9}), ("loop.speed", "4GFC"), ("notes", "a rerun")])
def test_a_stats_json_with_a_member_it_never_has_is_refused(fcal_sim, tmp_path, key, value):
    # fcal-sim writes {"config": ..., "results": ...} and nothing else: a key beside them would not apply.
    stats = tmp_path / "run.stats.json"
    assert fcal_sim(*SHORT, "--quiet", "--stats-json", str(stats)).code == 0
    doc = json.loads(stats.read_text())
    assert sorted(doc) == ["config", "results"]
    doc[key] = value
    stats.write_text(json.dumps(doc))
    r = fcal_sim("--config", str(stats), "--stats-json", "-")
    assert r.code == 2 and r.out == "" and r.err.count("\n") == 1, r.err
    assert r.err.startswith(f"fcal-sim: {stats}: {key}: ")
