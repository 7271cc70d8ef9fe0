#!/usr/bin/env python3
"""Hand derivation of traces/golden/loop_init_3port.trace: one loop initialization of a 3-port loop
(the controller and 2 disks), 2GFC, from the controller's first LIP to its return to MONITORING.

Every time is a sum of named terms in integer picoseconds (golden_terms.py: a span of n words is
rounded to the ps once), following the procedure and the LPSM's rules as docs/loop_init.md states
them ("The procedure at one port", "Initialization time", "A three-port initialization, by hand",
"Initialization in the running loop", "The LPSM in initialization"). Nothing here reads the
program's output.

    python3 traces/golden/derive_loop_init.py            # prints the expected lines with their terms
    python3 traces/golden/derive_loop_init.py --write    # (re)writes traces/golden/loop_init_3port.trace
"""
import sys

from golden_terms import Link, Trace, frame_words, seconds_ps

# ---- the configuration (the same settings as in the golden file's header) ----------------------
# Defaults are spelled out so that a change of a default does not silently change the golden run.
# The port names are the defaults (loop::default_port_name: they grow with the ring position), so
# the controller has the lowest and is the master. The workload's first FCP_CMND is queued at once
# (every overhead before it 0): it waits in the controller's port through the initialization and
# shows when the controller is back in MONITORING.
CTRL_NAME = 3458764513820540928
SETTINGS = [
    "loop.speed=2GFC", "disk.count=2", "loop.hop_m=2", "loop.propagation_ns_per_m=5", "loop.port_delay_words=6",
    "loop.initialize_at_start=true", "loop.init_frame_proc_us=1",
    "initiator.al_pa=0x01", "initiator.port_name=%d" % CTRL_NAME,
    "disk.0.port_name=%d" % (CTRL_NAME + 1), "disk.1.port_name=%d" % (CTRL_NAME + 2),
    "workload.type=closed", "workload.queue_depth=1", "workload.io_size=2048", "workload.read_fraction=1",
    "workload.measured_ios=1", "workload.warmup_ios=0",
    "driver.arrival_us=0", "initiator.cmd_exec_us=0", "initiator.dma_sched_us=0", "initiator.dma_mbs=1024",
]

BAUD = 2.125e9            # 2GFC
HOP_M = 2.0               # cable between neighbouring ports
NS_PER_M = 5.0
PORT_DELAY_WORDS = 6
P = seconds_ps(1e-6)      # loop.init_frame_proc_us: a port's processing of one LI frame
CTRL = 0x01               # controller (node 0), hard AL_PA 01
DISKS = [0xEF, 0xE8]      # disk i (node i + 1) has the AL_PA of loop_ID i: EF, E8
DMA_BYTES_PER_S = 1024e6  # initiator.dma_mbs
N = 1 + len(DISKS)        # ports on the ring
LIPS_BEFORE_LISM = 12     # an originator's minimum of LIPs (kLipsBeforeLism)
RECOGNITION = 3           # a primitive sequence acts at its third identical word
PRIMITIVE_GAP, FRAME_GAP = 2, 6  # word spacing: fill words after a primitive / between frames
# LI frames (SOF, 6 header words, payload, CRC, EOF): LISM 12 bytes, LIFA..LISA 20, LIRP/LILP 132.
LISM_W, BITMAP_W, MAP_W = frame_words(12), frame_words(20), frame_words(132)
LIP = "LIP(F7,F7)"        # the controller has no AL_PA of an earlier initialization

LINK = Link(BAUD, HOP_M, NS_PER_M, PORT_DELAY_WORDS)
words = LINK.words
W1 = words(1)
D = LINK.hop              # h of docs/loop_init.md: one hop, cable + the receiver's repeat delay
R = N * D                 # the round trip: every node's port delay and all cable

TRACE = Trace(LINK)
c = TRACE.port(CTRL)
disks = [TRACE.port(a) for a in DISKS]
ring = [c] + disks


