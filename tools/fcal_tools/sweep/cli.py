"""Command line: run | summary | plot | points.

  python3 tools/sweep run SPEC [--out DIR] [--jobs N | --scheduler tcp://HOST:PORT] [--fcal-sim PATH]
                              [--fresh] [--retry-failed] [--limit N] [--allow-mixed-builds] [--no-check]
  python3 tools/sweep summary SPEC [--out DIR]
  python3 tools/sweep plot SUMMARY.csv --x COL --y COL [--by COL]... [--panels COL] [--where COL=VALUE]...
                           [--logx] [--logy] [--title T] [--out PNG]
  python3 tools/sweep plot SPEC [--results DIR | --summary CSV] [--out FOLDER]   # the spec's [[plot]] figures
  python3 tools/sweep points SPEC

`run` checks the spec against fcal-sim (keys, base config, result names: fcal_tools.sweep.check), appends
one row per finished run to DIR/runs.csv (default out/sweeps/<spec name>/) with the build of fcal-sim that
made it, skips the runs already there (resume; rows of another build are refused without
--allow-mixed-builds), and writes DIR/summary.csv (mean and 95 % CI per point). See
fcal_tools.sweep.session for the exit codes and docs/model.md, "Sweeps", for the details.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys

from ..cli import UsageError, guard, require
from ..sim import DEFAULT_FCAL_SIM, ROOT, SimError, list_params
from ..units import Units
from . import plot, session, spec as spec_mod, store, summary
from .spec import Figure, Spec


def out_dir(out: str | None, spec: Spec) -> str:
    return out or os.path.join(ROOT, "out", "sweeps", spec.name)


def fcal_sim_path(option: str | None, spec: Spec | None = None) -> str:
    """--fcal-sim as given (relative to the working folder), else the spec's (relative to the repository),
    else build/bin/fcal-sim."""
    if option:
        return os.path.abspath(option)
    if spec is not None and spec.fcal_sim:
        return os.path.abspath(spec_mod.repo_path(spec.fcal_sim))
    return DEFAULT_FCAL_SIM


def resume_command(args: argparse.Namespace) -> str:
    cmd = ["python3", "tools/sweep", "run", args.spec]
    for opt in ("out", "fcal_sim", "scheduler", "jobs"):
        if getattr(args, opt):
            cmd += [f"--{opt.replace('_', '-')}", str(getattr(args, opt))]
    return " ".join(shlex.quote(c) for c in cmd)


def cmd_run(args: argparse.Namespace) -> int:
    spec = spec_mod.load(args.spec)
    opts = session.Options(jobs=args.jobs, scheduler=args.scheduler, fresh=args.fresh, retry_failed=args.retry_failed,
                           limit=args.limit, allow_mixed_builds=args.allow_mixed_builds, check=not args.no_check,
                           resume=resume_command(args))
    return session.run_sweep(spec, out_dir(args.out, spec), fcal_sim_path(args.fcal_sim, spec), opts)


def cmd_summary(args: argparse.Namespace) -> int:
    spec = spec_mod.load(args.spec)
    out = out_dir(args.out, spec)
    results = store.ResultsFile(os.path.join(out, "runs.csv"), spec)
    summary.write(spec, summary.summarise(spec, results.records), os.path.join(out, "summary.csv"))
    print(os.path.join(out, "summary.csv"))
    return 0


def cmd_points(args: argparse.Namespace) -> int:
    spec = spec_mod.load(args.spec)
    for p in spec.points():
        print(" ".join(f"{k}={spec_mod.value_text(v)}" for k, v in p.items()))
    print(f"{len(spec.points())} points, {len(spec.runs())} runs", file=sys.stderr)
    return 0


def units_of(fcal_sim: str) -> Units:
    """The parameters' units from fcal-sim's table; without fcal-sim, axes show only the results' units."""
    try:
        return Units(list_params(fcal_sim))
    except SimError as e:
        print(f"sweep plot: warning: parameters without units ({e})", file=sys.stderr)
        return Units()


def is_spec(path: str) -> bool:
    return path.endswith((".toml", ".json"))


