#!/usr/bin/env python3
"""Hand derivation of traces/golden/single_read.trace: one 2 KiB read, 1 disk, 2GFC.

Every time is built up from the protocol rules (docs/loop.md "The loop") as a sum of named terms,
in integer picoseconds. The simulator's time resolution is 1 ps and a span of n transmission words
is one duration of n x 40 / baud seconds, rounded to the picosecond once; a time is then the sum of
such spans as the rules chain them (e.g. "end of R_RDY" + "2 fill words"). Nothing here reads the
program's output.

    python3 traces/golden/derive.py            # prints the expected trace lines with their terms
    python3 traces/golden/derive.py --write    # (re)writes traces/golden/single_read.trace
"""
import sys

from golden_terms import Link, Trace, frame_words, seconds_ps

# ---- the configuration (the same settings as in the golden file's header) ----------------------
SETTINGS = [
    "loop.speed=2GFC", "disk.count=1", "loop.hop_m=2", "loop.propagation_ns_per_m=5", "loop.port_delay_words=6",
    "initiator.al_pa=0x01", "initiator.incoming_buffers=3", "initiator.login_bb_credit=0", "initiator.full_duplex=false",
    "target.incoming_buffers=2", "target.login_bb_credit=0", "target.full_duplex=false",
    "initiator.max_payload=2048", "target.max_payload=2048",
    "workload.type=closed", "workload.queue_depth=1", "workload.io_size=2048", "workload.read_fraction=1",
    "workload.measured_ios=1", "workload.warmup_ios=0", "schedule=normal",
    "driver.arrival_us=0", "driver.completion_us=0",
    "initiator.cmd_exec_us=0", "initiator.dma_sched_us=0", "initiator.frame_proc_ns=0", "initiator.sft_us=0",
    "initiator.xfer_rdy_us=0", "initiator.dma_mbs=1024",
    "target.cmd_exec_us=0", "target.rsp_gen_us=0", "target.dma_sched_us=0", "target.frame_proc_ns=0", "target.sft_us=0",
    "target.dma_mbs=1024", "disk.access_ms=0", "disk.rate_mbs=1000",
]

BAUD = 2.125e9            # 2GFC
HOP_M = 2.0               # cable between the two ports, each way
NS_PER_M = 5.0
PORT_DELAY_WORDS = 6
IO_BYTES = 2048
DMA_BYTES_PER_S = 1024e6  # initiator.dma_mbs = target.dma_mbs
MEDIA_BYTES_PER_S = 1000e6
DISK_ACCESS_PS = 0
CTRL, DISK = 0x01, 0xEF   # controller AL_PA; disk 0 takes loop_ID 0 = AL_PA 0xEF
CTRL_BUFFERS, DISK_BUFFERS = 3, 2  # R_RDYs each side hands out when it is opened
CMND_PAYLOAD, RSP_PAYLOAD = 32, 24  # FCP_CMND (16-byte CDB), FCP_RSP (no sense)

LINK = Link(BAUD, HOP_M, NS_PER_M, PORT_DELAY_WORDS)
words = LINK.words
W1, W2, W6 = words(1), words(2), words(6)        # one word; primitive gap; frame gap
CABLE = LINK.cable                                # ps
D = LINK.hop                                      # hop: cable + the receiver's repeat delay
ROUND_TRIP = 2 * D                                # 2 nodes x port delay + total cable
CMND_W, DATA_W, RSP_W = frame_words(CMND_PAYLOAD), frame_words(IO_BYTES), frame_words(RSP_PAYLOAD)

TRACE = Trace(LINK)
c, d = TRACE.port(CTRL), TRACE.port(DISK)
arb_c, arb_d = "ARB(%02X)" % CTRL, "ARB(%02X)" % DISK

