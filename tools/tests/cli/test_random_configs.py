"""Random valid configurations (issue 13; docs/testing.md, "Random configurations"): each of N seeded random
configurations, drawn over every parameter, must run to completion (exit 0, run_end "completed") with the I/O
account balanced and nothing on stderr, so in the sanitizer build (scripts/sanitize.sh) also without a sanitizer
report. FCAL_RANDOM_CONFIGS="N [FIRST]" sets how many and the first seed (default 12 from seed 1; the ctest
`random configs (300)`, labelled long, runs 300 from seed 1000 through tests/cli/random_configs.sh).

The keys, types, ranges and choices come from `fcal-sim --list-params --json`. drawn() narrows the keys whose full
range would make a run long or break a rule across keys (sizes kept small for a quick run, Login_BB_Credit at most
the buffers, ...); HELD leaves keys at their defaults, with the reason; any other key (a new one too) is drawn over
its declared range or choices. Every value is checked against its declaration, so the narrower ranges here cannot
drift from the program's."""
from __future__ import annotations

import json
import math
import os
import random
import re
import subprocess

import pytest

from conftest import load_results

COUNT, FIRST = (list(map(int, os.environ.get("FCAL_RANDOM_CONFIGS", "12").split())) + [1])[:2]

ZONED = "the zoned disk model: geometry, seeks and buffer have rules of their own (test_disk_configs.py)"
VOLUME = "volumes need whole blocks and disk counts of their level (test_raid.py, test_decode.py)"
ERASE = "an erase job needs disk capacities (test_erase.py)"
HELD = {
    "loop.baud_gbps": "a slow line would let the short exchange timers of the runs with bit errors expire",
    "initiator.circuit_hold_us": "the close timer is tested on its own (tools/exactness.py scenario circuit_hold)",
    "target.circuit_hold_us": "as initiator.circuit_hold_us",
    "initiator.task_set_full_retry_us": "TASK SET FULL is tested on its own (tests/validation/disk_task_set_full_test.cpp)",
    "disk.capacity_gb": "capacities bound the LBAs and sizes drawn (test_erase.py)",
    "workload.io_size_max": "sizes drawn in whole blocks need io_size to be one (test_decode.py)",
    "workload.span_bytes": "as workload.io_size_max",
    "transport": "the ideal transport has no HBAs or loop, which most keys here configure (tests/validation/queueing_*)",
    "sim.time_limit_s": "the runs must end by themselves (exit 0), not at a time limit",
}
for key in ["disk.model", "disk.rpm", "disk.cylinders", "disk.heads", "disk.sector_bytes", "disk.sector_time_inner_ms",
            "disk.sector_time_outer_ms", "disk.seek_read_min_ms", "disk.seek_read_max_ms", "disk.seek_write_min_ms",
            "disk.seek_write_max_ms", "disk.positioning", "disk.scheduler", "disk.write_cache", "disk.buffer_kib",
            "disk.buffer_full_ratio", "disk.command_overhead_us"]:
    HELD[key] = ZONED
for key in ["volume.raid", "volume.stripe_kib", "volume.split_merge", "volume.decode", "decode.area_units",
            "decode.threshold", "decode.own_write", "decode.free_fraction", "volume.spares", "volume.rebuild_delay_ms",
            "volume.rebuild_rate_mbs", "volume.rebuild_io_kib", "volume.member_capacity_gb"]:
    HELD[key] = VOLUME
for key in ["event.<n>.at_ms", "event.<n>.kind", "event.<n>.disk", "event.<n>.loop", "event.<n>.failure"]:
    HELD[key] = ("scheduled events are given with their number and tested on their own "
                 "(tests/validation/queueing_raid_failure_test.cpp, test_raid_events.py)")
for key in ["erase.command", "erase.strategy", "erase.tl_policy", "erase.transfer_blocks", "erase.same_blocks", "erase.disks"]:
    HELD[key] = ERASE


def uniform(r, lo, hi, digits):
    return round(r.uniform(lo, hi), digits)


