"""A sweep specification: which fcal-sim parameters take which values, over which seeds, keeping which
results (docs/model.md, "Sweeps").

A spec is a TOML or JSON file:

    name = "example"
    fcal_sim = "build/bin/fcal-sim"     # optional; relative to the repository root
    base = "../configs/raid5.json"      # optional: an fcal-sim --config for every run (relative to the spec)
    seeds = 3                           # 1, 2, 3; or a list [1, 7, 9]; the key workload.seed
    results = ["iops", "disks.0.utilisation"]  # paths in the stats JSON's "results" (list items by index)
    labels = ["arm"]                    # columns recorded but not passed to fcal-sim
    [fixed]                             # --set for every point
    "workload.measured_ios" = 1000
    [grid]                              # every combination (cartesian product, in this order)
    "workload.io_size" = [4096, 65536]
    [[zip]]                             # one axis whose lists go together (equal lengths)
    arm = ["normal", "cmdf"]
    schedule = ["normal", "cmdf"]
    [[part]]                            # optional: sub-sweeps, each with its own fixed/grid/zip
    name = "sizes"                      # (combined with the top-level ones), optionally seeds and base
    [[plot]]                            # figures `sweep plot SPEC` draws from the summary
    x = "workload.io_size"
    y = "iops"
    by = ["arm"]                        # one curve per value; also panels = COL, where = {COL = VALUE},
                                        # part = NAME, logx, logy, title

Points are expanded in a fixed order (parts, then grid axes, then zip axes, last axis fastest), so two
runs of one spec always list the same points with the same ids. Everything that can be checked without
fcal-sim is checked here, naming the file; what needs fcal-sim (keys, result names, the base config) is
checked by fcal_tools.sweep.check before the first run.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..sim import ROOT

Value = Any  # a TOML/JSON scalar: str, int, float or bool
Point = dict[str, Value]

TOP_KEYS = {"name", "description", "fcal_sim", "base", "seeds", "results", "labels", "timeout_s", "fixed",
            "grid", "zip", "part", "plot"}
PART_KEYS = {"name", "seeds", "base", "fixed", "grid", "zip"}
PLOT_KEYS = {"x", "y", "by", "where", "panels", "part", "logx", "logy", "title"}
RESERVED = {"seed", "status", "exit_code", "stderr_tail", "build", "runs", "failed"}  # runs.csv's and summary.csv's
RESULT_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.([A-Za-z_][A-Za-z0-9_]*|0|[1-9][0-9]*))*")


class SpecError(ValueError):
    pass


def load(path: str) -> Spec:
    """The spec at `path`; SpecError naming the file for anything wrong with it."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SpecError(f"{path}: {e.strerror}")
    kind = "JSON" if path.endswith(".json") else "TOML"
    try:
        data = json.loads(raw) if kind == "JSON" else tomllib.loads(raw.decode())
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise SpecError(f"{path}: malformed {kind}: {e}")
    if not isinstance(data, dict):
        raise SpecError(f"{path}: expected a table of settings at the top level, got {type(data).__name__}")
    return Spec(data, path)


