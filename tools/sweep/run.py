"""One simulation: fcal-sim with a point's settings and a seed; returns the row to record.

Self-contained (standard library only, no imports from this package) because the Dask backend ships
this function to workers by value.
"""
import json
import os
import subprocess

STDERR_TAIL = 400  # characters of stderr kept for a failed run


def lookup(results, path):
    v = results
    for part in path.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def run_point(fcal_sim, settings, seed, keep, timeout_s=None):
    """settings: [(key, text)]; keep: result names. Returns {"status", "exit_code", "stderr_tail", name: value}.
    A run that fails (non-zero exit, no JSON, a missing result, a timeout) is returned as failed, never raised:
    one bad point must not stop a sweep."""
    args = [fcal_sim, "--quiet", "--stats-json", "-"]
    for k, v in settings:
        args += ["--set", f"{k}={v}"]
    args += ["--set", f"workload.seed={seed}"]
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    row = {"status": "ok", "exit_code": 0, "stderr_tail": ""}
    try:
        out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        row.update(status="failed", exit_code=-9, stderr_tail=tail(f"timeout after {timeout_s} s\n" + err))
        return row
    except OSError as e:
        row.update(status="failed", exit_code=127, stderr_tail=tail(str(e)))
        return row
    row["exit_code"] = out.returncode
    if out.returncode != 0:
        row.update(status="failed", stderr_tail=tail(out.stderr))
        return row
    try:
        results = json.loads(out.stdout)["results"]
    except (ValueError, KeyError) as e:
        row.update(status="failed", stderr_tail=tail(f"no results JSON: {e}\n{out.stderr}"))
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
