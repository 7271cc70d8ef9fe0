"""Command line: run | summary | plot | points.

  python3 tools/sweep run SPEC [--out DIR] [--jobs N | --scheduler tcp://HOST:PORT] [--fcal-sim PATH]
                              [--fresh] [--retry-failed] [--limit N]
  python3 tools/sweep summary SPEC [--out DIR]
  python3 tools/sweep plot SUMMARY.csv --x COL --y COL [--by COL]... [--where COL=VALUE]... [--out PNG]
  python3 tools/sweep points SPEC

`run` appends one row per finished run to DIR/runs.csv (default out/sweeps/<spec name>/), skips the runs
already there (resume), and writes DIR/summary.csv (mean and 95 % CI per point). Before the first run it
refuses a spec whose settings name a key fcal-sim does not know (a bad value fails only the points that
have it, recorded with fcal-sim's exit code and stderr tail). One `run` at a time writes a folder (a
lock; a second is refused). SIGINT or SIGTERM stops the simulations in flight (they are not recorded:
a resume runs them) and ends the sweep; each simulation also stops by itself if the sweep is killed
outright (fcal-sim --stop-with-parent).
Exit code 0: every run ok; 1: some runs failed (each is recorded with its exit code and stderr tail);
2: bad spec or arguments, or the folder is in use by another `run`; 130 / 143: interrupted by SIGINT /
SIGTERM.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

from . import backends, plot, progress, spec as spec_mod, store, summary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def out_dir(args, spec):
    return args.out or os.path.join(ROOT, "out", "sweeps", spec.name)


def fcal_sim_path(args, spec):
    path = args.fcal_sim or spec.fcal_sim or "build/bin/fcal-sim"
    return os.path.abspath(path if os.path.isabs(path) or args.fcal_sim else os.path.join(ROOT, path))


class Interrupted(BaseException):
    """SIGTERM (or SIGINT) while the sweep runs: raised in the main thread, wherever it waits."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


def check_keys(spec, sim):
    """Refuses (SpecError) settings whose keys fcal-sim does not know, before anything runs."""
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    listing = subprocess.run([sim, "--list-params", "--json"], capture_output=True, text=True, env=env)
    if listing.returncode != 0:
        raise spec_mod.SpecError(f"{sim} --list-params --json: exit {listing.returncode}: {listing.stderr.strip()[:300]}")
    unknown = spec.unknown_keys(json.loads(listing.stdout))
    if unknown:
        raise spec_mod.SpecError(f"{spec.path}: not fcal-sim parameters: {', '.join(unknown)} (see fcal-sim --list-params)")


def cmd_run(args):
    spec = spec_mod.load(args.spec)
    out = out_dir(args, spec)
    sim = fcal_sim_path(args, spec)
    local_sim = os.access(sim, os.X_OK)
    if not args.scheduler and not local_sim:
        print(f"sweep: no fcal-sim at {sim} (build first: bash scripts/setup.sh)", file=sys.stderr)
        return 2
    if local_sim:  # (a Dask client may have no fcal-sim of its own: the workers then report bad keys)
        check_keys(spec, sim)
    os.makedirs(out, exist_ok=True)
    lock = store.lock_folder(out)  # noqa: F841 (held until the process ends)
    runs_path = os.path.join(out, "runs.csv")
    if args.fresh and os.path.exists(runs_path):
        os.remove(runs_path)
    results = store.ResultsFile(runs_path, spec)
    done = results.done(retry_failed=args.retry_failed)
    points = spec.points()
    todo = [(i, s) for i, s in spec.runs() if (spec.point_key(points[i]), s) not in done]
    if args.limit is not None:
        todo = todo[:args.limit]
    total = len(spec.runs())
    already = total - len([1 for i, s in spec.runs() if (spec.point_key(points[i]), s) not in done])
    where = f"Dask cluster {args.scheduler}" if args.scheduler else f"{args.jobs or os.cpu_count()} local processes"
    print(f"sweep {spec.name}: {total} runs ({len(points)} points), "
          f"{already} already recorded, {len(todo)} to run on {where}", file=sys.stderr)
    tasks = [(n, (sim, spec.settings(points[i]), s, spec.results, spec.timeout_s)) for n, (i, s) in enumerate(todo)]
    bar = progress.Progress(total, already)
    started = time.monotonic()
    signal.signal(signal.SIGTERM, _raise_interrupted)
    finished = backends.dask(tasks, args.scheduler) if args.scheduler else backends.local(tasks, args.jobs)
    recorded = 0
    try:
        for n, outcome in finished:
            if outcome is None:  # stopped by the sweep itself
                continue
            i, s = todo[n]
            results.append(points[i], s, outcome)
            recorded += 1
            bar.step(outcome["status"] == "ok")
        rows = summary.summarise(spec, results.records)
        summary.write(spec, rows, os.path.join(out, "summary.csv"))
    except (Interrupted, KeyboardInterrupt) as e:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # stopping already
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        finished.close()  # stops the simulations in flight and waits for them
        signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
        print(f"\nsweep {spec.name}: interrupted ({signal.Signals(signum).name}); {recorded} runs recorded in this "
              f"session, {len(todo) - recorded} left for a resume", file=sys.stderr)
        return 128 + signum
    failed = sum(r["failed"] for r in rows)  # (point, seed) pairs whose latest run failed
    print(f"sweep {spec.name}: {len(todo)} runs in {time.monotonic() - started:.1f} s; "
          f"{sum(r['runs'] for r in rows)} ok, {failed} failed; {out}/summary.csv", file=sys.stderr)
    return 1 if failed else 0


def cmd_summary(args):
    spec = spec_mod.load(args.spec)
    out = out_dir(args, spec)
    results = store.ResultsFile(os.path.join(out, "runs.csv"), spec)
    summary.write(spec, summary.summarise(spec, results.records), os.path.join(out, "summary.csv"))
    print(os.path.join(out, "summary.csv"))
    return 0


def cmd_points(args):
    spec = spec_mod.load(args.spec)
    for p in spec.points():
        print(" ".join(f"{k}={spec_mod.value_text(v)}" for k, v in p.items()))
    print(f"{len(spec.points())} points, {len(spec.runs())} runs", file=sys.stderr)
    return 0


def cmd_plot(args):
    where = {}
    for w in args.where:
        k, _, v = w.partition("=")
        where[k] = v
    plot.plot_file(args.summary, args.x, args.y, by=args.by, where=where, out=args.out, logx=args.logx,
                   logy=args.logy, title=args.title)
    print(args.out)
    return 0


def main(argv=None):
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
    s = sub.add_parser("summary", help="rewrite summary.csv from runs.csv")
    s.add_argument("spec")
    s.add_argument("--out")
    pt = sub.add_parser("points", help="list a spec's points")
    pt.add_argument("spec")
    p = sub.add_parser("plot", help="curves with 95 %% confidence bands from a summary.csv")
    p.add_argument("summary")
    p.add_argument("--x", required=True)
    p.add_argument("--y", required=True)
    p.add_argument("--by", action="append", default=[], help="one curve per value of this column (repeatable)")
    p.add_argument("--where", action="append", default=[], help="COL=VALUE: keep only these rows (repeatable)")
    p.add_argument("--out", default="sweep.png")
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--title")
    args = ap.parse_args(argv)
    try:
        return {"run": cmd_run, "summary": cmd_summary, "points": cmd_points, "plot": cmd_plot}[args.cmd](args)
    except (spec_mod.SpecError, store.StoreError, OSError, ValueError) as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 2