def value_text(v: Value) -> str:
    """A value as fcal-sim's --set takes it and as the CSV records it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)  # shortest text that reads back as the same double
    return str(v)


def _unknown(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = [k for k in table if k not in allowed]
    if extra:
        raise SpecError(f"{where}: unknown {'entry' if len(extra) == 1 else 'entries'} {', '.join(map(repr, extra))} "
                        f"(expected some of {', '.join(sorted(allowed))})")


def _fixed(table: Mapping[str, Any], where: str) -> dict[str, Value]:
    fixed = table.get("fixed", {})
    if not isinstance(fixed, dict):
        raise SpecError(f"{where}: fixed must be a table of settings")
    return fixed


Axis = list[tuple[tuple[str, Value], ...]]  # the values of one axis: each a group of (key, value) set together


def _axes(table: Mapping[str, Any], where: str) -> list[Axis]:
    grid = table.get("grid", {})
    if not isinstance(grid, dict):
        raise SpecError(f"{where}: grid must be a table of lists")
    axes: list[Axis] = []
    for k, vals in grid.items():
        if not isinstance(vals, list) or not vals:
            raise SpecError(f"{where}: grid.{k} must be a non-empty list")
        axes.append([((k, v),) for v in vals])
    zips = table.get("zip", [])
    if isinstance(zips, dict):
        zips = [zips]
    if not isinstance(zips, list) or not all(isinstance(z, dict) for z in zips):
        raise SpecError(f"{where}: zip must be a table of lists, or a list of them ([[zip]])")
    for i, z in enumerate(zips):
        lengths = {k: len(v) if isinstance(v, list) else -1 for k, v in z.items()}
        if not lengths or len(set(lengths.values())) != 1 or -1 in lengths.values() or 0 in lengths.values():
            raise SpecError(f"{where}: zip #{i + 1} needs non-empty lists of one length, got {lengths}")
        n = next(iter(lengths.values()))
        axes.append([tuple((k, z[k][j]) for k in z) for j in range(n)])
    return axes


def _seeds(seeds: Any, where: str) -> list[int]:
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        if seeds < 1:
            raise SpecError(f"{where}: seeds must be >= 1")
        seeds = list(range(1, seeds + 1))
    if not isinstance(seeds, list) or not seeds or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                                           for s in seeds):
        raise SpecError(f"{where}: seeds must be a count or a list of non-negative integers")
    if len(set(seeds)) != len(seeds):
        raise SpecError(f"{where}: a seed is listed twice")
    return seeds


def _base(table: Mapping[str, Any], spec_dir: str, where: str) -> str | None:
    base = table.get("base")
    if base is None:
        return None
    if not isinstance(base, str) or not base:
        raise SpecError(f"{where}: base must be the path of an fcal-sim configuration (JSON)")
    path = os.path.normpath(os.path.join(spec_dir, base))
    if not os.path.isfile(path):
        raise SpecError(f"{where}: base {base!r}: no such file ({path})")
    return path


@dataclass
class Figure:
    """One figure: curves of y over x, one per value of the `by` columns, optionally one panel per value of
    `panels`, on the summary rows that match `where`."""
    x: str
    y: str
    by: list[str] = field(default_factory=list)
    where: dict[str, str] = field(default_factory=dict)
    panels: str | None = None
    logx: bool = False
    logy: bool = False
    title: str = ""

    @staticmethod
    def from_table(table: Mapping[str, Any], where: str) -> Figure:
        """A [[plot]] table (`part = NAME` is short for where.part)."""
        _unknown(table, PLOT_KEYS, where)
        for k in ("x", "y"):
            if not isinstance(table.get(k), str) or not table.get(k):
                raise SpecError(f"{where}: {k} must name a column")
        by = table.get("by", [])
        by = [by] if isinstance(by, str) else by
        if not isinstance(by, list) or not all(isinstance(b, str) for b in by):
            raise SpecError(f"{where}: by must be a column or a list of columns")
        cond = table.get("where", {})
        if not isinstance(cond, dict):
            raise SpecError(f"{where}: where must be a table of column = value")
        cond = {k: value_text(v) for k, v in cond.items()}
        if "part" in table:
            cond["part"] = value_text(table["part"])
        panels = table.get("panels")
        if panels is not None and not isinstance(panels, str):
            raise SpecError(f"{where}: panels must name a column")
        for k in ("logx", "logy"):
            if not isinstance(table.get(k, False), bool):
                raise SpecError(f"{where}: {k} must be true or false")
        return Figure(x=table["x"], y=table["y"], by=by, where=cond, panels=panels, logx=table.get("logx", False),
                      logy=table.get("logy", False), title=str(table.get("title", "")))

    def columns(self) -> list[str]:
        return [self.x, self.y] + self.by + list(self.where) + ([self.panels] if self.panels else [])


class Spec:
    def __init__(self, data: Mapping[str, Any], path: str = ""):
        self.path = path
        spec_dir = os.path.dirname(os.path.abspath(path)) if path else os.getcwd()
        _unknown(data, TOP_KEYS, path)
        self.name: str = data.get("name") or os.path.splitext(os.path.basename(path))[0]
        self.fcal_sim: str | None = data.get("fcal_sim")
        self.base = _base(data, spec_dir, path)
        self.seeds = _seeds(data.get("seeds", 1), path)
        self.results: list[str] = data.get("results", [])
        if not isinstance(self.results, list) or not all(isinstance(r, str) for r in self.results):
            raise SpecError(f"{path}: results must be a list of result names")
        if not self.results:
            raise SpecError(f"{path}: results must name at least one result to keep")
        bad = [r for r in self.results if not RESULT_PATH.fullmatch(r)]
        if bad:
            raise SpecError(f"{path}: results: {bad[0]!r} is not a result path (names and list indices joined by "
                            "dots, e.g. disks.3.utilisation)")
        if len(set(self.results)) != len(self.results):
            raise SpecError(f"{path}: results: a result is named twice")
        labels = data.get("labels", [])
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise SpecError(f"{path}: labels must be a list of column names")
        self.labels = set(labels)
        self.timeout_s: float | None = data.get("timeout_s")
        self.description: str = data.get("description", "")
        self._bases: list[str | None] = []
        self._seeds_of: list[list[int]] = []
        self._points = self._expand(data, spec_dir)
        keys: list[str] = []
        for p in self._points:
            for k in p:
                if k not in keys:
                    keys.append(k)
        self.columns = keys  # "part" first when there are parts, then parameters and labels in spec order
        clash = [c for c in keys + self.results if c in RESERVED]
        if clash:
            raise SpecError(f"{path}: {clash[0]!r} names a column the sweep writes itself ({', '.join(sorted(RESERVED))})")
        plots = data.get("plot", [])
        if not isinstance(plots, list) or not all(isinstance(p, dict) for p in plots):
            raise SpecError(f"{path}: plot must be a list of tables ([[plot]])")
        self.figures = [Figure.from_table(p, f"{path}: plot {i + 1}") for i, p in enumerate(plots)]
        for i, fig in enumerate(self.figures):
            self.check_figure(fig, f"{path}: plot {i + 1}")

    def _expand(self, data: Mapping[str, Any], spec_dir: str) -> list[Point]:
        parts = data.get("part") or [{}]
        if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
            raise SpecError(f"{self.path}: part must be a list of tables ([[part]])")
        base_fixed = _fixed(data, self.path)
        base_axes = _axes(data, self.path)
        points = []
        for i, part in enumerate(parts):
            where = f"{self.path}: part {part.get('name', i + 1)}"
            _unknown(part, PART_KEYS, where)
            seeds = _seeds(part["seeds"], where) if "seeds" in part else self.seeds
            base = _base(part, spec_dir, where) if "base" in part else self.base
            fixed = dict(base_fixed)
            fixed.update(_fixed(part, where))
            axes = base_axes + _axes(part, where)
            for combo in itertools.product(*axes) if axes else [()]:
                p: Point = {}
                if "name" in part:
                    p["part"] = part["name"]
                for group in combo:
                    for k, v in group:
                        p[k] = v
                for k, v in fixed.items():
                    p.setdefault(k, v)
                if "workload.seed" in p:
                    raise SpecError(f"{where}: workload.seed is set by seeds, not by fixed/grid/zip")
                points.append(p)
                self._seeds_of.append(seeds)
                self._bases.append(base)
        ids = [self.point_key(p) for p in points]
        if len(set(ids)) != len(ids):
            raise SpecError(f"{self.path}: two points have the same values (a repeated value in grid or zip?)")
        return points

    def check_figure(self, fig: Figure, where: str) -> None:
        """SpecError unless the figure names this spec's columns (x, by, panels, where) and results (y)."""
        known = set(self.columns) | set(self.results)
        for col in fig.columns():
            if col not in known:
                raise SpecError(f"{where}: {col!r} is neither a column nor a result of this spec "
                                f"(columns: {', '.join(self.columns)}; results: {', '.join(self.results)})")
        if fig.y not in self.results:
            raise SpecError(f"{where}: y must be one of the results ({', '.join(self.results)}), not {fig.y!r}")

    def points(self) -> list[Point]:
        return list(self._points)

    def point_key(self, point: Mapping[str, Value]) -> tuple[tuple[str, str], ...]:
        """What identifies a point in a results file: its values as text, sorted by key."""
        return tuple(sorted((k, value_text(v)) for k, v in point.items()))

    def settings(self, point: Mapping[str, Value]) -> list[tuple[str, str]]:
        """The --set pairs of a point (labels and the part name are not parameters)."""
        return [(k, value_text(v)) for k, v in point.items() if k != "part" and k not in self.labels]

    def base_of(self, index: int) -> str | None:
        """The --config of point `index` (absolute), if its part or the spec names one."""
        return self._bases[index]

    def bases(self) -> list[str]:
        return sorted({b for b in self._bases if b})

    def runs(self) -> list[tuple[int, int]]:
        """Every (point index, seed) to run, in spec order."""
        return [(i, s) for i in range(len(self._points)) for s in self._seeds_of[i]]

    def first_points(self) -> list[list[int]]:
        """The point indices of each part, in order (the dry runs try the first few of each)."""
        parts: dict[Value, list[int]] = {}
        for i, p in enumerate(self._points):
            parts.setdefault(p.get("part"), []).append(i)
        return list(parts.values())

    def unknown_keys(self, parameters: Sequence[Any]) -> list[str]:
        """The settings' keys that are not fcal-sim parameters, in spec order. `parameters`: fcal-sim's table
        (fcal_tools.sim.Param, or the dicts of `--list-params --json`); disk.<i>.<name> overrides a per-disk
        key (whether disk i exists depends on the point's disk.count: fcal-sim checks that)."""
        table = [(p["key"], p.get("per_disk")) if isinstance(p, dict) else (p.key, p.per_disk) for p in parameters]
        keys = {k for k, _ in table}
        per_disk = {k[len("disk."):] for k, d in table if d}
        unknown: list[str] = []
        for point in self._points:
            for k, _ in self.settings(point):
                m = re.fullmatch(r"disk\.(0|[1-9][0-9]{0,2})\.(\w+)", k)
                if k not in keys and not (m and m.group(2) in per_disk) and k not in unknown:
                    unknown.append(k)
        return unknown


def repo_path(path: str) -> str:
    """A path from a spec or an option, relative to the repository root unless absolute."""
    return path if os.path.isabs(path) else os.path.join(ROOT, path)