def drawn(r, disks, rtl, faults, params):
    """The keys drawn over a narrower range than declared: key -> value, None to leave it unset."""
    d = {
        "disk.count": disks,
        "disk.access_ms": uniform(r, 0, 5, 3),
        "disk.rate_mbs": uniform(r, 20, 300, 1),
        "disk.queue_slots": r.randint(1, 32),
        "loop.nodes": disks + 1 + r.randint(0, 6) if r.random() < 0.5 else None,
        "loop.length_m": uniform(r, 0, 5000, 1) if r.random() < 0.3 else None,
        "loop.port_delay_words": r.randint(1, 24),
        "loop.propagation_ns_per_m": uniform(r, 3.5, 6, 2),
        "initiator.xfer_rdy_us": uniform(r, 0, 30, 2),
        "initiator.max_outstanding": r.randint(1, 300),
        # The RTL's FIFO depths are those it was built with.
        "initiator.tx_fifo_frames": None if rtl else r.randint(1, 128),
        "initiator.cmd_fifo_frames": None if rtl else r.randint(1, 128),
        "target.rsp_gen_us": uniform(r, 0, 20, 2),
        "workload.io_size": r.choice([512, 2048, 4096, 8192, 65536, 512 * r.randint(1, 512)]),
        "target.burst_bytes": r.choice([0, 0, 512 * r.randint(1, 64)]),
        "driver.arrival_us": uniform(r, 0, 20, 2),
        "driver.completion_us": uniform(r, 0, 20, 2),
        "workload.type": r.choice(["closed", "open"]),  # erase: HELD's reason
        "workload.queue_depth": r.randint(1, 4),
        "workload.read_fraction": r.choice([0.0, 1.0, round(r.random(), 3)]),
        "workload.rate_iops": uniform(r, 50, 4000, 1),
        "workload.measured_ios": r.randint(10, 60),
        "workload.warmup_ios": r.randint(0, 20),
        "workload.seed": r.randint(0, 2**31),
        "cmdf.impl": "rtl" if rtl else None,
        "rtl.clock_mhz": uniform(r, 50, 500, 1) if rtl else None,
        "rtl.lockstep": r.random() < 0.5 if rtl else None,
        # Two loops (docs/host.md, "Dual loops and multipath") need the SystemC queue: one RTL queue per run.
        "loop.count": None if rtl else r.choice([1, 2]),
        "sim.loop_timeline_ms": r.choice([0, 1, 10]),
        # Unset, the Command-First levels follow the schedule.
        "cmdf.fifo": r.choice(params["cmdf.fifo"]["choices"]) if r.random() < 0.5 else None,
        "cmdf.arbitration": r.random() < 0.5 if r.random() < 0.5 else None,
        "cmdf.preempt": r.random() < 0.5 if r.random() < 0.5 else None,
        # Bit errors with short timers (docs/faults.md, "Faults and recovery"): AL_TIME above twice any
        # round trip drawn here, exchange timers above any service time drawn here.
        "loop.ber": float("%.3g" % 10 ** r.uniform(-9, -5)) if faults else None,
        "loop.al_time_us": r.choice([500, 2000, 15000]) if faults else None,
        "initiator.exchange_timeout_ms": r.choice([50, 200]) if faults else None,
        "initiator.abts_timeout_ms": r.choice([20, 100]) if faults else None,
        "target.data_timeout_ms": 400 if faults else None,
        "driver.retries": r.randint(0, 3) if faults else None,
    }
    d["loop.hop_m"] = uniform(r, 0, 200, 2) if d["loop.length_m"] is None else None
    for side in ("initiator", "target"):
        buffers = r.randint(1, 16)
        d[side + ".fair"] = r.random() < 0.8
        d[side + ".incoming_buffers"] = buffers
        d[side + ".login_bb_credit"] = r.randint(0, buffers)
        d[side + ".full_duplex"] = r.random() < 0.3
        d[side + ".max_payload"] = r.choice([512, 1024, 2048, 2112, 4 * r.randint(64, 528)])
        d[side + ".cmd_exec_us"] = uniform(r, 0, 80, 2)
        d[side + ".dma_mbs"] = uniform(r, 100, 4000, 1)
        d[side + ".dma_sched_us"] = uniform(r, 0, 30, 2)
        d[side + ".frame_proc_ns"] = uniform(r, 0, 1000, 1)
        d[side + ".sft_us"] = uniform(r, 0, 40, 2)
    return d


