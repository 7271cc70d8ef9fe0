"""One simulation: fcal-sim with a point's settings and a seed; returns the row to record.

Self-contained (standard library only, no imports from this package) because the Dask backend ships
this function to workers by value.

Every simulation runs in a session of its own (so a terminal's Ctrl-C reaches the sweep, not each
simulation) and with --stop-with-parent (so that it stops by itself if whatever started it is killed
outright). A local sweep passes `children` (backends.Children), which keeps the running simulations so
that an interrupted sweep can stop them.
"""
import json
import os
import signal
import subprocess

STDERR_TAIL = 400  # characters of stderr kept for a failed run


def lookup(results, path):
    v = results
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def run_point(fcal_sim, settings, seed, keep, timeout_s=None, children=None):
    """settings: [(key, text)]; keep: result names. Returns {"status", "exit_code", "stderr_tail", name: value},
    or None for a run `children` did not start or stopped (the sweep is stopping: record nothing).
    A run that fails (non-zero exit, no JSON, a missing result, a timeout) is returned as failed, never raised:
    one bad point must not stop a sweep."""
    args = [fcal_sim, "--quiet", "--stop-with-parent", "--stats-json", "-"]
    for k, v in settings:
        args += ["--set", f"{k}={v}"]
    args += ["--set", f"workload.seed={seed}"]
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    row = {"status": "ok", "exit_code": 0, "stderr_tail": ""}
    start = children.start if children else subprocess.Popen
    try:
        proc = start(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    except OSError as e:
        row.update(status="failed", exit_code=127, stderr_tail=tail(str(e)))
        return row
    if proc is None:
        return None
    try:
        stdout, stderr = proc.communicate(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, stderr = proc.communicate()
        row.update(status="failed", exit_code=-9, stderr_tail=tail(f"timeout after {timeout_s} s\n" + stderr))
        return row
    finally:
        stopped = children.finish(proc) if children else False
    if stopped:
        return None
    row["exit_code"] = proc.returncode
    if proc.returncode != 0:
        row.update(status="failed", stderr_tail=tail(stderr))
        return row
    try:
        results = json.loads(stdout)["results"]
    except (ValueError, KeyError) as e:
        row.update(status="failed", stderr_tail=tail(f"no results JSON: {e}\n{stderr}"))
        return row
    missing = [k for k in keep if lookup(results, k) is None]
    if missing:
        row.update(status="failed", stderr_tail=tail(f"results without {', '.join(missing)}"))
        return row
    for k in keep:
        row[k] = lookup(results, k)
    return row


def tail(text):
    """The end of stderr on one line (a CSV field)."""
    text = text.strip()[-STDERR_TAIL:]
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())
