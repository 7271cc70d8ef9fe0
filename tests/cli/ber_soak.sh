#!/usr/bin/env bash
# Soak under bit errors (docs/faults.md, "Faults and recovery"): 10^5 I/Os on a loop with
# loop.ber=1e-6 end with every I/O completed or failed (none outstanding, no hang), every abort
# either retried or ending a failed I/O after exactly driver.retries retries, and the same results
# from the same seed; and throughput falls, retries rise, as the error rate rises.
# Usage: ber_soak.sh <bin dir> [I/Os of the soak (default 100000)]
set -euo pipefail
source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"
ios="${2:-100000}"

# 4 KiB mixed I/Os on the baseline loop; AL_TIME 0.5 ms, exchange timeout 5 ms, so that a lost word
# costs the loop less than an exchange timeout.
faults=(--set workload.io_size=4K --set workload.read_fraction=0.5 --set workload.queue_depth=2
        --set loop.al_time_us=500 --set initiator.exchange_timeout_ms=5 --set initiator.abts_timeout_ms=5
        --set target.data_timeout_ms=20 --set workload.warmup_ios=0 --set sim.time_limit_s=100000)

# The I/O account and the recovery books of results file $1, run with N = $2 I/Os and R = $3 retries.
check_account() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
n, retries = int(sys.argv[2]), int(sys.argv[3])
assert r["run_end"] == "completed", r["run_end"]
assert r["outstanding_ios"] == 0, r["outstanding_ios"]
assert r["issued_ios"] == n, (r["issued_ios"], n)
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"], (r["issued_ios"], r["completed_ios"], r["failed_ios"])
# Every abort is followed by a retry, except the last of a failed I/O: aborts = retries + failed,
# and a failed I/O used up all its retries.
assert r["aborts"] == r["retries"] + r["failed_ios"], (r["aborts"], r["retries"], r["failed_ios"])
assert r["retries"] >= retries * r["failed_ios"], (r["retries"], r["failed_ios"])
assert r["frames_discarded"] > 0 and r["code_violations"] >= r["frames_discarded"], (r["frames_discarded"], r["code_violations"])
print(f'{n} I/Os: {r["completed_ios"]} completed, {r["failed_ios"]} failed, {r["retries"]} retries, '
      f'{r["frames_discarded"]} frames discarded, {r["code_violations"]} code violations')
EOF
}

run "${faults[@]}" --set loop.ber=1e-6 --set workload.measured_ios="$ios" --stats-json "$tmp/soak.json" --quiet
expect_rc 0 "soak at loop.ber=1e-6"
summary=$(check_account "$tmp/soak.json" "$ios" 3) || fail "soak at loop.ber=1e-6: account"
ok "soak at loop.ber=1e-6: $summary"

# The same seed, a shorter run twice: identical results.
for k in 1 2; do
    run "${faults[@]}" --set loop.ber=1e-6 --set workload.measured_ios=3000 --set driver.retries=1 --stats-json "$tmp/same$k.json" --quiet
    expect_rc 0 "repeat $k"
done
check_account "$tmp/same1.json" 3000 1 >/dev/null || fail "repeat: account"
expect_same_results "$tmp/same1.json" "$tmp/same2.json" "same seed under bit errors"
ok "same configuration and seed under bit errors: identical results"

# Throughput falls and retries rise with the error rate (a coarse check of docs/faults/ber.png).
prev_iops="" prev_retries=""
for ber in 0 1e-8 1e-7 1e-6 1e-5; do
    run "${faults[@]}" --set loop.ber="$ber" --set workload.measured_ios=3000 --stats-json "$tmp/b.json" --quiet
    expect_rc 0 "loop.ber=$ber"
    read -r iops retries < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r["iops"], r["retries"])' "$tmp/b.json")
    if [[ -n "$prev_iops" ]]; then
        python3 -c 'import sys; i, pi, r, pr = map(float, sys.argv[1:]); assert i <= pi * 1.01 and r >= pr' \
            "$iops" "$prev_iops" "$retries" "$prev_retries" || fail "loop.ber=$ber: IOPS $iops (before $prev_iops), retries $retries (before $prev_retries)"
    fi
    prev_iops=$iops prev_retries=$retries
done
ok "IOPS fall and retries rise with loop.ber from 0 to 1e-5"
echo "ber_soak: $checks checks passed"
