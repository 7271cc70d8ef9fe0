#!/usr/bin/env bash
# Random valid configurations (issue 13, "Tools that find what tests miss"): each of N seeded random
# configurations, drawn over every parameter, must run to completion (exit 0, run_end "completed")
# with the I/O account balanced and nothing on stderr, so in the sanitizer build (scripts/sanitize.sh)
# also without a sanitizer report.
# Usage: random_configs.sh <bin dir> [N (default 12)] [first seed (default 1)]
# The ctest suite runs 12; the test labelled "long" runs 300 (README, "Sanitizers, fuzzing and random configurations").
set -euo pipefail

sim="$1/fcal-sim"
count="${2:-12}"
first="${3:-1}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Writes config <seed>.json for seeds first .. first+count-1: valid by construction (every range and
# cross-key rule of the parameter table, sizes kept small enough for a quick run).
"$1/fcal-codec" al-pa >"$tmp/al_pa.csv"
python3 - "$tmp" "$count" "$first" "$tmp/al_pa.csv" <<'EOF'
import json, random, sys
out, count, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

# The valid AL_PAs as the model lists them, but 0x00, the FL_Port's.
AL_PAS = [int(line.split(",")[0], 16) for line in open(sys.argv[4]).read().split()[1:]]
AL_PAS.remove(0x00)
assert len(AL_PAS) == 126

for seed in range(first, first + count):
    r = random.Random(seed)
    c = {}
    disks = r.randint(1, 8)
    c["disk.count"] = disks
    c["disk.access_ms"] = round(r.uniform(0, 5), 3)
    c["disk.rate_mbs"] = round(r.uniform(20, 300), 1)
    c["disk.queue_slots"] = r.randint(1, 32)
    c["loop.speed"] = r.choice(["1GFC", "2GFC", "4GFC", "8GFC"])
    if r.random() < 0.5:
        c["loop.nodes"] = disks + 1 + r.randint(0, 6)
    if r.random() < 0.3:
        c["loop.length_m"] = round(r.uniform(0, 5000), 1)
    else:
        c["loop.hop_m"] = round(r.uniform(0, 200), 2)
    c["loop.port_delay_words"] = r.randint(1, 24)
    c["loop.propagation_ns_per_m"] = round(r.uniform(3.5, 6), 2)
    c["initiator.al_pa"] = "0x%02X" % r.choice(AL_PAS)
    rtl = r.random() < 0.15
    for side in ["initiator", "target"]:
        c[side + ".fair"] = r.random() < 0.8
        buffers = r.randint(1, 16)
        c[side + ".incoming_buffers"] = buffers
        c[side + ".login_bb_credit"] = r.randint(0, buffers)
        c[side + ".full_duplex"] = r.random() < 0.3
        c[side + ".max_payload"] = r.choice([512, 1024, 2048, 2112, 4 * r.randint(64, 528)])
        c[side + ".cmd_exec_us"] = round(r.uniform(0, 80), 2)
        c[side + ".dma_mbs"] = round(r.uniform(100, 4000), 1)
        c[side + ".dma_sched_us"] = round(r.uniform(0, 30), 2)
        c[side + ".frame_proc_ns"] = round(r.uniform(0, 1000), 1)
        c[side + ".sft_us"] = round(r.uniform(0, 40), 2)
    c["initiator.xfer_rdy_us"] = round(r.uniform(0, 30), 2)
    c["initiator.dma_policy"] = r.choice(["fcfs", "round_robin"])
    c["initiator.max_outstanding"] = r.randint(1, 300)
    if not rtl:
        c["initiator.tx_fifo_frames"] = r.randint(1, 128)
        c["initiator.cmd_fifo_frames"] = r.randint(1, 128)
    c["target.rsp_gen_us"] = round(r.uniform(0, 20), 2)
    io = r.choice([512, 2048, 4096, 8192, 65536, 512 * r.randint(1, 512)])
    c["workload.io_size"] = io
    c["target.burst_bytes"] = r.choice([0, 0, 512 * r.randint(1, 64)])
    c["driver.arrival_us"] = round(r.uniform(0, 20), 2)
    c["driver.completion_us"] = round(r.uniform(0, 20), 2)
    c["workload.type"] = r.choice(["closed", "open"])
    c["workload.queue_depth"] = r.randint(1, 4)
    c["workload.read_fraction"] = r.choice([0.0, 1.0, round(r.random(), 3)])
    c["workload.rate_iops"] = round(r.uniform(50, 4000), 1)
    c["workload.measured_ios"] = r.randint(10, 60)
    c["workload.warmup_ios"] = r.randint(0, 20)
    c["workload.seed"] = r.randint(0, 2**31)
    c["schedule"] = r.choice(["normal", "cmdf"])
    for key, choices in [("cmdf.fifo", ["off", "reorder", "command_queue"]), ("cmdf.arbitration", [True, False]),
                         ("cmdf.preempt", [True, False])]:
        if r.random() < 0.5:
            c[key] = r.choice(choices)
    if rtl:
        c["cmdf.impl"] = "rtl"
        c["rtl.clock_mhz"] = round(r.uniform(50, 500), 1)
        c["rtl.lockstep"] = r.random() < 0.5
    if r.random() < 0.25:
        # Bit errors with short timers (docs/model.md, "Faults and recovery"): AL_TIME above twice any
        # round trip drawn here, exchange timers above any service time drawn here.
        c["loop.ber"] = float("%.3g" % 10 ** r.uniform(-9, -5))
        c["loop.al_time_us"] = r.choice([500, 2000, 15000])
        c["initiator.exchange_timeout_ms"] = r.choice([50, 200])
        c["initiator.abts_timeout_ms"] = r.choice([20, 100])
        c["target.data_timeout_ms"] = 400
        c["driver.retries"] = r.randint(0, 3)
    json.dump(c, open("%s/%d.json" % (out, seed), "w"), indent=1, sort_keys=True)