def li(name):
    return "SOFil(%s)" % name


def send_frame(port, t, name, n_words, why):
    """The port sends an LI frame of n words at t; its fill word after it is IDLE."""
    port.emit(t, "OPEN-INIT", li(name), why)
    port.emit(t + words(n_words), "OPEN-INIT", "IDLE", "%s + w%d (%s)" % (why.split(" ")[0], n_words, name))
    return t + words(n_words)


def round_trip(name, n_words, t_send, tag):
    """The master sends an LI frame at t_send; each other port holds it whole (its end is when the
    word after it arrives), processes it for p and sends it on. Returns when it is whole back at
    the master."""
    end = send_frame(c, t_send, name, n_words, "%s_0 = master sends %s" % (tag, name))
    for i, port in enumerate(disks, 1):
        got = end + D
        # The port's output is IDLE: word spacing (6 words after its last frame, 2 after its last
        # primitive) allows the frame long before p has passed.
        assert port.word == "IDLE" and port.since + words(FRAME_GAP) <= got + P
        end = send_frame(port, got + P, name, n_words, "%s_%d = (%s_%d end + D) + p" % (tag, i, tag, i - 1))
    return end + D


# ---- 1. LIP: the controller originates ------------------------------------------------------------
# loop.initialize_at_start: the controller goes INITIALIZING at 0; LIP(F7,F7) is its fill word.
c.emit(0, "INITIALIZING", LIP, "0: Loop::start_lip(controller)")
# Every other port, MONITORING, repeats the LIPs as they arrive (a primitive sequence is repeated);
# it recognises them at the third, 2 word times later, and goes OPEN-INIT repeating: no change.
for i, port in enumerate(disks, 1):
    port.emit(i * D, "MONITORING", LIP, "%d D: the LIPs' front" % i)
# The controller's LIPs are back after R; the port hands the run's word to its LPSM at its arrival
# and again one and two word times later (each one word time: w1 + w1): recognised at the third.
T_rec = R + (RECOGNITION - 1) * W1
c.emit(T_rec, "OPEN-INIT", "IDLE", "T_rec = R + 2 x w1: originator recognises its LIPs, sends IDLE")
# Its IDLEs remove the LIPs: each port repeats them.
for i, port in enumerate(disks, 1):
    assert port.since + (RECOGNITION - 1) * W1 < T_rec + i * D   # recognised (OPEN-INIT) before
    port.emit(T_rec + i * D, "OPEN-INIT", "IDLE", "T_rec + %d D (repeats the originator's IDLE)" % i)

# ---- 2. LISM: the controller's, forwarded by each disk (its name is lower) ------------------------
# The originator sends LIPs until they are back and 12 are out; the LISM leaves 2 fill words after the
# last one ended (word spacing).
T_lism = max(T_rec, LIPS_BEFORE_LISM * W1) + words(PRIMITIVE_GAP)
assert T_lism == T_rec + words(PRIMITIVE_GAP)
T_master = round_trip("LISM", LISM_W, T_lism, "T_lism")
# The controller's own IDLEs came back (T_rec + R) while it sent IDLE after its LISM: it repeats
# from then on, IDLE for IDLE, no change.
assert T_lism + words(LISM_W) < T_rec + R < T_master

# ---- 3. ARB(F0): its own LISM back makes the controller master; it answers ARB(F0) p later ---------
T_arb = T_master + P
c.emit(T_arb, "OPEN-INIT", "ARB(F0)", "T_arb = T_master + p (T_master = own LISM back)")
for i, port in enumerate(disks, 1):
    port.emit(T_arb + i * D, "OPEN-INIT", "ARB(F0)", "T_arb + %d D (repeats ARB(F0))" % i)
# ARB(F0) back after R: LIFA at once (no processing), IDLE after it.
T_lifa = T_arb + R