def declared(r, p, al_pas):
    """A value over the key's declared range or choices; None leaves a derived key to its rule."""
    if p["type"] == "bool":
        return r.random() < 0.5
    if p["type"] == "choice":
        return r.choice(p["choices"])
    if p["type"] == "al_pa":
        return "0x%02X" % r.choice(al_pas)
    if p["default"] is None:
        return None
    lo, hi = p.get("min", 0), p.get("max", math.inf)
    hi = min(hi, 2 * p["default"] + 1)  # unbounded above: up to about twice the default
    if p["type"] == "real":
        return max(r.uniform(lo, hi), math.nextafter(lo, math.inf) if p.get("min_exclusive") else lo)
    step = p.get("multiple_of", 1)
    return step * r.randint(-(-lo // step), hi // step)


def check(key, value, params):
    """Fails unless `value` is one the declaration of `key` allows."""
    p = params.get(key)
    assert p is not None, "%s: drawn here but fcal-sim --list-params --json does not list it" % key
    if p["type"] == "choice":
        assert value in p["choices"], (key, value)
    elif p["type"] in ("integer", "bytes", "real"):
        assert not isinstance(value, bool) and (p["type"] == "real" or isinstance(value, int)), (key, value)
        assert p.get("min", -math.inf) <= value <= p.get("max", math.inf), (key, value, p["range"])
        assert not (p.get("min_exclusive") and value == p["min"]), (key, value, p["range"])
        assert p["type"] == "real" or value % p.get("multiple_of", 1) == 0, (key, value, p["range"])
    elif p["type"] == "bool":
        assert isinstance(value, bool), (key, value)


@pytest.fixture(scope="module")
def params(fcal_sim):
    return {p["key"]: p for p in fcal_sim("--list-params", "--json").json}


@pytest.fixture(scope="module")
def al_pas(bin_dir):
    """The valid AL_PAs as the model lists them, but 0x00, the FL_Port's."""
    out = subprocess.run([os.path.join(bin_dir, "fcal-codec"), "al-pa"], capture_output=True, text=True,
                         check=True).stdout
    values = [int(line.split(",")[0], 16) for line in out.split()[1:]]
    values.remove(0x00)
    assert len(values) == 126, f"{len(values)} AL_PAs besides 0x00, expected 126"
    return values


def config(seed, params, al_pas):
    r = random.Random(seed)
    disks = r.randint(1, 8)
    rtl, faults = r.random() < 0.15, r.random() < 0.25
    d = drawn(r, disks, rtl, faults, params)
    c = {k: v for k, v in d.items() if v is not None}
    for key, p in params.items():
        if key not in d and key not in HELD and (value := declared(r, p, al_pas)) is not None:
            c[key] = value
    for key, value in c.items():
        check(key, value, params)
    return c


def test_held_keys_are_parameters(params):
    for key in HELD:
        assert key in params, f"{key}: held here but fcal-sim --list-params --json does not list it"


@pytest.mark.parametrize("seed", range(FIRST, FIRST + COUNT))
def test_random_configuration_runs_to_completion(fcal_sim, tmp_path, params, al_pas, seed):
    c = config(seed, params, al_pas)
    (tmp_path / "c.json").write_text(json.dumps(c, indent=1, sort_keys=True))
    what = f"random configuration {seed} ({json.dumps(c, sort_keys=True)})"
    run = fcal_sim("--config", tmp_path / "c.json", "--stats-json", tmp_path / "out.json", "--quiet", timeout=120)
    assert run.code == 0, f"{what}: exit code {run.code}: {run.err[:3000]}"
    # With bit errors, failed I/Os are named in one line on stderr; nothing else may be there.
    other = [line for line in run.err.splitlines()
             if not ("loop.ber" in c and re.match(r"fcal-sim: [0-9]* I/Os failed", line))]
    assert not other, f"{what}: stderr: {run.err[:3000]}"
    r = load_results(tmp_path / "out.json")["results"]
    assert r["run_end"] == "completed", f"{what}: run_end {r['run_end']}"
    assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], f"{what}: the account"
    assert r["outstanding_ios"] == 0, f"{what}: {r['outstanding_ios']} outstanding"
    total = 2 * c["workload.warmup_ios"] + c["workload.measured_ios"]
    assert r["issued_ios"] == total, f"{what}: issued {r['issued_ios']}, expected 2 x warm-up + measured = {total}"
    if r["failed_ios"] > 0:
        # Failed I/Os are not completions: the window may not fill, so only the account is checked.
        assert "loop.ber" in c, f"{what}: I/Os failed without bit errors: {r['failures']}"
        return
    assert r["measured_ios"] == c["workload.measured_ios"], f"{what}: measured {r['measured_ios']}"
    assert sum(d["ios"] for d in r["disks"]) == r["measured_ios"], f"{what}: per-disk I/Os do not add up"
    assert r["reads"] + r["writes"] == r["measured_ios"], f"{what}: reads + writes != measured"
    if c["workload.read_fraction"] == 0:
        assert r["reads"] == 0, f"{what}: reads with read_fraction 0"
    if c["workload.read_fraction"] == 1:
        assert r["writes"] == 0, f"{what}: writes with read_fraction 1"
