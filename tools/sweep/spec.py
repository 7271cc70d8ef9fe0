"""A sweep specification: which fcal-sim parameters take which values, over which seeds, keeping which
results (docs/model.md, "Sweeps").

A spec is a TOML or JSON file:

    name = "example"
    fcal_sim = "build/bin/fcal-sim"     # optional; relative to the repository root
    seeds = 3                           # 1, 2, 3; or a list [1, 7, 9]; the key workload.seed
    results = ["iops", "mean_response_us"]   # names in the stats JSON's "results" (dotted paths allowed)
    labels = ["arm"]                    # columns recorded but not passed to fcal-sim
    [fixed]                             # --set for every point
    "workload.measured_ios" = 1000
    [grid]                              # every combination (cartesian product, in this order)
    "workload.io_size" = [4096, 65536]
    [[zip]]                             # one axis whose lists go together (equal lengths)
    arm = ["normal", "cmdf"]
    schedule = ["normal", "cmdf"]
    [[part]]                            # optional: sub-sweeps, each with its own fixed/grid/zip
    name = "sizes"                      # (combined with the top-level ones) and optionally seeds

Points are expanded in a fixed order (parts, then grid axes, then zip axes, last axis fastest), so two
runs of one spec always list the same points with the same ids.
"""
import itertools
import json
import os
import re

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


class SpecError(ValueError):
    pass


def load(path):
    """The spec at `path`; SpecError naming the file for anything wrong with it."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SpecError(f"{path}: {e.strerror}")
    kind = "JSON" if path.endswith(".json") else "TOML"
    if kind == "TOML" and tomllib is None:
        raise SpecError(f"{path}: TOML needs Python 3.11 (tomllib); use JSON")
    try:
        data = json.loads(raw) if kind == "JSON" else tomllib.loads(raw.decode())
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise SpecError(f"{path}: malformed {kind}: {e}")
    if not isinstance(data, dict):
        raise SpecError(f"{path}: expected a table of settings at the top level, got {type(data).__name__}")
    return Spec(data, path)


def value_text(v):
    """A value as fcal-sim's --set takes it and as the CSV records it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)  # shortest text that reads back as the same double
    return str(v)


def _fixed(table, where):
    fixed = table.get("fixed", {})
    if not isinstance(fixed, dict):
        raise SpecError(f"{where}: fixed must be a table of settings")
    return fixed


def _axes(table, where):
    grid = table.get("grid", {})
    if not isinstance(grid, dict):
        raise SpecError(f"{where}: grid must be a table of lists")
    axes = []
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


def _seeds(seeds, where):
    if isinstance(seeds, int) and not isinstance(seeds, bool):
        if seeds < 1:
            raise SpecError(f"{where}: seeds must be >= 1")
        seeds = list(range(1, seeds + 1))
    if not isinstance(seeds, list) or not seeds or not all(isinstance(s, int) and s >= 0 for s in seeds):
        raise SpecError(f"{where}: seeds must be a count or a list of non-negative integers")
    if len(set(seeds)) != len(seeds):
        raise SpecError(f"{where}: a seed is listed twice")
    return seeds


class Spec:
    def __init__(self, data, path=""):
        self.path = path
        self.name = data.get("name") or os.path.splitext(os.path.basename(path))[0]
        self.fcal_sim = data.get("fcal_sim")
        self.seeds = _seeds(data.get("seeds", 1), path)
        self.results = data.get("results", [])
        if not isinstance(self.results, list) or not all(isinstance(r, str) for r in self.results):
            raise SpecError(f"{path}: results must be a list of result names")
        if not self.results:
            raise SpecError(f"{path}: results must name at least one result to keep")
        labels = data.get("labels", [])
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise SpecError(f"{path}: labels must be a list of column names")
        self.labels = set(labels)
        self.timeout_s = data.get("timeout_s")
        self.description = data.get("description", "")
        self.plots = data.get("plot", [])
        self._points = self._expand(data)
        keys = []
        for p in self._points:
            for k in p:
                if k not in keys:
                    keys.append(k)
        self.columns = keys  # "part" first when there are parts, then parameters and labels in spec order

    def _expand(self, data):
        parts = data.get("part") or [{}]
        if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
            raise SpecError(f"{self.path}: part must be a list of tables ([[part]])")
        base_fixed = _fixed(data, self.path)
        base_axes = _axes(data, self.path)
        points = []
        self._seeds_of = []
        for i, part in enumerate(parts):
            where = f"{self.path}: part {part.get('name', i + 1)}"
            seeds = _seeds(part["seeds"], where) if "seeds" in part else self.seeds
            fixed = dict(base_fixed)
            fixed.update(_fixed(part, where))
            axes = base_axes + _axes(part, where)
            for combo in itertools.product(*axes) if axes else [()]:
                p = {}
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
        ids = [self.point_key(p) for p in points]
        if len(set(ids)) != len(ids):
            raise SpecError(f"{self.path}: two points have the same values (a repeated value in grid or zip?)")
        return points

    def points(self):
        return list(self._points)

    def point_key(self, point):
        """What identifies a point in a results file: its values as text, sorted by key."""
        return tuple(sorted((k, value_text(v)) for k, v in point.items()))

    def settings(self, point):
        """The --set pairs of a point (labels and the part name are not parameters)."""
        return [(k, value_text(v)) for k, v in point.items() if k != "part" and k not in self.labels]

    def runs(self):
        """Every (point index, seed) to run, in spec order."""
        return [(i, s) for i in range(len(self._points)) for s in self._seeds_of[i]]

    def unknown_keys(self, parameters):
        """The settings' keys that are not fcal-sim parameters, in spec order. `parameters`: fcal-sim's
        `--list-params --json` (each {"key", ..., "per_disk"}); disk.<i>.<name> overrides a per-disk key
        (whether disk i exists depends on the point's disk.count: fcal-sim checks that)."""
        keys = {p["key"] for p in parameters}
        per_disk = {p["key"][len("disk."):] for p in parameters if p.get("per_disk")}
        unknown = []
        for point in self._points:
            for k, _ in self.settings(point):
                m = re.fullmatch(r"disk\.(0|[1-9][0-9]{0,2})\.(\w+)", k)
                if k not in keys and not (m and m.group(2) in per_disk) and k not in unknown:
                    unknown.append(k)
        return unknown
