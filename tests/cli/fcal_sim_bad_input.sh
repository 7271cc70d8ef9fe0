#!/usr/bin/env bash
# fcal-sim's promises under bad input (issues 13 and 18): every error path ends with its documented exit
# code; what the model cannot represent is refused at configuration time naming the key (I/O sizes
# past one FC sequence, I/O counts that overflow, times past sc_time's range, AL_PA 0x00); output
# paths are checked before the run; the deadlock (3) and internal-error (5) paths, reached through
# test-only hooks.
# Usage: fcal_sim_bad_input.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

# expect_bad NEEDLE ARGS...: exit 2 with one stderr line containing NEEDLE, nothing on stdout.
expect_bad() {
    local needle="$1"; shift
    local what="fcal-sim $*"
    run "$@"
    expect_rc 2 "$what"
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$what: expected a one-line error on stderr, got: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" || fail "$what: error does not name '$needle': $(cat "$tmp/err")"
    [[ -s "$tmp/out" ]] && fail "$what: unexpected stdout: $(head -c 500 "$tmp/out")"
    return 0
}

# A run of a few I/Os on one disk, no warm-up.
tiny=(--set disk.count=1 --set workload.measured_ios=2 --set workload.warmup_ios=0 --quiet)

# --- 1. the exit codes are documented in --help, including 5
run --help
expect_rc 0 "--help"
for text in "0 every I/O completed" "1 sim.time_limit_s" "2 bad input" "3 deadlock" "4 the RTL" "5 internal error" \
            "6 an output could not be written" "130 / 143 interrupted"; do
    grep -qF "$text" "$tmp/out" || fail "--help does not document exit code '$text'"
done
grep -q -- "--test-" "$tmp/out" && fail "--help shows the test-only hooks"
ok "--help documents exit codes 0 to 6, 130 and 143 and hides the test hooks"

# --- 2. workload.io_size: one data sequence holds at most 65536 frames (16-bit SEQ_CNT), so with
# 2048-byte payloads 128 MiB is the largest I/O; the largest runs, one byte more is refused.
mib128=$((65536 * 2048))
# (Zoned disks with 4096-byte sectors, so that READ(10)'s 16-bit block count, 65535 x 4096 B, is not the limit.)
run "${tiny[@]}" --set disk.model=zoned --set disk.sector_bytes=4096 --set workload.measured_ios=1 --set workload.io_size=$mib128 --stats-json "$tmp/big.json"
expect_rc 0 "workload.io_size=128M"
python3 - "$tmp/big.json" <<'EOF' || fail "128M I/O: results"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["completed_ios"] == 1 and r["outstanding_ios"] == 0, r
EOF
expect_bad workload.io_size "${tiny[@]}" --set disk.model=zoned --set disk.sector_bytes=4096 --set workload.io_size=$((mib128 + 1))
# READ(10)/WRITE(10) count blocks in 16 bits: with 512-byte blocks 65535 x 512 B is the largest I/O.
expect_bad workload.io_size "${tiny[@]}" --set workload.io_size=$((65536 * 512))
expect_bad workload.io_size "${tiny[@]}" --set workload.io_size=1G
expect_bad workload.io_size "${tiny[@]}" --set workload.io_size=1G --set workload.read_fraction=0 --set target.burst_bytes=1M
# The payloads set the limit: 1024-byte frames halve it, and the error names the payload key (4096-byte
# sectors again, so that the sequence, not READ(10)'s block count, is the limit that binds).
zoned4k=(--set disk.model=zoned --set disk.sector_bytes=4096)
expect_bad initiator.max_payload "${tiny[@]}" "${zoned4k[@]}" --set initiator.max_payload=1024 --set workload.io_size=$((mib128 / 2 + 4))
expect_bad target.max_payload "${tiny[@]}" "${zoned4k[@]}" --set target.max_payload=512 --set workload.io_size=$((mib128 / 4 + 4))
# The message names the limit that binds: with 512-byte blocks 65535 x 512 bytes, not the sequence's
# 128M (issue 18: 1G was told "at most 128M").
expect_bad "at most $((65535 * 512))" "${tiny[@]}" --set workload.io_size=1G
ok "workload.io_size: 128M (65536 frames of 2048 bytes) runs; more is refused naming the key, the payload and the true limit"

