"""One run of a sweep: fcal-sim with a point's settings and a seed; returns the row to record.

Uses only the standard library and fcal_tools.sim, because the Dask backend ships this module and that one
to its workers by value. The build identity is taken where the run happens, so a row names the fcal-sim
that made it even on a cluster.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..sim import Starter, build_identity, run_sim, tail

Outcome = dict[str, Any]  # {"status", "exit_code", "stderr_tail", "build", result: value, ...}


def lookup(results: Any, path: str) -> Any:
    """The value at a dotted path of the results JSON (a number indexes a list), or None."""
    v = results
    for part in path.split("."):
        if isinstance(v, dict) and part in v:
            v = v[part]
        elif isinstance(v, list) and part.isdigit() and int(part) < len(v):
            v = v[int(part)]
        else:
            return None
    return v


def run_point(fcal_sim: str, settings: Sequence[tuple[str, str]], seed: int, keep: Sequence[str],
              timeout_s: float | None = None, config: str | None = None,
              children: Starter | None = None) -> Outcome | None:
    """The outcome of one run, or None for a run `children` did not start or stopped (the sweep is stopping:
    record nothing). A run that fails (non-zero exit, no JSON, a missing result, a timeout) is returned as
    failed, never raised: one bad point must not stop a sweep. Every run has a session of its own and
    --stop-with-parent (on Dask too, where `children` is None)."""
    run = run_sim(fcal_sim, list(settings) + [("workload.seed", str(seed))], config=config, timeout_s=timeout_s,
                  children=children, detach=True)
    if run.stopped:
        return None
    row: Outcome = {"status": "failed", "exit_code": run.exit_code, "stderr_tail": "", "build": build_identity(fcal_sim)}
    if run.timed_out:
        row["stderr_tail"] = tail(f"timeout after {timeout_s} s\n" + run.stderr)
        return row
    if run.exit_code != 0:
        row["stderr_tail"] = tail(run.stderr)
        return row
    if run.stats is None or not isinstance(run.stats.get("results"), dict):
        row["stderr_tail"] = tail(f"no results JSON: {run.stats_error or 'no results'}\n{run.stderr}")
        return row
    results = run.stats["results"]
    missing = [k for k in keep if lookup(results, k) is None]
    if missing:
        row["stderr_tail"] = tail(f"results without {', '.join(missing)}")
        return row
    row["status"] = "ok"
    for k in keep:
        row[k] = lookup(results, k)
    return row
