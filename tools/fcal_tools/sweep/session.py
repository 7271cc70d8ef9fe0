"""One `sweep run`: check the spec against fcal-sim, lock the results folder, run the missing (point, seed)
pairs on the local pool or a Dask cluster, record each as it finishes, and write the summary.

Exit codes: 0 every run ok; 1 some runs failed (each recorded with its exit code and stderr tail); 2 bad
spec or arguments, a folder in use, or rows of another fcal-sim build without --allow-mixed-builds;
130 / 143 interrupted by SIGINT / SIGTERM (the simulations in flight are stopped and not recorded, and one
line says how to resume).
"""
from __future__ import annotations

import os
import signal
import sys
import time
from dataclasses import dataclass
from types import FrameType
from typing import Iterator

from .. import engine, sim as sim_module
from ..cli import UsageError, require
from ..sim import build_identity
from . import check, point as point_module, progress, store, summary
from .point import Outcome, run_point
from .spec import Spec


class Interrupted(BaseException):
    """SIGTERM (or SIGINT) while the sweep runs: raised in the main thread, wherever it waits."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


@dataclass
class Options:
    jobs: int | None = None
    scheduler: str | None = None
    fresh: bool = False
    retry_failed: bool = False
    limit: int | None = None
    allow_mixed_builds: bool = False
    check: bool = True
    resume: str = ""  # the command that resumes this sweep, for the message on an interruption


def warn(text: str) -> None:
    print(f"sweep: warning: {text}", file=sys.stderr)


def run_sweep(spec: Spec, out: str, fcal_sim: str, opts: Options) -> int:
    local_sim = check.fcal_sim_exists(fcal_sim)
    if not opts.scheduler and not local_sim:
        raise UsageError(f"sweep: no fcal-sim at {fcal_sim} (build first: bash scripts/setup.sh)")
    if opts.scheduler:
        require("sweep", "distributed", "--scheduler")
        require("sweep", "cloudpickle", "--scheduler")
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        return _run(spec, out, fcal_sim, local_sim, opts)
    except (Interrupted, KeyboardInterrupt) as e:  # before the first run: nothing to stop
        signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
        print(f"\nsweep {spec.name}: interrupted ({signal.Signals(signum).name}) before any run", file=sys.stderr)
        return 128 + signum
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(spec: Spec, out: str, fcal_sim: str, local_sim: bool, opts: Options) -> int:
    if local_sim and opts.check:  # (a Dask client may have no fcal-sim of its own: the workers then report)
        check.check_spec(spec, fcal_sim, warn)
    os.makedirs(out, exist_ok=True)
    lock = store.lock_folder(out)
    try:
        return _run_locked(spec, out, fcal_sim, local_sim, opts)
    finally:
        os.close(lock)


def _run_locked(spec: Spec, out: str, fcal_sim: str, local_sim: bool, opts: Options) -> int:
    runs_path = os.path.join(out, "runs.csv")
    if opts.fresh and os.path.exists(runs_path):
        os.remove(runs_path)
    results = store.ResultsFile(runs_path, spec)
    if local_sim:
        build = build_identity(fcal_sim)
        others = results.other_builds(build)
        if others and not opts.allow_mixed_builds:
            made = ", ".join(f"{n} by build {b}" if b else f"{n} recording no build" for b, n in others.items())
            raise store.StoreError(f"{runs_path}: rows of another fcal-sim build ({made}); this fcal-sim is build "
                                   f"{build}: --allow-mixed-builds to add to them, or --fresh to start again")
    done = results.done(retry_failed=opts.retry_failed)
    points = spec.points()
    missing = [(i, s) for i, s in spec.runs() if (spec.point_key(points[i]), s) not in done]
    todo = missing[:opts.limit] if opts.limit is not None else missing
    total = len(spec.runs())
    where = f"Dask cluster {opts.scheduler}" if opts.scheduler else f"{opts.jobs or os.cpu_count()} local processes"
    print(f"sweep {spec.name}: {total} runs ({len(points)} points), "
          f"{total - len(missing)} already recorded, {len(todo)} to run on {where}", file=sys.stderr)
    tasks = [(fcal_sim, spec.settings(points[i]), s, spec.results, spec.timeout_s, spec.base_of(i)) for i, s in todo]
    bar = progress.Progress(total, total - len(missing))
    started = time.monotonic()
    finished: Iterator[tuple[int, Outcome | None]]
    if opts.scheduler:
        finished = engine.dask(run_point, tasks, opts.scheduler, by_value=[sim_module, point_module])
    else:
        finished = engine.local(run_point, tasks, opts.jobs)
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
        finished.close()  # type: ignore[attr-defined]  # stops the simulations in flight and waits for them
        signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
        resume = f": resume with `{opts.resume}`" if opts.resume else " for a resume"
        print(f"\nsweep {spec.name}: interrupted ({signal.Signals(signum).name}); {recorded} runs recorded in this "
              f"session, {len(todo) - recorded} left{resume}", file=sys.stderr)
        return 128 + signum
    failed = sum(int(r["failed"]) for r in rows)  # (point, seed) pairs whose latest run failed
    print(f"sweep {spec.name}: {len(todo)} runs in {time.monotonic() - started:.1f} s; "
          f"{sum(int(r['runs']) for r in rows)} ok, {failed} failed; {out}/summary.csv", file=sys.stderr)
    return 1 if failed else 0