# ---- 1. the controller issues the command ----------------------------------------------------------
# driver arrival 0 + cmd_exec 0 + DMA of the 32-byte I/O description (sched 0 + 32 B / DMA rate)
T_cmd = seconds_ps(0 + 0 + 32 / DMA_BYTES_PER_S)
# FCP_CMND queued; ACCESS is set (nothing has happened yet): arbitrate at once, ARB(01) replaces IDLE.
c.emit(T_cmd, "ARBITRATING", arb_c, "T_cmd = 32 B / DMA rate")
d.emit(T_cmd + D, "MONITORING", arb_c, "T_cmd + D (disk repeats ARB(01))")
T_won = T_cmd + ROUND_TRIP            # ARB(01) comes back: won
# Won: OPN(yy) at once (no primitive sent before, the previous word is fill).
c.emit(T_won, "ARBITRATION_WON", "OPN(EF,EF)", "T_won = T_cmd + 2D")
c.emit(T_won + W1, "OPEN", "ARB(F0)", "T_won + w1 (owner fills with ARB(F0))")
T_opn_d = T_won + D                   # OPN reaches the disk: OPENED, one R_RDY per free buffer (2)
d.emit(T_opn_d, "OPENED", "R_RDY", "T_opn_d = T_won + D")
# After R_RDY the disk repeats the fill it receives: the controller's ARB(F0) (sent at T_won + w1)
# arrives at exactly T_opn_d + w1.
d.emit(T_opn_d + W1, "OPENED", "ARB(F0)", "T_opn_d + w1")
d.emit(T_opn_d + W1 + W2, "OPENED", "R_RDY", "T_opn_d + w1 + w2 (2 fill words after a primitive)")
d.emit(T_opn_d + W1 + W2 + W1, "OPENED", "ARB(F0)", "T_opn_d + w1 + w2 + w1")
T_rrdy1_c = T_opn_d + D               # first R_RDY at the controller: credit 1
assert T_won + W1 + W2 <= T_rrdy1_c   # OPN end + 2 words: the frame may go when the credit comes
# The controller sends FCP_CMND as soon as the first R_RDY arrives (credit 1).
c.emit(T_rrdy1_c, "OPEN", "SOFi3", "T_sof_cmd = T_opn_d + D = T_won + 2D")
T_cmd_end = T_rrdy1_c + words(CMND_W)
assert T_won + W1 + ROUND_TRIP < T_cmd_end  # ARB(F0) came back unreplaced during the frame: fill is now IDLE
c.emit(T_cmd_end, "OPEN", "IDLE", "T_cmd_end = T_sof_cmd + w%d (FCP_CMND)" % CMND_W)
# Nothing more for the disk: CLS, 2 fill words after the frame (a primitive needs 2 before it).
c.emit(T_cmd_end + W2, "OPEN", "CLS", "T_cmd_end + w2")
c.emit(T_cmd_end + W2 + W1, "XMITTED_CLOSE", "IDLE", "T_cmd_end + w2 + w1")

# ---- 2. the disk receives FCP_CMND, returns the buffer, closes -----------------------------------
# The frame is complete at the end of its EOF, i.e. when the following IDLE arrives: T_cmd_end + D.
# The disk's output follows: IDLE replaces ARB(F0). frame_proc 0: the buffer is free in the same
# instant, and an R_RDY goes at once (its last primitive ended long ago).
T_cmnd_rx = T_cmd_end + D
d.emit(T_cmnd_rx, "OPENED", "IDLE", "T_cmnd_rx = T_cmd_end + D")
d.emit(T_cmnd_rx, "OPENED", "R_RDY", "T_cmnd_rx (buffer freed, frame_proc 0)")
d.emit(T_cmnd_rx + W1, "OPENED", "IDLE", "T_cmnd_rx + w1")
T_cls_at_d = T_cmd_end + W2 + D       # the controller's CLS arrives: RECEIVED_CLOSE
T_cls_d = max(T_cls_at_d, T_cmnd_rx + W1 + W2)  # 2 fill words after our R_RDY first
assert T_cls_d == T_cmnd_rx + W1 + W2
d.emit(T_cls_d, "RECEIVED_CLOSE", "CLS", "T_cls_d = T_cmnd_rx + w1 + w2")
d.emit(T_cls_d + W1, "MONITORING", "IDLE", "T_cls_d + w1")
# The controller receives that CLS at T_cls_d + D and goes to MONITORING; it already sends IDLE, so
# nothing changes on its output: no line.

# ---- 3. the disk reads and sends the data ---------------------------------------------------------
# Target: sft 0 + cmd_exec 0, disk access 0 + 2048 B / media rate, then DMA of the frame's 2048 B
# from the disk buffer (sched 0 + 2048 B / DMA rate): the data frame is queued; FCP_RSP right after
# (rsp_gen 0).
T_media = DISK_ACCESS_PS + seconds_ps(IO_BYTES / MEDIA_BYTES_PER_S)
T_dma = seconds_ps(IO_BYTES / DMA_BYTES_PER_S)
T_data_q = T_cmnd_rx + T_media + T_dma
assert T_data_q > T_cls_d + W1        # the disk is back in MONITORING, ACCESS set (IDLE received)
d.emit(T_data_q, "ARBITRATING", arb_d, "T_data_q = T_cmnd_rx + %d ps media + %d ps DMA" % (T_media, T_dma))
c.emit(T_data_q + D, "MONITORING", arb_d, "T_data_q + D (controller repeats ARB(EF))")
T_won_d = T_data_q + ROUND_TRIP
d.emit(T_won_d, "ARBITRATION_WON", "OPN(01,01)", "T_won_d = T_data_q + 2D")
d.emit(T_won_d + W1, "OPEN", "ARB(F0)", "T_won_d + w1")
T_opn_c = T_won_d + D                 # the controller is OPENED: 3 R_RDYs, 2 fill words between
t = T_opn_c
for i in range(CTRL_BUFFERS):
    if i:
        t += W2
    c.emit(t, "OPENED", "R_RDY", "T_opn_c" + (" + %d x (w1 + w2)" % i if i else " = T_won_d + D"))
    t += W1
    c.emit(t, "OPENED", "ARB(F0)", "end of R_RDY %d (repeats the disk's ARB(F0))" % (i + 1))
