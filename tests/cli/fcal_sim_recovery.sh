#!/usr/bin/env bash
# FCP recovery (docs/model.md, "Faults and recovery: FCP recovery"), through fcal-sim's test-only
# frame-loss hooks: a lost FCP_CMND, FCP_XFER_RDY, FCP_DATA or FCP_RSP leads to the exchange timeout,
# an ABTS, one driver retry and a completed I/O whose response time includes the timeout; a lost ABTS
# or BA_ACC adds the ABTS timeout; an I/O that keeps failing is reported failed after exactly
# driver.retries retries; the I/O account balances; bad values of the new keys exit 2.
# Usage: fcal_sim_recovery.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

# One 64 KiB I/O on one fixed disk (2 ms access, 50 MB/s), exchange timeout T = 10 ms, ABTS timeout
# A = 5 ms.
one=(--set disk.count=1 --set workload.measured_ios=1 --set workload.warmup_ios=0
     --set initiator.exchange_timeout_ms=10 --set initiator.abts_timeout_ms=5 --quiet)

# check JSON PYTHON-ASSERTIONS: `r` is the results object, `c` the configuration.
check() {
    local json="$1" what="$2"; shift 2
    python3 - "$json" "$@" <<'EOF' || fail "$what"
import json, sys
doc = json.load(open(sys.argv[1]))
r, c = doc["results"], doc["config"]
# The account, every run: every issued I/O completed, failed or is outstanding.
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], r
for assertion in sys.argv[2:]:
    assert eval(assertion), (assertion, {k: v for k, v in r.items() if not isinstance(v, (list, dict))})
EOF
}

# The disk's own service of one 64 KiB I/O: the retried exchange needs at least this after the
# timeout (the HBAs' and the loop's overheads come on top; all of them together are under 1 ms).
service_ms=$(python3 -c 'print(2.0 + 65536 / 50e6 * 1e3)')

# --- 1. one lost frame of each information unit: timeout, ABTS, BA_ACC, one retry, completed
for case in "1 FCP_CMND:1" "1 FCP_DATA:5" "1 FCP_DATA:32" "1 FCP_RSP:1" "0 FCP_XFER_RDY:1" "0 FCP_DATA:3" "0 FCP_RSP:1"; do
    read -r rf drop <<<"$case"
    run "${one[@]}" --set workload.read_fraction="$rf" --test-drop-frame "$drop" --stats-json "$tmp/r.json"
    expect_rc 0 "lost $drop (read_fraction $rf)"
    expect_no_stderr "lost $drop (read_fraction $rf)"
    k=${drop#*:}
    # Frames dropped after the gap: a read's later data frames and its FCP_RSP (32 frames of 2048
    # bytes); a write's later data frames at the target.
    case "$rf $drop" in
        "1 FCP_DATA:"*) gap="r['sequence_errors'] == 32 - $k + 1" ;;
        "0 FCP_DATA:"*) gap="r['sequence_errors'] == 32 - $k" ;;
        *) gap="r['sequence_errors'] == 0" ;;
    esac
    # A write's disk slot, held for data that never comes (lost FCP_XFER_RDY or FCP_DATA), is freed
    # by the abort; nothing else holds one when the ABTS arrives.
    held=0
    [[ "$rf $drop" == "0 FCP_XFER_RDY:1" || "$rf $drop" == "0 FCP_DATA:3" ]] && held=1
    check "$tmp/r.json" "lost $drop (read_fraction $rf)" \
        "r['completed_ios'] == 1 and r['failed_ios'] == 0 and r['outstanding_ios'] == 0" \
        "r['retries'] == 1 and r['aborts'] == 1 and r['ba_acc_received'] == 1 and r['abts_timeouts'] == 0" \
        "$gap" "r['disk_mechanics']['commands_aborted'] == $held" \
        "r['max_response_us'] >= (10 + $service_ms) * 1e3" "r['max_response_us'] < (10 + $service_ms + 1) * 1e3"
done
ok "a lost FCP_CMND, FCP_XFER_RDY, FCP_DATA or FCP_RSP: one abort, one retry, completed; response >= T + service"

