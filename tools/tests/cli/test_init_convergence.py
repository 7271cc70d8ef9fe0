"""fcal-sim: loop initialization converges under bit errors, and an originator sends its minimum of LIPs
(docs/loop_init.md, "Timers", "The LPSM in initialization", "Initialization time").

A controller and 7 disks initialize at t=0 with loop.ber = 6.33e-6 (the random configuration 1096 of
test_random_configs.py that found the livelock). A bit error in an LI frame loses that attempt: every port waits
E_D_TOV (2 s, FC-FS's default) and initializes again. Each attempt succeeds independently of the others, so the
number of failed attempts before the initialization completes is geometric, and the initialization must complete.

Expectations from first principles:
- a word is hit with p_w = 1 - (1 - ber)^40; an LI frame of F words crossing one link is lost with
  1 - (1 - p_w)^F. Every port stores and forwards each LI frame, so in one attempt each frame crosses each of the
  ring's L links once: LIFA, LIPA, LIHA, LISA (14 words), LIRP, LILP (42 words) and the LISMs, 12 words over
  between L (the originator is the master) and 2 L links (master selection takes at most two trips): between
  152 L and 164 L word transmissions, the attempt succeeds with at least ps = (1 - p_w)^(164 L). (LIPs, ARB(F0)
  and CLS are primitives the model does not lose in initialization.)
- a failed attempt costs E_D_TOV plus less than one attempt, so the failed attempts of a run are
  floor(duration / E_D_TOV);
- per seed, K or more failures in a row have probability (1 - ps)^K: the bound K is taken where that is below
  1e-4; over S seeds the total of failures has mean S (1 - ps) / ps and variance S (1 - ps) / ps^2: it must lie
  within 5 standard deviations of the mean (and above 0, or no LI frame was ever hit).
Before the fix (docs/loop_init.md, "Simplifications") the LI frames were hit over the links from the port at
AL_PA EF (their header's address) and an originator whose LIPs came back within a few words stopped them before
the ports downstream could recognise them: the loop stayed in initialization for ever.
"""
from __future__ import annotations

import math

from conftest import load_results, sets
from fcal_tools.lip_sweep import WORD_S, after_lips_s

BER = 6.33e-6
DISKS = 7
LINKS = DISKS + 1           # loop.nodes: the controller and the disks, no passive nodes
E_D_TOV_S = 2.0             # PortConfig::e_d_tov_s, FC-FS's default
SEEDS = range(1, 21)


def attempt_success() -> float:
    p_w = 1 - (1 - BER) ** 40
    return (1 - p_w) ** (164 * LINKS)


def failures_bound() -> int:
    return math.ceil(math.log(1e-4) / math.log(1 - attempt_success()))


def failed_attempts(fcal_sim, tmp_path, seed: int) -> int:
    out = tmp_path / f"r{seed}.json"
    limit_s = (failures_bound() + 1) * E_D_TOV_S
    r = fcal_sim(*sets(f"disk.count={DISKS}", f"loop.nodes={LINKS}", f"loop.ber={BER}", "loop.initialize_at_start=true",
                       f"workload.seed={seed}", "workload.measured_ios=10", "workload.warmup_ios=0",
                       f"initiator.exchange_timeout_ms={int(limit_s * 2e3)}", f"sim.time_limit_s={limit_s}"),
                 "--quiet", "--stats-json", out, timeout=120)
    assert r.code in (0, 1), f"seed {seed}: exit {r.code}: {r.err[-2000:]}"
    first = load_results(out)["results"]["loop_init"][0]
    assert first["complete"], f"seed {seed}: the initialization did not complete in {limit_s} s"
    return math.floor(first["duration_us"] * 1e-6 / E_D_TOV_S)


def test_initialization_completes_within_the_geometric_bound(fcal_sim, tmp_path):
    ps = attempt_success()
    assert 0.5 < ps < 0.9  # the case of the random configuration: most attempts succeed, not all
    failures = [failed_attempts(fcal_sim, tmp_path, seed) for seed in SEEDS]
    assert max(failures) < failures_bound(), failures
    mean = len(SEEDS) * (1 - ps) / ps
    sd = math.sqrt(len(SEEDS) * (1 - ps)) / ps
    assert 0 < sum(failures) <= mean + 5 * sd, f"{sum(failures)} failed attempts over {len(SEEDS)} seeds, mean {mean:.1f}"


def test_an_originator_on_a_short_loop_sends_its_minimum_of_lips(fcal_sim, tmp_path):
    """A controller and one disk, 1 word of port delay and 0.5 m hops: the LIPs are back after R + 2 w, less than
    the 12 an originator sends at least; it sends LIPs until then, and its LISM 2 fill words after the last one
    (docs/loop_init.md, "Initialization time": max(R + 2 w, 12 w) + 2 w, then phases 2 to 6). Before the fix it
    sent IDLE as soon as its LIPs were back, and its LISM at 12 w: 2 words earlier."""
    hop_s = WORD_S + 0.5 * 5e-9      # 1 word of port delay and 0.5 m of cable at 5 ns/m (the defaults')
    r = 2 * hop_s
    assert r + 2 * WORD_S < 12 * WORD_S
    expected_s = 12 * WORD_S + 2 * WORD_S + after_lips_s(2, r)
    out = tmp_path / "r.json"
    run = fcal_sim(*sets("disk.count=1", "loop.port_delay_words=1", "loop.hop_m=0.5", "loop.initialize_at_start=true",
                         "workload.measured_ios=4", "workload.warmup_ios=0"), "--quiet", "--stats-json", out, timeout=60)
    assert run.code == 0, run.err[-2000:]
    first = load_results(out)["results"]["loop_init"][0]
    words = (first["duration_us"] * 1e-6 - expected_s) / WORD_S
    assert first["complete"] and abs(words) < 0.01, f"{first['duration_us']} us, {words:+.4f} words from the formula"
