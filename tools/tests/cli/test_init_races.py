"""fcal-sim: loop initializations that meet other events in the same instant or a few microseconds apart
(docs/loop_init.md, "The LPSM in initialization", "Initialization in the running loop", "Port bypass
circuits"). Each case is a run the probe of random fault events (docs/faults.md, its known problems) found
ending on an internal error or with an initialization that never completed; each must now end (exit 0) with
the I/O account balanced and every initialization complete, and its trace must show what FC-AL-2 asks for.

- A `lip` while the same port, as originator, waits for its LISM with the last of its LIPs still coming back
  (the controller, 10 us after a first `lip`): it originates again. Its LISM must wait for its minimum of 12
  LIPs (docs/loop_init.md, "Initialization in the running loop", Answers), and every other port, seeing those
  LIPs, starts again: one LISM goes round, not two.
- LIPs lost in an open loop (docs/loop_init.md, "Port bypass circuits"). A port that starts LIP(F7,F7) while
  the loop is open (the slot after it emptied, or the cable cut after the controller, in the same instant)
  never sees those LIPs back. When another port's LIP(F7,F7) later comes round (a disk put into its slot, the
  port after the cut that initializes), it must repeat it: taking it for its own back, it removed it, its
  sender never saw its LIPs back and stayed INITIALIZING, and the loop never came up. A port put into its slot
  gets its AL_PA from a fresh initialization that it originates.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ended_balanced, failed_disks, fast_and_traced, sets

# FC-AL-2's minimum of LIPs an originator sends before its LISM (docs/loop_init.md, "Sources").
MIN_LIPS = 12


def run(fcal_sim, tmp_path: Path, *settings: str, trace: bool = False) -> dict:
    """The run's results: it ends by itself with the I/O account balanced, nothing outstanding and every
    initialization complete. With `trace`, traced and untraced alike, and the port trace, one list of fields per
    line, under "trace"."""
    args = [*sets(*settings), "--quiet"]
    res = fast_and_traced(fcal_sim, tmp_path, *args) if trace else ended_balanced(fcal_sim, tmp_path / "r.json", *args)
    assert res["outstanding_ios"] == 0
    for init in res["loop_init"]:
        assert init["complete"], f"an initialization never completed: {init}"
    if trace:
        # "time_ns AL_PA STATE words_lasted FROM=>TO" (docs/cli.md, --trace).
        res["trace"] = [line.split() for line in (tmp_path / "full.trace").read_text().splitlines()]
    return res


def changes(trace: list[list[str]], al_pa: str, after_ns: float, loop: int | None = None) -> list[tuple[float, int, str, str]]:
    """What the port at `al_pa` transmitted after `after_ns`: (time, words the old word lasted, old, new). With
    two loops each line names its loop after the time (docs/cli.md, --trace): `loop` picks one."""
    out = []
    for f in trace:
        if loop is not None:
            if f[1] != f"loop{loop}":
                continue
            f = [f[0], *f[2:]]
        if f[1] == al_pa.removeprefix("0x").upper() and float(f[0]) > after_ns:
            old, new = f[4].split("=>")
            out.append((float(f[0]), int(f[3]), old, new))
    return out


def originates(chs: list[tuple[float, int, str, str]], lip: str) -> bool:
    """The port's LIPs came back: it stops them (IDLE) and sends its LISM."""
    return any(a[2:] == (lip, "IDLE") and b[2:] == ("IDLE", "SOFil(LISM)") for a, b in zip(chs, chs[1:]))


# From docs/faults.md's known problems: disk 1 pulled and put back, the loop initializing after its bypass closed,
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