def cmd_plot(args: argparse.Namespace) -> int:
    require("sweep plot", "matplotlib", "drawing")
    if is_spec(args.source):
        return plot_spec(args)
    if not (args.x and args.y):
        raise UsageError("sweep plot: a summary needs --x and --y (or give a spec to draw its [[plot]] figures)")
    where = {}
    for w in args.where:
        k, eq, v = w.partition("=")
        if not eq or not k:
            raise UsageError(f"sweep plot: --where {w!r}: expected COL=VALUE")
        where[k] = v
    fig = Figure(x=args.x, y=args.y, by=args.by, where=where, panels=args.panels, logx=args.logx, logy=args.logy,
                 title=args.title or "")
    out = args.out or "sweep.png"
    plot.draw_figure(plot.read(args.source), fig, out, units_of(fcal_sim_path(args.fcal_sim)), dpi=90)
    print(out)
    return 0


def plot_spec(args: argparse.Namespace) -> int:
    spec = spec_mod.load(args.source)
    if not spec.figures:
        raise UsageError(f"sweep plot: {args.source} has no [[plot]] blocks; give a summary.csv with --x and --y")
    if args.x or args.y or args.by or args.where or args.panels:
        raise UsageError("sweep plot: --x/--y/--by/--where/--panels are for a summary.csv; a spec draws its own [[plot]]s")
    results = out_dir(args.results, spec)
    source = args.summary or os.path.join(results, "summary.csv")
    if not os.path.exists(source):
        raise UsageError(f"sweep plot: no {source} (run the sweep first, or give --results DIR or --summary CSV)")
    folder = args.out or results
    os.makedirs(folder, exist_ok=True)
    rows = plot.read(source)
    units = units_of(fcal_sim_path(args.fcal_sim, spec))
    for i, fig in enumerate(spec.figures):
        out = os.path.join(folder, f"{spec.name}_{i + 1}.png")
        plot.draw_figure(rows, fig, out, units)
        print(out)
    return 0


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="sweep", description="fcal-sim sweeps on a local pool or a Dask cluster")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run (or resume) a sweep")
    r.add_argument("spec")
    r.add_argument("--out", help="results folder (default out/sweeps/<spec name>)")
    r.add_argument("--jobs", type=int, default=None, help="local simulations at once (default: all cores)")
    r.add_argument("--scheduler", help="run on a Dask cluster, e.g. tcp://127.0.0.1:8786")
    r.add_argument("--fcal-sim", help="simulator binary (default: the spec's fcal_sim or build/bin/fcal-sim)")
    r.add_argument("--fresh", action="store_true", help="discard earlier results instead of resuming")
    r.add_argument("--retry-failed", action="store_true", help="run again the runs recorded as failed")
    r.add_argument("--limit", type=int, help="run at most N of the missing runs (then stop; resume later)")
    r.add_argument("--allow-mixed-builds", action="store_true",
                   help="resume although runs.csv has rows of another fcal-sim build")
    r.add_argument("--no-check", action="store_true", help="skip the checks against fcal-sim before the first run")
    s = sub.add_parser("summary", help="rewrite summary.csv from runs.csv")
    s.add_argument("spec")
    s.add_argument("--out")
    pt = sub.add_parser("points", help="list a spec's points")
    pt.add_argument("spec")
    p = sub.add_parser("plot", help="curves with 95 %% confidence bands from a summary.csv, or a spec's [[plot]]s")
    p.add_argument("source", metavar="SUMMARY.csv|SPEC")
    p.add_argument("--x")
    p.add_argument("--y")
    p.add_argument("--by", action="append", default=[], help="one curve per value of this column (repeatable)")
    p.add_argument("--panels", help="one panel per value of this column")
    p.add_argument("--where", action="append", default=[], help="COL=VALUE: keep only these rows (repeatable)")
    p.add_argument("--out", help="the PNG (default sweep.png); with a spec, the folder of its PNGs")
    p.add_argument("--results", help="with a spec: its results folder (default out/sweeps/<spec name>)")
    p.add_argument("--summary", help="with a spec: the summary.csv to draw (default RESULTS/summary.csv)")
    p.add_argument("--fcal-sim", help="the fcal-sim whose parameter table gives the units")
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--title")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    command = {"run": cmd_run, "summary": cmd_summary, "points": cmd_points, "plot": cmd_plot}[args.cmd]

    def run() -> int:
        try:
            return command(args)
        except (spec_mod.SpecError, store.StoreError, plot.PlotError, OSError) as e:
            raise UsageError(f"sweep: {e}")
    return guard("sweep", run)
