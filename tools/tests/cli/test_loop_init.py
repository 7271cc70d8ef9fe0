"""fcal-sim with loop initialization (docs/loop_init.md, "Initialization in the running loop";
docs/faults.md, "Scheduled events"): a `lip` event under load ends with the I/O account balanced and the
loop working afterwards, same seed same results; loop.initialize_at_start and the port names; bad `lip`
events and keys exit 2 naming the key.

The expected initialization times come from the formula of docs/loop_init.md, "Initialization time",
computed here from the line rate, cable, port delay and processing time: with the originator as master
T = 4 w + N (212 w + 10 c + 7 p); in general the sum of its phases. Nothing is taken from the output."""
from __future__ import annotations

import pytest

from conftest import balanced, expect_refused, load_results, sets

W = 40 / 2.125e9          # 2GFC word time
C = 2.0 * 5e-9            # the default 2 m cable at 5 ns/m
H = 6 * W + C             # one hop on the repeat path: 6 words of port delay and its cable
P = 1e-6                  # loop.init_frame_proc_us's default
# Disk AL_PAs in the order the builder gives them (loop_IDs from 0, skipping the controller's 0x01).
DISK_AL_PAS = ["0xEF", "0xE8", "0xE4", "0xE2", "0xE1", "0xE0", "0xDC", "0xDA"]

LOADED = [*sets("disk.count=8", "workload.io_size=64K", "disk.access_ms=0.1", "disk.rate_mbs=400",
                "workload.queue_depth=4", "workload.measured_ios=1500", "workload.warmup_ios=100",
                "initiator.exchange_timeout_ms=20"), "--quiet"]
LIP = sets("event.0.at_ms=3.0013", "event.0.kind=lip")


def formula_s(n: int, k: int = 0, p: float = P) -> float:
    """docs/loop_init.md, "Initialization time": N ports, the master k ports downstream of the originator."""
    r = n * H
    trip = lambda words: n * (words * W + p) + r  # noqa: E731
    return max(r + 2 * W + 2 * W, 12 * W) + (n + k) * (12 * W + p) + r + k * H + r + 4 * trip(14) + 2 * trip(42) + r


def test_formula_closed_form() -> None:
    for n in (3, 17, 64, 127):
        assert formula_s(n) == pytest.approx(4 * W + n * (212 * W + 10 * C + 7 * P), rel=1e-12)


def test_lip_under_load_recovers_and_repeats(fcal_sim, tmp_path) -> None:
    runs = []
    for name in ("a.json", "b.json"):
        r = fcal_sim(*LOADED, *LIP, "--stats-json", tmp_path / name, timeout=300)
        assert r.code == 0, f"a lip under load: exit {r.code}: {r.err}"
        runs.append(load_results(tmp_path / name))
    assert runs[0] == runs[1], "a lip under load, repeated with the same seed: the results differ"
    res = runs[0]["results"]
    assert balanced(res), "the I/O account after a lip"
    assert res["failed_ios"] == 0 and res["outstanding_ios"] == 0, f"failed {res['failed_ios']}: {res['failures']}"
    assert res["loop_initializations"] == 1
    (init,) = res["loop_init"]
    assert init["start_us"] == pytest.approx(3001.3)
    assert init["cause"] == "event.0: lip from the controller"
    assert init["complete"] and init["lip_count"] == 1 and init["master_al_pa"] == "0x01"
    # Nine ports (the controller and 8 disks): at least the formula's time (a port finishes the frame
    # it is sending before its LIPs).
    assert init["duration_us"] >= formula_s(9) * 1e6 - W * 1e6
    assert res["loop_down_us"] == pytest.approx(init["duration_us"])
    assert [(a["port"], a["al_pa"], a["how"]) for a in init["al_pas"]] == \
        [("controller", "0x01", "hard")] + [(f"disk{d}", DISK_AL_PAS[d], "hard") for d in range(8)]
    # The loop works afterwards: every I/O completed, the last ones long after the initialization.
    assert res["sim_time_s"] * 1e6 > init["start_us"] + 10 * init["duration_us"]


def test_lip_from_a_disk(fcal_sim) -> None:
    r = fcal_sim(*LOADED, *LIP, *sets("event.0.disk=5", "event.1.at_ms=6", "event.1.kind=lip", "event.1.disk=5"),
                 "--stats-json", "-")
    assert r.code == 0, r.err
    res = r.results
    assert balanced(res) and res["failed_ios"] == 0
    assert res["loop_initializations"] == 2
    assert [i["cause"] for i in res["loop_init"]] == ["event.0: lip from disk 5", "event.1: lip from disk 5"]
    # The second time every port claims its AL_PA again in LIPA.
    assert {a["how"] for a in res["loop_init"][1]["al_pas"]} == {"previous"}
    assert res["loop_down_us"] == pytest.approx(sum(i["duration_us"] for i in res["loop_init"]))