# From docs/faults.md's known problems: disk 3 pulled and, in the same instant, a `lip` from disk 2, the port before
# the emptied slot; disk 3 put back once the bypass closed, while the loop initializes without it. Also with
# the `lip` first, and from the other disks (their LIPs reach the slot too).
@pytest.mark.parametrize("lip_disk, lip_first", [(2, False), (2, True), (1, False), (0, True)])
def test_a_port_put_back_originates_although_a_lip_was_lost_in_its_empty_slot(fcal_sim, tmp_path, lip_disk, lip_first):
    remove, lip = (1, 0) if lip_first else (0, 1)
    res = run(fcal_sim, tmp_path, "disk.count=4", "workload.measured_ios=1", "loop.bypass_detect_us=1000",
              f"event.{remove}.at_ms=20.1", f"event.{remove}.kind=remove", f"event.{remove}.disk=3",
              f"event.{lip}.at_ms=20.1", f"event.{lip}.kind=lip", f"event.{lip}.disk={lip_disk}",
              "event.2.at_ms=21.11", "event.2.kind=insert", "event.2.disk=3", trace=True)
    assert res["failed_ios"] == 0
    assert [d["state"] for d in res["disks"]] == ["present"] * 4
    # The insert comes while the loop initializes after the bypass closed: that initialization starts again
    # and takes disk 3 in, with its hard AL_PA.
    (init,) = res["loop_init"]
    assert {a["port"]: (a["al_pa"], a["how"]) for a in init["al_pas"]}["disk3"] == ("0xE2", "hard")
    # Up within an initialization's time of the insert (tens of microseconds for 5 ports), not after E_D_TOV
    # (2 s) restarted it: before the fix of the answer's timing it never came up, with it after 12 s.
    assert 21.11e3 < init["start_us"] + init["duration_us"] < 21.11e3 + 1e3
    insert_ns = 21.11e6
    assert originates(changes(res["trace"], "0xE2", insert_ns - 1), "LIP(F7,F7)"), "disk 3 did not originate"
    for al_pa in ("0x01", "0xEF", "0xE8", "0xE4"):
        chs = changes(res["trace"], al_pa, insert_ns)
        assert chs and chs[0][3] in ("LIP(F7,F7)", "SOFil(LIFA)"), f"{al_pa}: {chs[:2]}"
        assert "LIP(F7,F7)" in [c[3] for c in chs[:2]], f"{al_pa} did not repeat disk 3's LIPs: {chs[:3]}"


# From docs/faults.md's known problems: loop 0's cable cut after the controller in the instant the controller
# starts LIP(F7,F7) (after its LPB to disk 1, or a `lip` of its own), disk 0 (after the cut) sends LIP(F8) and,
# at 3.1 ms, LIP(F7,F7) for a `lip`; the cable mended at 4 ms.
@pytest.mark.parametrize("controller_lip", [
    ("event.0.kind=bypass", "event.0.disk=1"),
    ("event.0.kind=lip",),
])
def test_the_port_after_a_cut_originates_although_the_controllers_lip_was_lost_in_the_cut(fcal_sim, tmp_path,
                                                                                        controller_lip):
    res = run(fcal_sim, tmp_path, "loop.count=2", "loop.bypass_detect_us=100", "event.0.at_ms=3.05", *controller_lip,
              "event.1.at_ms=3.05", "event.1.kind=loop_fail", "event.1.loop=0",
              "event.2.at_ms=3.1", "event.2.kind=lip", "event.2.disk=0",
              "event.3.at_ms=4", "event.3.kind=loop_restore", "event.3.loop=0", trace=True)
    loop0 = [i for i in res["loop_init"] if i["loop"] == 0]
    assert len(loop0) == 1 and loop0[0]["start_us"] == pytest.approx(3050)
    # Up within an initialization's time (well under a millisecond for 16 ports) of the mend, not after E_D_TOV.
    assert 4000 < loop0[0]["start_us"] + loop0[0]["duration_us"] < 5000
    ports = {a["port"] for a in loop0[0]["al_pas"]}
    assert {"controller", "disk0", "disk2", "disk15"} <= ports
    assert res["failed_ios"] <= 4 and all("disk 1" in f for f in res["failures"]), res["failures"]
    # Disk 0's LIP(F7,F7) comes back once the cable is mended (the controller repeats it): disk 0 originates.
    mend_ns = 4e6
    assert originates(changes(res["trace"], "0xEF", mend_ns - 1, loop=0), "LIP(F7,F7)"), "disk 0 did not originate"
    ctrl = changes(res["trace"], "0x01", mend_ns - 1, loop=0)
    assert ctrl[0][2] == "LIP(F7,F7)" and ctrl[0][3] == "IDLE", f"the controller did not repeat disk 0's LIPs: {ctrl[:2]}"


