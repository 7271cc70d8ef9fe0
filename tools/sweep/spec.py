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

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None


class SpecError(ValueError):
    pass


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    if path.endswith(".json"):
        data = json.loads(raw)
    else:
        if tomllib is None:
            raise SpecError(f"{path}: TOML needs Python 3.11 (tomllib); use JSON")
        data = tomllib.loads(raw.decode())
    return Spec(data, path)


def value_text(v):
    """A value as fcal-sim's --set takes it and as the CSV records it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)  # shortest text that reads back as the same double
    return str(v)


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
        self.results = list(data.get("results", []))
        if not self.results:
            raise SpecError(f"{path}: results must name at least one result to keep")
        self.labels = set(data.get("labels", []))
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
        base_fixed = data.get("fixed", {})
        base_axes = _axes(data, self.path)
        points = []
        self._seeds_of = []
        for i, part in enumerate(parts):
            where = f"{self.path}: part {part.get('name', i + 1)}"
            seeds = _seeds(part["seeds"], where) if "seeds" in part else self.seeds
            fixed = dict(base_fixed)
            fixed.update(part.get("fixed", {}))
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