# --- 3. I/O counts: 2 x warm-up + measured must not wrap (it used to "complete" with nothing measured)
expect_bad workload.warmup_ios --set workload.warmup_ios=9223372036854775807 --set workload.measured_ios=3
expect_bad workload.warmup_ios --set workload.warmup_ios=4611686018427387905 --set workload.measured_ios=9223372036854775807
ok "warm-up and measured I/O counts whose total overflows are refused"

# --- 4. real values whose delays sc_time cannot hold (2^63 ps, about 9.2e6 s) are refused naming the key
expect_bad loop.hop_m --set loop.hop_m=1e20
expect_bad loop.length_m --set loop.length_m=1e20
expect_bad loop.hop_m --set loop.hop_m=1e9 --set loop.propagation_ns_per_m=1e9
expect_bad disk.access_ms --set disk.access_ms=1e300
expect_bad disk.rate_mbs --set disk.rate_mbs=1e-300
expect_bad initiator.cmd_exec_us --set initiator.cmd_exec_us=1e22
expect_bad workload.rate_iops --set workload.type=open --set workload.rate_iops=1e-300
expect_bad sim.time_limit_s --set sim.time_limit_s=1e10
for key in initiator.xfer_rdy_us initiator.dma_sched_us initiator.sft_us target.cmd_exec_us target.rsp_gen_us \
           target.dma_sched_us target.sft_us driver.arrival_us driver.completion_us; do
    expect_bad "$key" --set "$key=1e300"
done
expect_bad initiator.frame_proc_ns --set initiator.frame_proc_ns=1e300
# the close timers, the TASK SET FULL retry and the zoned disk's times
for key in initiator.circuit_hold_us target.circuit_hold_us initiator.task_set_full_retry_us disk.command_overhead_us; do
    expect_bad "$key" --set "$key=1e22"
done
for key in disk.seek_read_max_ms disk.seek_write_max_ms disk.sector_time_inner_ms; do
    expect_bad "$key" --set disk.model=zoned --set "$key=1e17"
done
# zoned geometries whose capacity a 64-bit count (or a double, exactly) cannot hold
expect_bad disk.cylinders --set disk.model=zoned --set disk.rpm=1e-300
expect_bad disk.cylinders --set disk.model=zoned --set disk.cylinders=10000000 --set disk.heads=255 \
    --set disk.sector_time_outer_ms=0.0000001
# more sectors than READ(10)/WRITE(10) can address (2^32)
expect_bad disk.cylinders --set disk.model=zoned --set disk.cylinders=1000000 --set disk.heads=64
# the ideal transport has no loop ports to trace and no HBA for the RTL
expect_bad --trace --set transport=ideal --trace "$tmp/t.txt"
expect_bad --vcd --set transport=ideal --vcd "$tmp/v.vcd"
expect_bad cmdf.impl --set transport=ideal --set cmdf.impl=rtl
# an access time that is representable as a mean but not as the longest exponential draw (36.7 x)
expect_bad disk.access_ms --set disk.access_ms=1e9 --set disk.access_dist=exponential
run --set disk.access_ms=1e9 --set disk.access_dist=constant --set sim.time_limit_s=1
expect_rc 1 "disk.access_ms=1e9, constant: representable, ends at the time limit"
expect_bad target.frame_proc_ns --set target.frame_proc_ns=1e300
expect_bad initiator.dma_mbs --set initiator.dma_mbs=1e-300
expect_bad target.dma_mbs --set target.dma_mbs=1e-300
ok "times past sc_time's range are refused naming the key (cables, HBAs, driver, disks, arrivals, time limit)"

# Just inside the range the run is valid: it reaches the time limit (1), not an error.
run "${tiny[@]}" --set initiator.cmd_exec_us=9e12 --set sim.time_limit_s=0.01
expect_rc 1 "initiator.cmd_exec_us=9e12"
run "${tiny[@]}" --set disk.access_ms=9e9 --set sim.time_limit_s=0.01
expect_rc 1 "disk.access_ms=9e9"
run "${tiny[@]}" --set workload.type=open --set workload.rate_iops=1e-5 --set sim.time_limit_s=0.01
expect_rc 1 "workload.rate_iops=1e-5"
run "${tiny[@]}" --set sim.time_limit_s=9e6
expect_rc 0 "sim.time_limit_s=9e6"
ok "large but representable times run: 9e12 us, 9e9 ms and 1e-5 IO/s reach the time limit (exit 1); a 9e6 s limit completes"

