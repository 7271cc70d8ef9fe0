"""Per point: the mean and 95 % confidence half-width of every kept result over its seeds."""
from __future__ import annotations

import csv
import os
from typing import Any, Sequence

from . import stats
from .spec import Spec
from .store import Record, row_key

Row = dict[str, Any]


def summarise(spec: Spec, records: Sequence[Record]) -> list[Row]:
    """Rows in spec order: the point's columns, runs (ok), failed, and for each result its mean and
    `<result>_ci95` (half-width; empty with one seed). A run retried after failing counts once, as ok."""
    by_point: dict[Any, dict[int, Record]] = {}
    for r in records:
        point, seed = row_key(spec, r)
        runs = by_point.setdefault(point, {})
        if seed not in runs or runs[seed]["status"] != "ok":
            runs[seed] = r
    rows = []
    for p in spec.points():
        key = spec.point_key(p)
        runs = by_point.get(key, {})
        ok = [r for r in runs.values() if r["status"] == "ok"]
        row: Row = {k: p.get(k, "") for k in spec.columns}
        row["runs"] = len(ok)
        row["failed"] = len(runs) - len(ok)
        for name in spec.results:
            values: list[float] | None = []
            for r in ok:
                try:
                    values.append(float(r[name]))  # type: ignore[union-attr]
                except ValueError:
                    values = None
                    break
            if values is None:  # not a number: keep it when every seed agrees
                texts = {r[name] for r in ok}
                row[name], row[name + "_ci95"] = (texts.pop() if len(texts) == 1 else ""), ""
                continue
            mean, half = stats.mean_ci95(values)
            row[name] = "" if not values else f"{mean:.10g}"
            row[name + "_ci95"] = "" if half != half else f"{half:.6g}"  # nan: fewer than two seeds
        rows.append(row)
    return rows


def summary_columns(spec: Spec) -> list[str]:
    cols = list(spec.columns) + ["runs", "failed"]
    for name in spec.results:
        cols += [name, name + "_ci95"]
    return cols


def write(spec: Spec, rows: Sequence[Row], path: str) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=summary_columns(spec), lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("true" if v is True else "false" if v is False else v) for k, v in r.items()})
    os.replace(tmp, path)
    try:  # a bonus where pandas (and a Parquet engine) are installed
        import pandas
        pandas.read_csv(path).to_parquet(os.path.splitext(path)[0] + ".parquet")
    except Exception:
        pass