# From the probe of random fault events: disk 1's port fails (the loop breaks at its slot; disk 2, after it, sends
# LIP(F8,0xE4)), and 0.2 ms later disk 2 is bypassed while the slot is still open. Its LIP(F8,0xE4) fills the loop,
# but its sender, the only port that removes it, is out of the loop: once disk 1's bypass closes (100 ms) every
# port waits in OPEN-INIT repeating it until E_D_TOV (2 s). Before, a port whose E_D_TOV ran out took that LIP run,
# still arriving, at once and joined it again as a repeater without sending a LIP of its own: the loop stayed in
# initialization for ever (every I/O failed after its retries, none completed). Now it abandons that run and sends
# its own LIP, which replaces the orphaned one: the loop initializes without disks 1 and 2, one E_D_TOV after the
# bypass closed.
def test_a_lip_whose_sender_was_bypassed_is_replaced_after_e_d_tov(fcal_sim, tmp_path):
    res = run(fcal_sim, tmp_path, "disk.count=4", "workload.measured_ios=20", "initiator.exchange_timeout_ms=3000",
              "event.0.at_ms=2", "event.0.kind=fail", "event.0.failure=port", "event.0.disk=1",
              "event.1.at_ms=2.2", "event.1.kind=bypass", "event.1.disk=2")
    assert len(res["loop_init"]) == 1
    init = res["loop_init"][0]
    assert init["start_us"] == pytest.approx(2000)
    # The bypass closes at 102 ms; E_D_TOV (2 s) later the ports initialize again, in well under a millisecond.
    end_us = init["start_us"] + init["duration_us"]
    assert 2.102e6 < end_us < 2.103e6, end_us
    assert {a["port"] for a in init["al_pas"]} == {"controller", "disk0", "disk3"}
    assert res["completed_ios"] > 0
    # Only the I/Os to disks 1 and 2, out of the loop, fail.
    assert all("disk 1" in f or "disk 2" in f for f in res["failures"]), res["failures"]


# From docs/faults.md's known problems: a `lip` from every port in one instant while the controller sends a frame.
# A word is never cut (docs/loop_init.md, "Initialization in the running loop"), so the controller's first LIP
# leaves only when its frame ends; disk 1's LIP(F7,F7) reaches it before that. Before, the controller counted its
# LIPs as sent from the `lip` on, took disk 1's LIP(F7,F7) for its own back and originated, then got disk 1's LISM
# with its own still unsent ("an answer arrived while the last one was still to be sent", exit 5). A LIP is a port's
# own back only once the port has sent it (docs/loop_init.md, "The LPSM in initialization"). Untraced, disk 1 also
# counted its minimum of LIPs from the end of an R_RDY it had sent long before (a port on the fast path takes note
# of its last word's end only in its next run), and sent its LISM after fewer than 12 LIPs: the traced and untraced
# results differed.
LIP_FROM_EVERY_PORT_IN_ONE_INSTANT = ("disk.count=2", "workload.read_fraction=0.5", "workload.queue_depth=2",
                                      "workload.measured_ios=1", "loop.bypass_detect_us=100",
                                      "event.0.at_ms=1.01", "event.0.kind=lip",
                                      "event.1.at_ms=1.01", "event.1.kind=lip", "event.1.disk=0",
                                      "event.2.at_ms=1.01", "event.2.kind=lip", "event.2.disk=1")