EOF

checks=0 faulty=0
for seed in $(seq "$first" $((first + count - 1))); do
    config="$tmp/$seed.json"
    set +e
    timeout 120 "$sim" --config "$config" --stats-json "$tmp/out.json" --quiet 2>"$tmp/err"
    rc=$?
    set -e
    what="random configuration $seed ($(tr -d '\n' <"$config"))"
    [[ $rc -eq 0 ]] || fail "$what: exit code $rc: $(head -c 3000 "$tmp/err")"
    # With bit errors, failed I/Os are named in one line on stderr; nothing else may be there.
    if grep -q '"loop.ber"' "$config"; then
        grep -v '^fcal-sim: [0-9]* I/Os failed' "$tmp/err" | grep -q . && fail "$what: stderr: $(head -c 3000 "$tmp/err")"
    else
        [[ -s "$tmp/err" ]] && fail "$what: stderr: $(head -c 3000 "$tmp/err")"
    fi
    python3 - "$config" "$tmp/out.json" <<'EOF' || fail "$what: results"
import json, sys
c = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))["results"]
assert r["run_end"] == "completed", r["run_end"]
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], (r["issued_ios"], r["completed_ios"], r["failed_ios"], r["outstanding_ios"])
assert r["outstanding_ios"] == 0, r["outstanding_ios"]
total = 2 * c["workload.warmup_ios"] + c["workload.measured_ios"]
assert r["issued_ios"] == total, (r["issued_ios"], total)
if r["failed_ios"] > 0:
    # Failed I/Os are not completions: the window may not fill, so only the account is checked.
    assert "loop.ber" in c, r["failures"]
    sys.exit(0)
assert r["measured_ios"] == c["workload.measured_ios"], r["measured_ios"]
assert sum(d["ios"] for d in r["disks"]) == r["measured_ios"]
assert r["reads"] + r["writes"] == r["measured_ios"], (r["reads"], r["writes"])
if c["workload.read_fraction"] == 0: assert r["reads"] == 0
if c["workload.read_fraction"] == 1: assert r["writes"] == 0
EOF
    checks=$((checks + 1))
    if grep -q "\"loop.ber\"" "$config"; then faulty=$((faulty + 1)); fi
done
echo "random configurations: $checks of $count ran to completion with the I/O account balanced, $faulty of them with bit errors (seeds $first..$((first + count - 1)))"
