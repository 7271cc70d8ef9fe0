"""fcal-sim: loop initializations that meet other events in the same instant or a few microseconds apart
(docs/loop_init.md, "The LPSM in initialization", "Initialization in the running loop", "Port bypass
circuits"). Each case is a run the probe of docs/faults.md, "Known problems" found ending on an internal error
or with an initialization that never completed; each must now end (exit 0) with the I/O account balanced and
every initialization complete, and its trace must show what FC-AL-2 asks for.

- A `lip` while the same port, as originator, waits for its LISM with the last of its LIPs still coming back
  (the controller, 10 us after a first `lip`): it originates again. Its LISM must wait for its minimum of 12
  LIPs (docs/loop_init.md, "Initialization in the running loop", Answers), and every other port, seeing those
  LIPs, starts again: one LISM goes round, not two.
"""
from __future__ import annotations

from pathlib import Path

from conftest import load_results, sets

# FC-AL-2's minimum of LIPs an originator sends before its LISM (docs/loop_init.md, "Sources").
MIN_LIPS = 12


def run(fcal_sim, tmp_path: Path, *settings: str, trace: bool = False) -> dict:
    """The run's results; its port trace, one list of fields per line, under "trace" if asked for."""
    out = tmp_path / "r.json"
    args = [*sets(*settings), "--quiet", "--stats-json", out]
    if trace:
        args += ["--trace", tmp_path / "t.trace"]
    r = fcal_sim(*args, timeout=300)
    assert r.code == 0, f"exit {r.code}: {r.err[-2000:]}"
    res = load_results(out)["results"]
    assert res["issued_ios"] == res["completed_ios"] + res["failed_ios"] + res["outstanding_ios"], "the I/O account"
    assert res["outstanding_ios"] == 0
    for init in res["loop_init"]:
        assert init["complete"], f"an initialization never completed: {init}"
    if trace:
        # "time_ns AL_PA STATE words_lasted FROM=>TO" (docs/cli.md, --trace).
        res["trace"] = [line.split() for line in (tmp_path / "t.trace").read_text().splitlines()]
    return res


def changes(trace: list[list[str]], al_pa: str, after_ns: float) -> list[tuple[float, int, str, str]]:
    """What the port at `al_pa` transmitted after `after_ns`: (time, words the old word lasted, old, new)."""
    out = []
    for f in trace:
        if f[1] == al_pa.removeprefix("0x").upper() and float(f[0]) > after_ns:
            old, new = f[4].split("=>")
            out.append((float(f[0]), int(f[3]), old, new))
    return out


# docs/faults.md, "Known problems": disk 1 pulled and put back, the loop initializing after its bypass closed,
# then a `lip` from the controller at 5.66 ms and another at 5.67 ms, while its first LIPs are still coming back.
SECOND_LIP_WHILE_ORIGINATING = ("disk.count=3", "workload.read_fraction=0.22", "initiator.dma_mbs=200",
                                "initiator.dma_policy=round_robin", "loop.bypass_detect_us=5000", "workload.measured_ios=1",
                                "event.0.at_ms=0.55", "event.0.kind=remove", "event.0.disk=1",
                                "event.1.at_ms=5.56", "event.1.kind=insert", "event.1.disk=1",
                                "event.2.at_ms=5.66", "event.2.kind=lip", "event.3.at_ms=5.67", "event.3.kind=lip")


def test_a_second_lip_while_originating_sends_the_minimum_of_lips_and_every_port_starts_again(fcal_sim, tmp_path):
    # Before: the controller took the last of its first LIPs, still arriving, for its new ones back and sent
    # its LISM at once, without a LIP: the disks, having seen no new LIP, got two LISMs, and disk 0 stopped
    # the run ("an answer arrived while the last one was still to be sent", exit 5).
    res = run(fcal_sim, tmp_path, *SECOND_LIP_WHILE_ORIGINATING, trace=True)
    assert res["failed_ios"] == 0
    lip_init = res["loop_init"][-1]
    assert lip_init["cause"].startswith("event.2") and lip_init["lip_count"] == 2  # the second lip joins it
    assert {a["port"] for a in lip_init["al_pas"]} == {"controller", "disk0", "disk1", "disk2"}

    second_ns = 5.67e6
    ctrl = changes(res["trace"], "0x01", second_ns - 1)
    # The controller's first word from the second lip on: LIPs, at least the minimum of them, then its LISM.
    lip_at = next(i for i, c in enumerate(ctrl) if c[3].startswith("LIP("))
    assert ctrl[lip_at][0] == second_ns, f"the controller sent no LIP at the second lip: {ctrl[:4]}"
    lism_at = next(i for i, c in enumerate(ctrl) if c[3] == "SOFil(LISM)")
    assert lism_at > lip_at
    lips = sum(c[1] for c in ctrl[lip_at + 1:lism_at + 1] if c[2].startswith("LIP("))
    assert lips >= MIN_LIPS, f"the LISM after {lips} LIPs: {ctrl[lip_at:lism_at + 1]}"
    # Every disk repeats those LIPs (it starts again) before it forwards a LISM, and forwards one LISM only
    # until the master's ARB(F0).
    for al_pa in ("0xEF", "0xE8", "0xE4"):
        disk = changes(res["trace"], al_pa, second_ns)
        first_lip = next(i for i, c in enumerate(disk) if c[3].startswith("LIP("))
        first_lism = next(i for i, c in enumerate(disk) if c[3] == "SOFil(LISM)")
        arb_f0 = next(i for i, c in enumerate(disk) if c[3] == "ARB(F0)")
        assert first_lip < first_lism < arb_f0, f"{al_pa}: {disk[:first_lism + 1]}"
        assert sum(c[3] == "SOFil(LISM)" for c in disk[:arb_f0]) == 1, f"{al_pa} forwarded more than one LISM"