# ---- 4. LIFA, LIPA, LIHA, LISA: 14 words each, once round ----------------------------------------
# LIFA: each disk still repeats ARB(F0) while it holds the frame; the IDLE after the frame ends it.
T_lifa_end = T_lifa + words(BITMAP_W)
for i, port in enumerate(disks, 1):
    port.emit(T_lifa_end + i * D, "OPEN-INIT", "IDLE",
              "T_lifa end + %d D (the IDLE after LIFA%s)" % (i, " reaches it" if i == 1 else ", repeated"))
back = round_trip("LIFA", BITMAP_W, T_lifa, "T_lifa")
for name in ("LIPA", "LIHA", "LISA"):   # the master sends the next p after the last is back
    back = round_trip(name, BITMAP_W, back + P, "T_" + name.lower())
# ---- 5. LIRP, LILP: 42 words each (LISA came back with the position-map flag) ---------------------
for name in ("LIRP", "LILP"):
    back = round_trip(name, MAP_W, back + P, "T_" + name.lower())

# ---- 6. CLS: p after LILP is back; each disk passes it on at once and is done ---------------------
T_cls = back + P
c.emit(T_cls, "OPEN-INIT", "CLS", "T_cls = LILP back + p")
c.emit(T_cls + W1, "OPEN-INIT", "IDLE", "T_cls + w1 (the master waits for its CLS)")
for i, port in enumerate(disks, 1):
    port.emit(T_cls + i * D, "OPEN-INIT", "CLS", "T_cls + %d D: passes CLS on" % i)
    port.emit(T_cls + i * D + W1, "MONITORING", "IDLE", "T_cls + %d D + w1: MONITORING" % i)
# The controller's CLS back: MONITORING with ACCESS set. Its FCP_CMND has waited since 32 B at the
# DMA rate (driver, cmd_exec, sched 0): it arbitrates at once, ARB(01) replaces IDLE.
T_end = T_cls + R
T_cmd = seconds_ps(32 / DMA_BYTES_PER_S)
assert T_cmd < T_end
c.emit(T_end, "ARBITRATING", "ARB(%02X)" % CTRL, "T_end = T_cls + R: MONITORING, arbitrates for the queued FCP_CMND")

# ---- the closed form of docs/loop_init.md, "Initialization time" ----------------------------------
# T = max(R + 2 w, 12 w) + 2 w + N (12 w + p) + R + R + 4 trip(14) + 2 trip(42) + R, trip(F) = N (F w + p) + R
w = LINK.word_exact_ps
R_exact = N * (LINK.cable + PORT_DELAY_WORDS * w)


def trip(f):
    return N * (f * w + P) + R_exact


T_formula = max(R_exact + 2 * w, 12 * w) + 2 * w + N * (12 * w + P) + 3 * R_exact + 4 * trip(14) + 2 * trip(42)
# The sum of rounded spans stays within a few ps of the exact formula (about 0.2 ps per hop).
assert abs(T_end - T_formula) < 0.5 * (4 * N + 12 * N), (T_end, T_formula)

HEADER = ("# fcal-sim --quiet " + " ".join("--set " + s for s in SETTINGS) + " --trace PATH\n"
          "# window: to %.3f ns (the controller back in MONITORING; later lines are the workload's)\n" % (T_end / 1000.0) +
          "# hand-derived (traces/golden/derive_loop_init.py, traces/golden/README.md); "
          "one loop initialization, controller + 2 disks, 2GFC\n")

if __name__ == "__main__":
    if "--write" in sys.argv:
        TRACE.write("loop_init_3port.trace", HEADER)
    else:
        print("w1=%d ps, cable=%d ps, D=%d ps, R=%d ps, p=%d ps" % (W1, LINK.cable, D, R, P))
        print("LI frames: LISM %d words, LIFA..LISA %d, LIRP/LILP %d" % (LISM_W, BITMAP_W, MAP_W))
        TRACE.show()
        print("initialization ends at %.3f ns (the closed form: %.3f ns)" % (T_end / 1000.0, T_formula / 1000.0))
