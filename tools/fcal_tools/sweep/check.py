"""A sweep checks itself before its first run, against the fcal-sim it will use:

- the keys of its settings are fcal-sim parameters (`--list-params --json`);
- its base configurations pass `fcal-sim --check`;
- its result names are results: a dry run (one measured I/O, no warm-up, a short time limit) of the first
  point of each part that runs gives the stats JSON whose `results` the names must be found in. A name is
  accepted if it is found in any dry run; a list index beyond the dry run's list is checked against the
  list's first item (whether disk 3 exists depends on the point). If no dry run succeeds (every first
  point has a value fcal-sim refuses, say), the names cannot be checked and the sweep says so and goes on:
  a bad value fails only the points that have it.

The checks run with FCAL_SWEEP_CHECK=1 in fcal-sim's environment, so that a wrapper can tell them from the
sweep's runs.
"""
from __future__ import annotations

import difflib
import os
from typing import Any, Iterable, Iterator

from ..sim import SimError, SimRun, list_params, run_sim, sim_env, tail
from .spec import Spec, SpecError

DRY_RUN = [("workload.measured_ios", "1"), ("workload.warmup_ios", "0"), ("sim.time_limit_s", "1")]
DRY_RUN_TIMEOUT_S = 60
TRIES_PER_PART = 3


def check_env() -> dict[str, str]:
    return dict(sim_env(), FCAL_SWEEP_CHECK="1")


def check_keys(spec: Spec, fcal_sim: str) -> None:
    try:
        params = list_params(fcal_sim, env=check_env())
    except SimError as e:
        raise SpecError(str(e))
    unknown = spec.unknown_keys(params)
    if unknown:
        raise SpecError(f"{spec.path}: not fcal-sim parameters: {', '.join(unknown)} (see fcal-sim --list-params)")


def check_bases(spec: Spec, fcal_sim: str) -> None:
    for base in spec.bases():
        run = run_sim(fcal_sim, stats=None, quiet=False, config=base, extra_args=["--check"], env=check_env())
        if run.exit_code != 0:
            raise SpecError(f"{spec.path}: base {base}: fcal-sim --check refuses it: {tail(run.stderr)}")


def dry_runs(spec: Spec, fcal_sim: str) -> tuple[list[dict[str, Any]], list[SimRun]]:
    """(results of the dry runs that succeeded, the runs that failed)."""
    results, failed = [], []
    for indices in spec.first_points():
        for i in indices[:TRIES_PER_PART]:
            point = spec.points()[i]
            run = run_sim(fcal_sim, spec.settings(point) + DRY_RUN, config=spec.base_of(i), env=check_env(),
                          timeout_s=DRY_RUN_TIMEOUT_S)
            if run.exit_code in (0, 1) and run.stats is not None and isinstance(run.stats.get("results"), dict):
                results.append(run.stats["results"])
                break
            failed.append(run)
    return results, failed


def resolves(results: Any, path: list[str]) -> bool | None:
    """True if `path` names a value (not a table or list) in `results`, False if not, None if an empty list
    on the way leaves it open."""
    v = results
    for n, part in enumerate(path):
        if isinstance(v, dict) and part in v:
            v = v[part]
        elif isinstance(v, list) and part.isdigit():
            if not v:
                return None
            v = v[int(part)] if int(part) < len(v) else v[0]
        else:
            return False
    return not isinstance(v, (dict, list))


def leaves(value: Any, prefix: str = "") -> Iterator[str]:
    """The result paths of a results JSON, list items as index 0 (for suggestions)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(value, list):
        if value:
            yield from leaves(value[0], f"{prefix}.0")
    else:
        yield prefix


def unknown_results(names: Iterable[str], dry: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(name, hint) for every name no dry run has as a value."""
    known = sorted({p for r in dry for p in leaves(r)})
    bad = []
    for name in names:
        found = [resolves(r, name.split(".")) for r in dry]
        if any(f is not False for f in found):
            continue
        generic = ".".join("0" if p.isdigit() else p for p in name.split("."))
        inside = next((p for p in known if p.startswith(generic + ".")), None)
        if inside and any(_is_container(r, name.split(".")) for r in dry):
            hint = f"a table or list, not a value; e.g. {inside}"
        else:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]}?" if close else "see fcal-sim --stats-json"
        bad.append((name, hint))
    return bad


def _is_container(results: Any, path: list[str]) -> bool:
    v = results
    for part in path:
        if isinstance(v, dict) and part in v:
            v = v[part]
        elif isinstance(v, list) and part.isdigit() and v:
            v = v[min(int(part), len(v) - 1)]
        else:
            return False
    return isinstance(v, (dict, list))


def check_spec(spec: Spec, fcal_sim: str, warn: Any = None) -> None:
    """SpecError (one line) for what fcal-sim says is wrong with the spec; `warn(text)` for what could not be
    checked."""
    check_keys(spec, fcal_sim)
    check_bases(spec, fcal_sim)
    dry, failed = dry_runs(spec, fcal_sim)
    if not dry:
        if warn and failed:
            warn(f"the result names could not be checked: no dry run succeeded ({failed[0].describe()}: "
                 f"exit {failed[0].exit_code}: {tail(failed[0].stderr, 200)})")
        return
    bad = unknown_results(spec.results, dry)
    if bad:
        raise SpecError(f"{spec.path}: results: " + "; ".join(f"{n!r} is not a result of fcal-sim ({h})" for n, h in bad))


def fcal_sim_exists(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)
