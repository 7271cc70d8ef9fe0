"""Curves with 95 % confidence bands from a sweep's summary.csv (python3-matplotlib).

One function draws every figure, from the command line (`sweep plot SUMMARY.csv --x ... --y ...`) or from a
spec's [[plot]] blocks (`sweep plot SPEC`, tools/sweep_thesis.py): axes labelled with their units (parameter
units from fcal-sim's table, result units from fcal_tools.units; sizes in KiB), a caption saying what the
bands are ("95 % CI over N seeds"), and a refusal to join several rows at one x into a curve (a zigzag
through, say, reads and writes), naming the columns that tell them apart.
"""
from __future__ import annotations

import csv
from typing import Any, Sequence

from ..units import Units
from .spec import Figure

Row = dict[str, str]
Curve = list[tuple[float, float, float]]  # (x, mean, ci95 half-width), sorted by x
SUMMARY_EXTRA = ("runs", "failed")


class PlotError(ValueError):
    pass


def read(path: str) -> list[Row]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def select(rows: Sequence[Row], where: dict[str, str]) -> list[Row]:
    return [r for r in rows if all(r.get(k) == v for k, v in where.items())]


def _point_columns(rows: Sequence[Row]) -> list[str]:
    """The columns of a summary that describe a point (not its results, CIs or counts)."""
    if not rows:
        return []
    cols = list(rows[0])
    results = {c[:-len("_ci95")] for c in cols if c.endswith("_ci95")}
    return [c for c in cols if c not in results and not c.endswith("_ci95") and c not in SUMMARY_EXTRA]


def curves(rows: Sequence[Row], x: str, y: str, by: Sequence[str] = (), units: Units | None = None,
           where: dict[str, str] | None = None) -> dict[str, Curve]:
    """{curve label: [(x, mean, ci95)]} sorted by x; rows without a number for x or y are left out. PlotError
    if a curve has several rows at one x, naming the columns in which they differ."""
    units = units or Units()
    out: dict[str, Curve] = {}
    source: dict[tuple[str, float], list[Row]] = {}
    for r in select(rows, where or {}):
        xv, yv = units.number(x, r.get(x)), units.number(y, r.get(y))
        if xv is None or yv is None:
            continue
        ci = units.number(y, r.get(y + "_ci95")) or 0.0
        label = ", ".join(f"{b.split('.')[-1]}={units.value_text(b, r.get(b, ''))}" for b in by) if by else y
        out.setdefault(label, []).append((xv, yv, ci))
        source.setdefault((label, xv), []).append(r)
    repeated = {k: v for k, v in source.items() if len(v) > 1}
    if repeated:
        (label, xv), group = next(iter(repeated.items()))
        differ = [c for c in _point_columns(group) if c not in (x, *by) and len({r.get(c) for r in group}) > 1]
        raise PlotError(f"{len(group)} rows at {x}={xv:g} in the curve {label!r}, which would be drawn as a zigzag; "
                        f"they differ in {', '.join(differ) or '(nothing: a repeated point)'}: add them to --by, "
                        "give one --panels, or keep one value with --where COL=VALUE")
    return {k: sorted(v) for k, v in out.items()}


def seeds_caption(rows: Sequence[Row]) -> str:
    """What the bands are: the 95 % CI of the mean over the seeds that ran (per point, `runs`)."""
    counts = sorted({int(r["runs"]) for r in rows if r.get("runs", "").isdigit() and int(r["runs"]) > 0})
    if not counts:
        return ""
    if counts == [1]:
        return "one seed per point: no confidence band"
    many = [c for c in counts if c > 1]
    seeds = f"{many[0]}" if len(many) == 1 else f"{many[0]}-{many[-1]}"
    return f"bands: 95 % CI of the mean over {seeds} seeds (Student t)" + \
        ("; points with one seed have none" if 1 in counts else "")


def _draw(ax: Any, data: dict[str, Curve], fig: Figure, units: Units) -> None:
    from matplotlib.ticker import FuncFormatter
    xs_all = [p[0] for pts in data.values() for p in pts]
    ys_all = [p[1] for pts in data.values() for p in pts]
    xaxis, yaxis = units.axis(fig.x, xs_all), units.axis(fig.y, ys_all)
    for label, pts in data.items():
        xs = [p[0] / xaxis.scale for p in pts]
        ys = [p[1] / yaxis.scale for p in pts]
        ax.plot(xs, ys, marker="o", label=label)
        ax.fill_between(xs, [(p[1] - p[2]) / yaxis.scale for p in pts], [(p[1] + p[2]) / yaxis.scale for p in pts],
                        alpha=0.25)
    if fig.logx:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    if fig.logy:
        ax.set_yscale("log")
    ax.set_xlabel(xaxis.label)
    ax.set_ylabel(yaxis.label)
    ax.grid(True, alpha=0.3)
    if data:
        ax.legend(fontsize=8)


def draw_figure(rows: Sequence[Row], fig: Figure, out: str, units: Units | None = None, dpi: int = 80) -> None:
    """Draws `fig` from summary rows into the PNG `out`; PlotError if nothing or something meaningless would
    be drawn."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    units = units or Units()
    rows = select(rows, fig.where)
    panels: list[str] = []
    for r in rows:
        v = r.get(fig.panels, "") if fig.panels else ""
        if v not in panels:
            panels.append(v)
    name = fig.title or fig.y
    data = [curves([r for r in rows if not fig.panels or r.get(fig.panels) == v], fig.x, fig.y, fig.by, units)
            for v in panels]
    if not any(data):
        where = f" where {', '.join(f'{k}={v}' for k, v in fig.where.items())}" if fig.where else ""
        raise PlotError(f"{name}: no rows with numbers in {fig.x} and {fig.y}{where}")
    cols = min(len(panels), 3)
    lines = (len(panels) + cols - 1) // cols
    figure, axes = plt.subplots(lines, cols, figsize=(5.2 * cols, 3.8 * lines + 0.5), squeeze=False)
    for n, (v, d) in enumerate(zip(panels, data)):
        ax = axes[n // cols][n % cols]
        _draw(ax, d, fig, units)
        if fig.panels:
            ax.set_title(f"{fig.panels} = {units.value_text(fig.panels, v)}", fontsize=9)
    for n in range(len(panels), lines * cols):
        axes[n // cols][n % cols].set_visible(False)
    if fig.title:
        figure.suptitle(fig.title)
    caption = seeds_caption(rows)
    if caption:
        figure.text(0.5, 0.01, caption, ha="center", va="bottom", fontsize=8)
    figure.tight_layout(rect=(0, 0.04 if caption else 0, 1, 1))
    figure.savefig(out, dpi=dpi)
    plt.close(figure)