def test_initialize_at_start_takes_the_formula_time(fcal_sim) -> None:
    base = [*sets("disk.count=4", "workload.measured_ios=200", "loop.initialize_at_start=true"), "--quiet",
            "--stats-json", "-"]
    res = fcal_sim(*base).results
    assert balanced(res) and res["completed_ios"] == res["issued_ios"]
    (init,) = res["loop_init"]
    assert init["cause"] == "loop.initialize_at_start" and init["start_us"] == 0
    # An idle loop at t=0: the formula, within a tenth of a word (picosecond rounding).
    assert abs(init["duration_us"] - formula_s(5) * 1e6) <= 0.1 * W * 1e6
    # loop.init_frame_proc_us is every port's p.
    res = fcal_sim(*base, *sets("loop.init_frame_proc_us=5")).results
    assert abs(res["loop_init"][0]["duration_us"] - formula_s(5, p=5e-6) * 1e6) <= 0.1 * W * 1e6
    # The lowest port name wins master selection: disk 2's (ring position 3, 3 ports downstream of the
    # controller, which originates).
    res = fcal_sim(*base, *sets("disk.2.port_name=1")).results
    (init,) = res["loop_init"]
    assert init["master_al_pa"] == DISK_AL_PAS[2]
    assert abs(init["duration_us"] - formula_s(5, k=3) * 1e6) <= 0.1 * W * 1e6
    # Without it, nothing initializes.
    res = fcal_sim(*base[:-3], *sets("loop.initialize_at_start=false"), "--stats-json", "-").results
    assert res["loop_initializations"] == 0 and res["loop_init"] == [] and res["loop_down_us"] == 0


@pytest.mark.parametrize("needle, what, args", [
    ("event.0.disk: disk 4 does not exist", "a lip from a disk that does not exist",
     sets("event.0.at_ms=5", "event.0.kind=lip", "event.0.disk=4")),
    ("event.0.at_ms", "a lip beyond the run", sets("sim.time_limit_s=1", "event.0.at_ms=1000", "event.0.kind=lip")),
    ("event.0.at_ms", "a lip without its time", sets("event.0.kind=lip")),
    ("event.0.kind", "a lip over the ideal transport", sets("event.0.at_ms=5", "event.0.kind=lip", "transport=ideal")),
    ("event.1.disk: lip from disk 1, whose port is off the loop at that time (disk 1 is failed)", "a lip from a failed port",
     sets("event.0.at_ms=5", "event.0.kind=fail", "event.0.failure=port", "event.0.disk=1",
          "event.1.at_ms=6", "event.1.kind=lip", "event.1.disk=1")),
    ("loop.init_frame_proc_us", "a negative processing time", sets("loop.init_frame_proc_us=-1")),
    ("loop.initialize_at_start", "not a boolean", sets("loop.initialize_at_start=maybe")),
    ("disk.1.port_name", "a port name that is no number", sets("disk.1.port_name=0x10")),
    ("disk.3.port_name: 7 is already the port name of disk.1.port_name", "two disks with one port name",
     sets("disk.1.port_name=7", "disk.3.port_name=7")),
    ("disk.0.port_name", "a disk with the controller's port name",
     sets("initiator.port_name=9", "disk.0.port_name=9")),
    ("initiator.port_name", "a negative port name", sets("initiator.port_name=-1")),
], ids=lambda v: v if isinstance(v, str) and " " in v else None)
def test_bad_lip_events_and_keys_are_refused(fcal_sim, needle, what, args) -> None:
    expect_refused(fcal_sim(*sets("disk.count=4", "workload.measured_ios=200"), "--quiet", *args), needle, what)


def test_a_lip_on_the_second_loop_initializes_that_loop_alone(fcal_sim) -> None:
    # docs/faults.md, "Scheduled events": with two loops a lip names its loop; the other loop goes on.
    base = [*LOADED, *sets("loop.count=2", "driver.multipath=round_robin")]
    res = fcal_sim(*base, *LIP, *sets("event.0.loop=1"), "--stats-json", "-").results
    assert balanced(res) and res["failed_ios"] == 0 and res["outstanding_ios"] == 0
    (init,) = res["loop_init"]
    assert init["loop"] == 1 and init["complete"] and init["master_al_pa"] == "0x01"
    assert init["duration_us"] >= formula_s(9) * 1e6 - W * 1e6
    assert res["loop_down_us"] == pytest.approx(init["duration_us"])
    assert all(l["state"] == "up" and l["iops"] > 0 for l in res["loops"])
    # Without the loop key a lip is loop 0's; a loop that does not exist is refused.
    assert fcal_sim(*base, *LIP, "--stats-json", "-").results["loop_init"][0]["loop"] == 0
    r = fcal_sim(*base, *LIP, *sets("event.0.loop=2"))
    assert r.code == 2 and "event.0.loop" in r.err
