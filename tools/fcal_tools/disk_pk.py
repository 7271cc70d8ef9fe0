"""One zoned disk under Poisson arrivals against the Pollaczek-Khinchine formula (issue 9).

  python3 tools/disk_pk.py [--out DIR] [--fcal-sim PATH] [--measured N] [--config FILE]
                           [--transport ideal|loop] [--jobs N]

Runs fcal-sim with one zoned disk (the drive of --config, default configs/disks/seagate_st3500630ns.json),
stochastic positioning, FCFS, 128 KiB reads (k = 256 sectors, the analytic model's block), open
workload at several arrival rates. The M/G/1 expectation is computed here from the model's formulas
(docs/model.md, "The disks: the zoned model"): service B = S + R + T with the seek S over the
seek-distance density f_D, the rotational wait R uniform on [0, R_max) and the transfer T = k R_max /
SEC(X) at the radius X of a uniformly random sector, so that E[W] = lambda E[B^2] / (2 (1 - rho)).
With --transport loop (the simulator's transport=loop) the loop and the HBAs add a transport time
the disk model does not see; it is measured with a disk that takes no time (fixed model, 0 ms, a
near-infinite rate) at the lowest rate, and added to the curve. The default, --transport ideal,
connects the controller straight to the disk (transport=ideal): the same measurement then gives 0. Writes DIR/pk.csv and DIR/pk.png (python3-matplotlib).
"""
from __future__ import annotations

import argparse
import json
import math
import os
from typing import Any, Callable

from . import engine
from .cli import guard, require
from .rows import write_csv
from .sim import DEFAULT_FCAL_SIM, ROOT, Starter, run_sim

RATES = (5, 10, 15, 20, 25, 30, 35, 40, 45, 50)
SECTORS = 256


def simpson(f: Callable[[float], float], a: float, b: float, n: int = 20000) -> float:
    h = (b - a) / n
    s = f(a) + f(b)
    for i in range(1, n):
        s += f(a + i * h) * (4 if i % 2 else 2)
    return s * h / 3


def service_moments(d: dict[str, Any]) -> tuple[float, float]:
    """E[B], E[B^2] of one 128 KiB read from the drive's keys (milliseconds)."""
    c = d["cylinders"]
    rev = 60000.0 / d["rpm"]
    sec_in, sec_out = rev / d["sector_time_inner_ms"], rev / d["sector_time_outer_ms"]
    span = c - 1
    alpha, beta = sec_in, (sec_out - sec_in) / span
    g = alpha * span + beta / 2 * span * span
    v = 6 * alpha ** 2 + 6 * alpha * beta * span + 2 * beta ** 2 * span ** 2
    fa, fg, fe = v * span / (3 * g * g), -(v + beta ** 2 * span ** 2) / (3 * g * g), beta ** 2 / (3 * g * g)
    r = math.sqrt(span)
    mn, mx = d["seek_read_min_ms"], d["seek_read_max_ms"]
    a, b = (mn * r - mx) / (r - 1), (mx - mn) / (r - 1)

    def seek(power: int) -> float:  # x = u^2
        return simpson(lambda u: (a + b * u) ** power * (fa + fg * u * u + fe * u ** 6) * 2 * u if u > 0 else 0.0, 0, r)

    def sec(x: float) -> float:
        return sec_in + (sec_out - sec_in) * x / span

    total = simpson(sec, 0, c)

    def transfer(power: int) -> float:
        return simpson(lambda x: (SECTORS * rev / sec(x)) ** power * sec(x) / total, 0, c)

    es, es2 = seek(1), seek(2)
    er, er2 = rev / 2, rev * rev / 3
    et, et2 = transfer(1), transfer(2)
    return es + er + et, es2 + er2 + et2 + 2 * (es * er + es * et + er * et)


def run(sim: str, config: str | None, sets: list[str], measured: int,
        children: Starter | None = None) -> dict[str, Any]:
    base = ["disk.count=1", "workload.type=open", "workload.io_size=128K", f"workload.measured_ios={measured}",
            "sim.time_limit_s=1000000"]
    results: dict[str, Any] = run_sim(sim, base + sets, config=config, children=children).check().results
    return results


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "disks"))
    ap.add_argument("--fcal-sim", default=DEFAULT_FCAL_SIM)
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "disks", "seagate_st3500630ns.json"))
    ap.add_argument("--measured", type=int, default=20000)
    ap.add_argument("--transport", choices=("ideal", "loop"), default="ideal")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args(argv)
    return guard("disk_pk", lambda: study(a))


def study(a: argparse.Namespace) -> int:
    require("disk_pk", "matplotlib", "drawing pk.png")
    os.makedirs(a.out, exist_ok=True)
    with open(a.config) as f:
        drive = json.load(f)["disk"]
    eb, eb2 = service_moments(drive)
    via = f"transport={a.transport}"
    transport = run(a.fcal_sim, None, [via, "disk.access_ms=0", "disk.rate_mbs=1e9", f"workload.rate_iops={RATES[0]}"],
                    a.measured)["mean_response_us"] / 1000
    rows = []
    tasks = [(a.fcal_sim, a.config, [via, "disk.positioning=stochastic", f"workload.rate_iops={rate}"], a.measured)
             for rate in RATES]
    for rate, r in zip(RATES, engine.in_order(run, tasks, a.jobs)):
        lam = rate / 1000.0  # per ms
        rho = lam * eb
        pk = eb + lam * eb2 / (2 * (1 - rho))
        rows.append(dict(rate_per_s=rate, rho=round(rho, 4), pk_ms=round(pk, 4), transport_ms=round(transport, 4),
                         expected_ms=round(pk + transport, 4), measured_ms=round(r["mean_response_us"] / 1000, 4)))
        print(rows[-1], flush=True)
    write_csv(rows, os.path.join(a.out, "pk.csv"), list(rows[0]))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    dense = [x / 10 for x in range(10, int(0.85 / eb * 1000) * 10)]
    ax.plot(dense, [eb + (l / 1000) * eb2 / (2 * (1 - l / 1000 * eb)) + transport for l in dense], "-",
            label=f"Pollaczek-Khinchine + transport ({transport:.2f} ms)")
    ax.plot([r["rate_per_s"] for r in rows], [r["measured_ms"] for r in rows], "o", label="fcal-sim")
    ax.set_xlabel("arrival rate (reads per second)")
    ax.set_ylabel("mean response time (ms)")
    ax.set_title(f"One zoned disk ({os.path.basename(a.config)}), 128 KiB random reads,\n"
                 f"E[B] = {eb:.2f} ms, transport={a.transport}", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "pk.png"), dpi=110)
    return 0