# --- 2. the ABTS or its BA_ACC lost as well: the initiator gives up on the BA_ACC after A
for drop in ABTS:1 BA_ACC:1; do
    run "${one[@]}" --test-drop-frame FCP_RSP:1 --test-drop-frame "$drop" --stats-json "$tmp/r.json"
    expect_rc 0 "lost FCP_RSP and $drop"
    check "$tmp/r.json" "lost FCP_RSP and $drop" \
        "r['completed_ios'] == 1 and r['retries'] == 1 and r['aborts'] == 1" \
        "r['ba_acc_received'] == 0 and r['abts_timeouts'] == 1" \
        "r['max_response_us'] >= (10 + 5 + $service_ms) * 1e3" "r['max_response_us'] < (10 + 5 + $service_ms + 1) * 1e3"
done
ok "a lost ABTS or BA_ACC: the exchange is given up after the ABTS timeout, then retried"

# --- 2b. a write's data and then its ABTS lost, on a disk with one queue slot: the target holds the
# write (and the slot) until target.data_timeout_ms (30 ms) after its FCP_XFER_RDY, then drops it;
# the retry meets TASK SET FULL until then, so it completes after at least 30 ms + the service.
run "${one[@]}" --set workload.read_fraction=0 --set disk.queue_slots=1 --set target.data_timeout_ms=30 \
    --test-drop-frame FCP_DATA:3 --test-drop-frame ABTS:1 --stats-json "$tmp/r.json"
expect_rc 0 "lost write data and ABTS"
check "$tmp/r.json" "lost write data and ABTS" \
    "r['completed_ios'] == 1 and r['retries'] == 1 and r['abts_timeouts'] == 1 and r['data_timeouts'] == 1" \
    "r['disk_mechanics']['commands_aborted'] == 1 and r['task_set_full_retries'] > 0" \
    "r['max_response_us'] >= (30 + $service_ms) * 1e3" "r['max_response_us'] < (30 + $service_ms + 1.5) * 1e3"
ok "a write whose data and ABTS were lost: the target drops it after target.data_timeout_ms, freeing the disk slot"

# --- 3. every frame to the disk lost: each I/O fails after exactly driver.retries retries
for retries in 3 1 0; do
    run "${one[@]}" --set workload.measured_ios=2 --set driver.retries=$retries --test-drop-disk 0 --stats-json "$tmp/r.json"
    expect_rc 0 "disk 0 unreachable, driver.retries=$retries"
    grep -qF "2 I/Os failed" "$tmp/err" || fail "failed I/Os not reported on stderr: $(cat "$tmp/err")"
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "expected one stderr line: $(cat "$tmp/err")"
    # Each attempt: T without an answer, then A without a BA_ACC; the I/Os run one after the other.
    check "$tmp/r.json" "disk 0 unreachable, driver.retries=$retries" \
        "r['completed_ios'] == 0 and r['failed_ios'] == 2 and r['outstanding_ios'] == 0" \
        "r['retries'] == 2 * $retries and r['aborts'] == 2 * ($retries + 1) and r['abts_timeouts'] == r['aborts']" \
        "r['measured_ios'] == 0" "len(r['failures']) == 2" \
        "'given up after $retries retries' in r['failures'][0] and 'no BA_ACC' in r['failures'][0]" \
        "abs(r['sim_time_s'] - 2 * ($retries + 1) * (10 + 5) * 1e-3) < 1e-3"
done
ok "an unreachable disk: every I/O fails after exactly driver.retries retries (3, 1, 0), named on stderr, exit 0"

# --- 4. an exchange timeout shorter than the disk's service: every attempt is aborted (reads:
# their late data dropped; writes: the disk abandons the write it is doing); all fail, the account
# balances, every abort frees a disk slot
for rf in 1 0; do
    run "${one[@]}" --set workload.measured_ios=3 --set workload.read_fraction=$rf --set initiator.exchange_timeout_ms=3.5 \
        --stats-json "$tmp/r.json"
    expect_rc 0 "exchange timeout 3.5 ms (read_fraction $rf)"
    late="r['late_frames'] > 0"
    [[ $rf == 0 ]] && late="r['late_frames'] == 0"
    check "$tmp/r.json" "exchange timeout 3.5 ms (read_fraction $rf)" \
        "r['failed_ios'] == 3 and r['retries'] == 9 and r['aborts'] == 12 and r['ba_acc_received'] == 12" "$late" \
        "r['disk_mechanics']['commands_aborted'] == (0 if $rf == 1 else 12)"