def test_a_lip_that_arrives_before_the_ports_own_lip_left_is_another_ports(fcal_sim, tmp_path):
    fast = run(fcal_sim, tmp_path, *LIP_FROM_EVERY_PORT_IN_ONE_INSTANT, trace=True)
    trace = fast.pop("trace")
    assert fast["failed_ios"] == 0 and fast["completed_ios"] == fast["issued_ios"]
    (init,) = fast["loop_init"]
    assert init["start_us"] == pytest.approx(1010)
    assert {a["port"] for a in init["al_pas"]} == {"controller", "disk0", "disk1"}
    assert init["master_al_pa"] == "0x01"  # the lowest port name (docs/loop_init.md, "Master selection")
    lip_ns = 1.01e6
    # The controller ends its frame before anything else.
    ctrl = changes(trace, "0x01", lip_ns - 1)
    assert ctrl[0][2].startswith("SOF"), f"the controller was not sending a frame at the lip: {ctrl[:2]}"
    # An originator stops its LIPs and sends its LISM after the two fill words of word spacing (a port answering a
    # LISM waits its processing time, 1 us, some 50 words), and only after at least 12 LIPs of its own.
    originated = 0
    for al_pa in ("0x01", "0xEF", "0xE8"):
        chs = changes(trace, al_pa, lip_ns - 1)
        for a, b in zip(chs, chs[1:]):
            if a[2].startswith("LIP(") and a[3] == "IDLE" and b[2:] == ("IDLE", "SOFil(LISM)") and b[1] <= 2:
                originated += 1
                assert a[1] >= MIN_LIPS, f"{al_pa} sent its LISM after {a[1]} LIPs at {b[0]} ns"
    assert originated > 0


# From docs/faults.md's known problems: disk 2 pulled, disk 0 and then disk 3 bypassed while the slot was open; disk 3,
# the port after the slot, was sending LIP(F8,0xE2) (docs/loop_init.md, "Port bypass circuits"), and only it removes
# those LIPs. Disk 2 put back: its LIP(F7,F7) and the orphaned LIP(F8,0xE2) went round together, each port starting
# the procedure again at every run of LIP(F8,0xE2) that came round, and every word restarting E_D_TOV: the run
# crawled (about 17 simulated seconds in 300 s of wall time) and the loop never came up. A LIP run arriving again is no
# progress, nor are fill words: E_D_TOV (2 s, docs/loop_init.md, "Timers") runs out, the ports send LIPs of their own,
# which replace the orphaned ones, and the loop comes up without disk 3.
def test_an_orphaned_lip_going_round_with_others_ends_after_e_d_tov(fcal_sim, tmp_path):
    e_d_tov_us = 2e6
    last_event_us = 12.77e3
    res = run(fcal_sim, tmp_path, "disk.count=4", "workload.read_fraction=0", "workload.io_size=1024",
              "workload.queue_depth=1", "workload.measured_ios=400", "workload.warmup_ios=40", "workload.seed=707001",
              "initiator.dma_sched_us=0", "initiator.dma_policy=round_robin", "schedule=cmdf", "cmdf.arbitration=false",
              "initiator.max_payload=100", "initiator.incoming_buffers=1", "target.incoming_buffers=4",
              "initiator.full_duplex=true", "initiator.exchange_timeout_ms=100", "initiator.abts_timeout_ms=5",
              "target.data_timeout_ms=3", "loop.bypass_detect_us=200",
              "event.0.at_ms=12.1", "event.0.kind=lip", "event.1.at_ms=12.15", "event.1.kind=remove", "event.1.disk=2",
              "event.2.at_ms=12.25", "event.2.kind=bypass", "event.2.disk=0",
              "event.3.at_ms=12.35", "event.3.kind=bypass", "event.3.disk=3",
              "event.4.at_ms=12.35", "event.4.kind=lip", "event.5.at_ms=12.45", "event.5.kind=lip",
              "event.6.at_ms=12.55", "event.6.kind=lip", "event.6.disk=1", "event.7.at_ms=12.56", "event.7.kind=lip",
              "event.8.at_ms=12.76", "event.8.kind=enable", "event.8.disk=0",
              "event.9.at_ms=12.77", "event.9.kind=insert", "event.9.disk=2",
              "sim.time_limit_s=3")  # before: still crawling at 3 s (exit 1)
    (init,) = res["loop_init"]
    end_us = init["start_us"] + init["duration_us"]
    # Up one E_D_TOV after the last event (the inserted disk's LIP(F7,F7) reaching every port is progress), and an
    # initialization's time after that (well under a millisecond for 4 ports).
    assert last_event_us + e_d_tov_us < end_us < last_event_us + e_d_tov_us + 1e3, end_us
    assert {a["port"] for a in init["al_pas"]} == {"controller", "disk0", "disk1", "disk2"}
    assert res["completed_ios"] > 0
    # Failed I/Os (their exchanges timed out while the loop was down, to any disk) each name their disk and a
    # reason.
    failed_disks(res)


