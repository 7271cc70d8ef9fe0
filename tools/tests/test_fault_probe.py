"""tools/fault_probe.py (fcal_tools.fault_probe): the runs it draws are the same for the same seed and only ever
schedule what a disk's state allows; a probe of 200 runs of random fault events close together ends without an
internal error or a hung run, and with the same results traced and untraced (docs/faults.md, "Known problems":
the build before this tool ended 3 of the first 100 runs of seed 1 on an internal error; runs that leave an
initialization incomplete are still open there, and only listed)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import tool
from fcal_tools.fault_probe import settings


def events(sets: list[str]) -> list[tuple[float, str, int | None]]:
    """(time, kind, disk or None) of a run's events, in the order of their keys."""
    values = dict(s.split("=", 1) for s in sets)
    n = 0
    out = []
    while f"event.{n}.kind" in values:
        disk = values.get(f"event.{n}.disk")
        out.append((float(values[f"event.{n}.at_ms"]), values[f"event.{n}.kind"], int(disk) if disk else None))
        n += 1
    return out


def test_the_same_seed_gives_the_same_runs_and_every_event_is_one_the_disk_can_take() -> None:
    assert [settings(r, 1) for r in range(50)] == [settings(r, 1) for r in range(50)]
    assert settings(0, 1) != settings(0, 2)
    kinds = set()
    for run in range(300):
        sets = settings(run, 1)
        disks = int(dict(s.split("=", 1) for s in sets)["disk.count"])
        state = ["in"] * disks
        evs = events(sets)
        assert 1 <= len(evs) <= 6
        assert [t for t, _, _ in evs] == sorted(t for t, _, _ in evs)
        assert evs[-1][0] - evs[0][0] <= 0.05 + 1e-9  # within 50 us
        for _, kind, disk in evs:
            kinds.add(kind)
            if disk is None:
                assert kind == "lip"  # from the controller
                continue
            allowed = {"in": {"lip", "remove", "bypass"}, "removed": set(), "bypassed": {"enable"}}[state[disk]]
            assert kind in allowed, (run, evs)
            state[disk] = {"remove": "removed", "bypass": "bypassed"}.get(kind, "in")
    assert kinds == {"lip", "remove", "bypass", "enable"}


def test_a_probe_ends_without_internal_errors_and_the_same_traced(tmp_path: Path, fcal_sim_path: str) -> None:
    out = tmp_path / "rows.json"
    p = tool("tools/fault_probe.py", "--runs", "200", "--seed", "1", "--traced", "--fcal-sim", fcal_sim_path,
             "--json", str(out), timeout=600)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    counts = {m[1]: int(m[2]) for m in re.finditer(r"^\| ([a-zA-Z_ ]+) \| (\d+) \|$", p.stdout, re.M)}
    assert sum(counts.values()) == 200
    assert counts["internal error"] == counts["hung"] == 0
    assert counts["completed"] > 100  # most runs end normally, and are compared traced and untraced
    assert "traced and untraced: 0 of" in p.stdout
    rows = json.loads(out.read_text())
    assert [r["run"] for r in rows] == list(range(200))
    assert all(r["traced_differs"] == [] for r in rows if "traced_differs" in r)


def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path) -> None:
    p = tool("tools/fault_probe.py", "--runs", "0")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "--runs" in p.stderr
    p = tool("tools/fault_probe.py", "--runs", "3", "--fcal-sim", str(tmp_path / "none"))
    assert p.returncode == 2 and "is not an executable" in p.stderr
