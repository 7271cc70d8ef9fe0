"""IOPS and retries against the links' bit error rate (docs/model.md, "Faults and recovery").

  python3 tools/ber_sweep.py [--fcal-sim PATH] [--out DIR] [--measured N] [--jobs N]
                             [--per-decade K] [--set KEY=VALUE ...]

Runs fcal-sim (the baseline of docs/model.md, "The baseline scenario", unless --set says otherwise)
with loop.ber from 1e-12 to 1e-5, K points per decade (default 2), and loop.ber=0 as the reference.
When fcal-sim knows initiator.exchange_timeout_ms (FCP recovery; `fcal-sim --list-params`), it is
set with --exchange-timeout-ms (default 10). Reads from each run's results: iops, retries,
failed_ios (0 where the binary has no such key), frames_discarded, code_violations, run_end.
A run that fails (exit code other than 0 or 1) is reported on stderr and kept as a row with only
its exit code. Writes DIR/ber.csv (one row per BER) and DIR/ber.png (IOPS and retries against BER, log axis);
DIR defaults to docs/faults. Needs python3-matplotlib (Debian).
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
from typing import Any

from . import engine
from .cli import guard, require
from .sim import DEFAULT_FCAL_SIM, ROOT, Starter, list_params, run_sim
FIELDS = ["ber", "iops", "retries", "failed_ios", "frames_discarded", "code_violations", "completed_ios",
          "sim_time_s", "run_end"]


def bers(per_decade: int) -> list[float]:
    """1e-12 .. 1e-5, `per_decade` points in each decade, exact powers of ten included."""
    out = []
    for e in range(-12, -5):
        for k in range(per_decade):
            out.append(float(f"1e{e}") * 10 ** (k / per_decade))
    out.append(1e-5)
    return [float(f"{b:.3g}") for b in out]


def run(fcal_sim: str, ber: float, settings: list[str], children: Starter | None = None) -> dict[str, Any]:
    p = run_sim(fcal_sim, [f"loop.ber={ber}"] + settings, children=children)
    if p.exit_code not in (0, 1):  # 1: the time limit, still a result
        # Kept as a row (the figure leaves it out) so that one failing point does not cost the sweep.
        print(f"ber_sweep: loop.ber={ber}: fcal-sim exit {p.exit_code}: {p.stderr.strip()[:300]}", file=sys.stderr)
        return dict({k: "" for k in FIELDS}, ber=ber, run_end=f"exit {p.exit_code}")
    r = p.results
    return {"ber": ber, "iops": r.get("iops", 0), "retries": r.get("retries", 0), "failed_ios": r.get("failed_ios", 0),
            "frames_discarded": r.get("frames_discarded", 0), "code_violations": r.get("code_violations", 0),
            "completed_ios": r.get("completed_ios", 0), "sim_time_s": r.get("sim_time_s", 0),
            "run_end": r.get("run_end", "")}


def plot(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ref = next((r for r in rows if r["ber"] == 0 and r["iops"] != ""), None)
    pts = [r for r in rows if r["ber"] > 0 and r["iops"] != ""]
    x = [r["ber"] for r in pts]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.set_xscale("log")
    ax.plot(x, [r["iops"] for r in pts], "o-", color="tab:blue", label="IOPS")
    if ref:
        ax.axhline(ref["iops"], color="tab:blue", linestyle=":", label="IOPS at BER 0")
    ax.set_xlabel("bit error rate of every link")
    ax.set_ylabel("IOPS", color="tab:blue")
    ax2 = ax.twinx()
    ax2.plot(x, [r["retries"] for r in pts], "s--", color="tab:red", label="retries")
    ax2.plot(x, [r["failed_ios"] for r in pts], "^:", color="tab:purple", label="failed I/Os")
    ax2.plot(x, [r["frames_discarded"] for r in pts], "x-", color="tab:gray", label="frames discarded")
    ax2.set_ylabel("count over the run", color="tab:red")
    ax2.set_yscale("symlog", linthresh=1)
    lines = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    ax.legend(lines, [h.get_label() for h in lines], loc="center left", fontsize=8)
    ax.set_title("Baseline under bit errors on the loop")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "faults"))
    ap.add_argument("--measured", type=int, default=None, help="workload.measured_ios (default: the baseline's)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--per-decade", type=int, default=2)
    ap.add_argument("--exchange-timeout-ms", type=float, default=10.0)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args(argv)
    return guard("ber_sweep", lambda: sweep(a))


def sweep(a: argparse.Namespace) -> int:
    require("ber_sweep", "matplotlib", "drawing ber.png")
    settings = list(a.set)
    if a.measured is not None:
        settings.append(f"workload.measured_ios={a.measured}")
    if "initiator.exchange_timeout_ms" in {p.key for p in list_params(a.fcal_sim)}:
        settings.append(f"initiator.exchange_timeout_ms={a.exchange_timeout_ms}")
    points = [0.0] + bers(a.per_decade)
    rows = engine.run_all(run, [(a.fcal_sim, b, settings) for b in points], a.jobs)

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "ber.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        w.writerows(rows)
    plot(rows, os.path.join(a.out, "ber.png"))
    for r in rows:
        print(",".join(str(r[k]) for k in FIELDS))
    return 0