# --- 5. the controller cannot take the FL_Port's AL_PA
expect_bad initiator.al_pa --set initiator.al_pa=0x00
printf '{"initiator": {"al_pa": 0}}\n' >"$tmp/alpa.json"
expect_bad initiator.al_pa --config "$tmp/alpa.json"
run "${tiny[@]}" --set initiator.al_pa=0x02
expect_rc 0 "initiator.al_pa=0x02"
ok "initiator.al_pa=0x00 is refused naming the key"

# --- 5b. found by fuzzing: numbers beyond a double and control characters are bad input, one line
printf '{"disk.access_ms": 1e400}\n' >"$tmp/huge.json"
expect_bad "number overflow" --config "$tmp/huge.json"
expect_bad disk.access_ms --set disk.access_ms=1e400
expect_bad 'unknown parameter' --set "$(printf 'disk.co\001unt=3')"
grep -qF '\u0001' "$tmp/err" || fail "control character not escaped: $(cat -v "$tmp/err")"
ok "a number beyond a double, and control characters in a key, exit 2 with a one-line, escaped error"

# --- 5c. issue 18: hostile configuration files and messages that agree with themselves
# 10 000 nested objects used to crash (exit 139), 5 000 to print a 10 000-character key.
for depth in 10000 5000; do
    python3 -c "n=$depth; print('{\"a\":' * n + '1' + '}' * n)" >"$tmp/deep.json"
    expect_bad "nested deeper than 16 levels" --config "$tmp/deep.json"
    [[ $(wc -c <"$tmp/err") -lt 300 ]] || fail "depth $depth: a $(wc -c <"$tmp/err")-byte message"
done
# A key given twice was last-wins, and {"": {...}} was unwrapped.
printf '{"disk": {"count": 4}, "disk": {"count": 5}}' >"$tmp/twice1.json"
printf '{"disk.count": 4, "disk.count": 6}' >"$tmp/twice2.json"
printf '{"disk": {"2": {"access_ms": 4, "access_ms": 6}}}' >"$tmp/twice3.json"
expect_bad "disk: given twice" --config "$tmp/twice1.json"
expect_bad "disk.count: given twice" --config "$tmp/twice2.json"
expect_bad "disk.2.access_ms: given twice" --config "$tmp/twice3.json"
printf '{"": {"disk": {"count": 4}}}' >"$tmp/empty_key.json"
expect_bad "an empty key" --config "$tmp/empty_key.json"
# Messages that contradicted themselves.
expect_bad "loop.al_time_us: 0 is out of range (must be > 0 and <= 1e+07)" --set loop.al_time_us=0
run --list-params
grep -qE '^loop\.al_time_us .* > 0 and <= 1e\+07 ' "$tmp/out" || fail "--list-params: loop.al_time_us's range: $(grep al_time "$tmp/out")"
expect_bad "disk.0004.access_ms: a disk index has no leading zeros (disk.4.access_ms)" --set disk.0004.access_ms=3
printf '{"disk.count": 99999999999999999999}' >"$tmp/huge_int.json"
expect_bad "disk.count: 1e+20 is out of range 1..125" --config "$tmp/huge_int.json"
# Long keys are cut, control bytes in a file name or a key escaped.
expect_bad "(10000 bytes)" --set "$(printf 'k%.0s' $(seq 10000))=1"
[[ $(wc -c <"$tmp/err") -lt 300 ]] || fail "a 10000-byte key: a $(wc -c <"$tmp/err")-byte message"
expect_bad '\u001b[2J' --config "$tmp/$(printf 'no\033[2Jfile').json"
expect_bad '\u001b' --set "$(printf 'disk.0.\033x')=1"
if LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$tmp/err"; then fail "a control byte reached stderr"; fi
ok "deep nesting, keys given twice, empty keys, long and hostile keys: exit 2 with a short, escaped, true line"