done
ok "timeout shorter than the service: all I/Os fail after 3 retries; late read data dropped; aborted writes free their slot"

# --- 5. recovery under load (zoned disks, streaming reads, write cache, TASK SET FULL, RAID 1):
# timeouts fire mid-transfer, the account balances and the run ends (exit 0)
run --set disk.count=4 --set disk.model=zoned --set disk.write_cache=true --set disk.queue_slots=4 --set workload.queue_depth=8 \
    --set workload.read_fraction=0.5 --set workload.measured_ios=150 --set workload.warmup_ios=0 \
    --set initiator.exchange_timeout_ms=40 --set initiator.abts_timeout_ms=5 --test-drop-frame any:300 --quiet --stats-json "$tmp/r.json"
expect_rc 0 "zoned disks under load with a 40 ms exchange timeout"
check "$tmp/r.json" "zoned disks under load" "r['aborts'] > 0 and r['retries'] > 0 and r['completed_ios'] > 0"
run --set disk.count=2 --set volume.raid=raid1 --set workload.read_fraction=0.5 --set workload.measured_ios=6 --set workload.warmup_ios=0 \
    --set initiator.exchange_timeout_ms=10 --set initiator.abts_timeout_ms=5 --test-drop-disk 1 --quiet --stats-json "$tmp/r.json"
expect_rc 0 "RAID 1 with an unreachable member"
check "$tmp/r.json" "RAID 1 with an unreachable member" "r['failed_ios'] > 0" "'member disk 1' in r['failures'][0]"
ok "under load and behind a RAID volume the account balances and failed requests name the member"

# --- 6. same configuration and seed: byte-identical results (apart from wall time)
for i in 1 2; do
    run "${one[@]}" --set workload.measured_ios=5 --set workload.read_fraction=0.5 --test-drop-frame any:40 --stats-json "$tmp/d$i.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"].pop("wall_time_s"); print(json.dumps(d))' "$tmp/d$i.json" >"$tmp/d$i.txt"
done
cmp -s "$tmp/d1.txt" "$tmp/d2.txt" || fail "recovery runs are not deterministic"
ok "a run with recovery is deterministic"

# --- 7. the deadlock path keeps its meaning: a completion lost between the HBA and the driver is no
# FCP loss (the exchange is over), so no timer runs and nothing is left to happen
run --set disk.count=2 --set workload.measured_ios=10 --set initiator.exchange_timeout_ms=10 --test-lose-io 3 --quiet
expect_rc 3 "--test-lose-io with a short exchange timeout"
ok "a lost completion is still a deadlock (exit 3), even with a short exchange timeout"
# The HBA's timer facility may keep a notification pending after its last deadline was cancelled
# (docs/model.md, "Simulation kernel: timers"): one due after the time limit must not turn the
# deadlock into a time limit.
run --set disk.count=4 --set workload.measured_ios=50 --set sim.time_limit_s=5 --test-lose-io 5 --quiet
expect_rc 3 "--test-lose-io with the time limit before the exchange timeout"
ok "a lost completion is a deadlock (exit 3) even when the time limit comes before the exchange timeout"

# --- 8. bad values exit 2 naming the key; the defaults are listed
for bad in initiator.exchange_timeout_ms=0 initiator.exchange_timeout_ms=-1 initiator.exchange_timeout_ms=1e20 \
           initiator.abts_timeout_ms=0 initiator.abts_timeout_ms=1e20 target.data_timeout_ms=0 target.data_timeout_ms=1e20 driver.retries=-1 driver.retries=1001 driver.retries=1.5 \
           driver.retries=many; do
    run --set "$bad" --quiet
    expect_rc 2 "--set $bad"
    grep -qF "${bad%%=*}" "$tmp/err" || fail "--set $bad: error does not name the key: $(cat "$tmp/err")"
done
run --test-drop-frame FCP_DATA:0 --quiet
expect_rc 2 "--test-drop-frame FCP_DATA:0"
run --list-params
for key in initiator.exchange_timeout_ms initiator.abts_timeout_ms target.data_timeout_ms driver.retries; do
    grep -q "^$key " "$tmp/out" || fail "--list-params does not list $key"
done
ok "bad values of the exchange, ABTS and data timeouts and of driver.retries exit 2 naming the key"

echo "fcal-sim recovery: $checks checks passed"