# Two runs of a probe of random `lip`, `remove` and `bypass`/`enable` events in one instant to 50 us apart
# (docs/faults.md, "Known problems") that ended on an internal error (exit 5). In the first,
# three ports sent LIP(F7,F7) at once, each originated, and the controller, its own LISM still to be sent, got another
# higher LISM to replace with its own: "an answer arrived while the last one was still to be sent". A port in master
# selection now sends one of two answers, the lower LISM or ARB(F0) (docs/loop_init.md, "Simplifications"). In the
# second, disk 0, in a circuit, missed a LIP run cut short by disk 2's bypass and took the LISM behind it, whose
# D_ID 0000EF is a mark, for a frame to its AL_PA EF: its FCP layer got a frame that carries no FC frame. A port in a
# circuit now discards a loop initialization frame. Both must end normally, every initialization complete (each
# after E_D_TOV twice: docs/faults.md's first known problem).
PROBE_INTERNAL_ERRORS = {
    "two LISM answers": ("disk.count=3", "workload.read_fraction=0", "workload.queue_depth=2", "workload.measured_ios=20",
                         "workload.warmup_ios=5", "workload.seed=7", "loop.bypass_detect_us=100",
                         "event.0.at_ms=0.6811", "event.0.kind=lip", "event.0.disk=1",
                         "event.1.at_ms=0.6811", "event.1.kind=lip", "event.1.disk=0",
                         "event.2.at_ms=0.6821", "event.2.kind=lip", "event.2.disk=2",
                         "event.3.at_ms=0.6821", "event.3.kind=lip", "event.3.disk=1",
                         "event.4.at_ms=0.6821", "event.4.kind=lip"),
    "LISM in a circuit": ("disk.count=4", "workload.read_fraction=0", "workload.queue_depth=4", "workload.measured_ios=20",
                          "workload.warmup_ios=5", "workload.seed=141", "loop.bypass_detect_us=1000",
                          "event.0.at_ms=0.9434", "event.0.kind=lip", "event.0.disk=1",
                          "event.1.at_ms=0.9435", "event.1.kind=lip", "event.1.disk=2",
                          "event.2.at_ms=0.9435", "event.2.kind=bypass", "event.2.disk=2",
                          "event.3.at_ms=0.9435", "event.3.kind=lip", "event.3.disk=3",
                          "event.4.at_ms=0.9444", "event.4.kind=lip", "event.4.disk=3",
                          "event.5.at_ms=0.9444", "event.5.kind=lip", "event.5.disk=1"),
}


@pytest.mark.parametrize("what", sorted(PROBE_INTERNAL_ERRORS))
def test_probe_runs_that_ended_on_an_internal_error_end_normally(fcal_sim, tmp_path, what):
    res = run(fcal_sim, tmp_path, *PROBE_INTERNAL_ERRORS[what], trace=True)
    assert res["completed_ios"] + res["failed_ios"] == res["issued_ios"]
    assert res["loop_init"], "no initialization ran"