# --- 6. output paths are checked before the run: a run of 10^8 I/Os would take hours, so exit 2
# within the 60 s allowed shows that nothing ran.
long=(--set workload.measured_ios=100000000)
expect_bad "$tmp/no/such/dir/s.json" "${long[@]}" --stats-json "$tmp/no/such/dir/s.json"
mkdir "$tmp/adir"
expect_bad "$tmp/adir" "${long[@]}" --stats-json "$tmp/adir"
expect_bad "$tmp/no/such/dir/t.txt" "${long[@]}" --trace "$tmp/no/such/dir/t.txt"
expect_bad "$tmp/no/such/dir/w.vcd" "${long[@]}" --vcd "$tmp/no/such/dir/w.vcd"
# With the RTL the second VCD (PATH_rtl.vcd) is checked too: here it is a directory.
mkdir "$tmp/w_rtl.vcd"
expect_bad "$tmp/w_rtl.vcd" "${long[@]}" --set cmdf.impl=rtl --vcd "$tmp/w.vcd"
grep -qF -- "--vcd" "$tmp/err" || fail "--vcd error does not name the option"
# A writable path still works and gets the results.
run "${tiny[@]}" --stats-json "$tmp/ok.json"
expect_rc 0 "writable --stats-json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))["results"]["completed_ios"]' "$tmp/ok.json" || fail "stats not written"
ok "unwritable --stats-json / --trace / --vcd paths exit 2 at once naming the path"

# --- 7. deadlock (exit 3): a lost completion leaves one I/O outstanding and nothing to happen
run_hooked --set disk.count=4 --set workload.measured_ios=50 --test-lose-io 5 --stats-json "$tmp/dead.json" --quiet
expect_rc 3 "--test-lose-io"
grep -q "deadlock" "$tmp/err" || fail "deadlock: stderr does not say so: $(cat "$tmp/err")"
grep -qE 'controller 0x01 ' "$tmp/err" || fail "deadlock: no controller state: $(cat "$tmp/err")"
[[ $(grep -cE '^  system\.loop\.disk[0-9]+ 0x' "$tmp/err") -eq 4 ]] || fail "deadlock: expected the state of each of the 4 disks: $(cat "$tmp/err")"
python3 - "$tmp/dead.json" <<'EOF' || fail "deadlock: results"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["run_end"] == "deadlock", r["run_end"]
assert r["outstanding_ios"] == 1, r["outstanding_ios"]
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], r
assert r["failed_ios"] == 0 and r["aborts"] == 0, r
assert r["completed_ios"] == 2 * r["warmup_ios"] + 50 - 1, (r["completed_ios"], r["warmup_ios"])
EOF
ok "a lost completion ends in deadlock: exit 3, every port's state, one I/O outstanding in the account"

# --- 8. an exception escaping the simulation is an internal error (5), not a time limit (1)
run_hooked --set disk.count=4 --set workload.measured_ios=50 --test-throw-io 5 --quiet
expect_rc 5 "--test-throw-io"
grep -q "internal error" "$tmp/err" || fail "internal error: stderr does not say so: $(cat "$tmp/err")"
grep -q -- "--test-throw-io: completion 5" "$tmp/err" || fail "internal error: the exception is not shown: $(cat "$tmp/err")"
ok "an exception thrown inside the running simulation exits 5 with its message"

# --- 9. the keys of issue 21: out of range, or a disk that cannot serve several commands at once
expect_bad "disk.max_concurrent" "${tiny[@]}" --set disk.model=zoned --set disk.max_concurrent=2
expect_bad "disk.max_concurrent" "${tiny[@]}" --set disk.max_concurrent=0
expect_bad "disk.max_concurrent" "${tiny[@]}" --set disk.max_concurrent=-1
expect_bad "disk.0.max_concurrent" "${tiny[@]}" --set disk.model=zoned --set disk.0.max_concurrent=4
expect_bad "driver.disk_outstanding" "${tiny[@]}" --set driver.disk_outstanding=-1
expect_bad "initiator.sft_engine" "${tiny[@]}" --set initiator.sft_engine=fast
expect_bad "target.sft_engine" "${tiny[@]}" --set target.sft_engine=
ok "disk.max_concurrent above 1 with zoned disks, and out-of-range values of the new keys, exit 2 naming the key"

# --- 10. requests waiting for their disk in the driver are outstanding when the time limit ends the run
run --set disk.count=2 --set workload.queue_depth=8 --set driver.disk_outstanding=1 --set sim.time_limit_s=0.01 \
    --quiet --stats-json "$tmp/limit.json"
expect_rc 1 "time limit with driver.disk_outstanding=1"
python3 - "$tmp/limit.json" <<'EOF' || fail "driver.disk_outstanding at the time limit: results"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], r
assert r["outstanding_ios"] == 16, r["outstanding_ios"]  # 8 per disk: 1 at the disk, 7 waiting in the driver
EOF
ok "I/Os waiting for their disk are reported outstanding at the time limit, the account balanced"

echo "fcal-sim bad input: $checks checks passed"