T_rrdy_last_c = t                     # end of the controller's last R_RDY
T_sof_data = T_opn_c + D              # first R_RDY reaches the disk: credit 1, data frame at once
assert T_won_d + W1 + W2 <= T_sof_data
d.emit(T_sof_data, "OPEN", "SOFi3", "T_sof_data = T_opn_c + D")
T_data_end = T_sof_data + words(DATA_W)
assert T_won_d + W1 + ROUND_TRIP < T_data_end    # ARB(F0) came back: fill is IDLE now
assert T_rrdy_last_c - W1 + D < T_data_end       # all 3 R_RDYs arrived: credit 2 left for FCP_RSP
d.emit(T_data_end, "OPEN", "IDLE", "T_data_end = T_sof_data + w%d (2048-byte FCP_DATA)" % DATA_W)
T_sof_rsp = T_data_end + W6           # 6 words between frames
d.emit(T_sof_rsp, "OPEN", "SOFi3", "T_sof_rsp = T_data_end + w6")
T_rsp_end = T_sof_rsp + words(RSP_W)
d.emit(T_rsp_end, "OPEN", "IDLE", "T_rsp_end = T_sof_rsp + w%d (FCP_RSP)" % RSP_W)
d.emit(T_rsp_end + W2, "OPEN", "CLS", "T_rsp_end + w2")
d.emit(T_rsp_end + W2 + W1, "XMITTED_CLOSE", "IDLE", "T_rsp_end + w2 + w1")

# ---- 4. the controller receives data and response, returns buffers, closes ----------------------
T_data_rx = T_data_end + D            # end of EOF: the IDLE after it arrives
c.emit(T_data_rx, "OPENED", "IDLE", "T_data_rx = T_data_end + D")
c.emit(T_data_rx, "OPENED", "R_RDY", "T_data_rx (buffer freed, frame_proc 0)")
c.emit(T_data_rx + W1, "OPENED", "IDLE", "T_data_rx + w1")
T_rsp_rx = T_rsp_end + D              # FCP_RSP complete; output already IDLE: only the R_RDY shows
assert T_rsp_rx >= T_data_rx + W1 + W2
c.emit(T_rsp_rx, "OPENED", "R_RDY", "T_rsp_rx = T_rsp_end + D")
c.emit(T_rsp_rx + W1, "OPENED", "IDLE", "T_rsp_rx + w1")
T_cls_at_c = T_rsp_end + W2 + D       # the disk's CLS arrives: RECEIVED_CLOSE
T_cls_c = max(T_cls_at_c, T_rsp_rx + W1 + W2)
assert T_cls_c == T_rsp_rx + W1 + W2
c.emit(T_cls_c, "RECEIVED_CLOSE", "CLS", "T_cls_c = T_rsp_rx + w1 + w2")
c.emit(T_cls_c + W1, "MONITORING", "IDLE", "T_cls_c + w1")
# The disk receives this CLS at T_cls_c + D, leaves the circuit and already sends IDLE: no line.
# The initiator's DMA of the data (2048 B / DMA rate from T_data_rx) ends after all of this; the
# response goes to the host (sft 0), the I/O completes and the run stops.
T_done = T_data_rx + T_dma
assert T_done > T_cls_c + D

# ---- output ---------------------------------------------------------------------------------------
# (Lines at one instant come from one port, in the order derived: IDLE, then R_RDY.)
HEADER = ("# fcal-sim --quiet " + " ".join("--set " + s for s in SETTINGS) + " --trace PATH\n"
          "# hand-derived (traces/golden/derive.py, traces/golden/README.md); one 2 KiB read, 1 disk, 2GFC\n")

if __name__ == "__main__":
    if "--write" in sys.argv:
        TRACE.write("single_read.trace", HEADER)
    else:
        print("w1=%d w2=%d w6=%d ps, cable=%d ps, D=%d ps, round trip=%d ps" % (W1, W2, W6, CABLE, D, ROUND_TRIP))
        print("frames: FCP_CMND %d words, FCP_DATA %d words, FCP_RSP %d words" % (CMND_W, DATA_W, RSP_W))
        TRACE.show()
        print("I/O complete (initiator DMA of the data done) at %.3f ns" % (T_done / 1000.0))
