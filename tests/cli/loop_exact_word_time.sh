#!/usr/bin/env bash
# Exact word times (issue 11): at 1.0, 2.0 and 4.0 Gbaud a word lasts exactly 40, 20 and 10 ns, so
# many changes coincide in one instant. A run at 2.0 Gbaud (the first case below) once never ended:
# a port started arbitrating on a frame queued in the same instant as a primitive it had just passed
# on, and the port downstream got its ARB after that later primitive and re-armed its receive event
# for the same instant forever (docs/loop.md, "The livelock guard"). Every case must
# complete (exit 0) well within the timeout, and, with every port traced (the full hop-by-hop path),
# give the same results as untraced (the fast path stays exact when changes coincide).
# Usage: loop_exact_word_time.sh <bin dir>
set -euo pipefail
sim="$1/fcal-sim"
export SC_COPYRIGHT_MESSAGE=DISABLE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=(
    "--set workload.io_size=32768 --set schedule=normal --set loop.baud_gbps=2.0 --set workload.read_fraction=0.66 --set workload.seed=2 --set workload.measured_ios=1000"
    "--set workload.io_size=4096 --set schedule=normal --set loop.baud_gbps=2.0 --set workload.read_fraction=0.66 --set workload.seed=1 --set disk.count=8 --set workload.measured_ios=400"
    "--set workload.io_size=262144 --set loop.baud_gbps=2.0 --set workload.read_fraction=0.66 --set workload.seed=3 --set disk.count=4 --set workload.measured_ios=300"
    "--set workload.io_size=32768 --set schedule=normal --set loop.baud_gbps=4.0 --set workload.read_fraction=0.5 --set workload.seed=2 --set disk.count=8 --set workload.measured_ios=400"
    "--set workload.io_size=32768 --set loop.baud_gbps=1.0 --set workload.read_fraction=0.66 --set workload.seed=2 --set disk.count=8 --set workload.measured_ios=400"
    "--set workload.io_size=8192 --set schedule=normal --set loop.baud_gbps=2.0 --set initiator.full_duplex=true --set target.full_duplex=true --set workload.read_fraction=0.5 --set disk.count=8 --set workload.measured_ios=400"
)
failed=0
for i in "${!cases[@]}"; do
    read -r -a args <<<"${cases[$i]}"
    rc=0
    timeout 120 "$sim" --quiet "${args[@]}" --stats-json "$tmp/fast.json" || rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "FAIL  case $i: exit code $rc (124: timed out): ${cases[$i]}"
        failed=$((failed + 1))
        continue
    fi
    rc=0
    timeout 300 "$sim" --quiet "${args[@]}" --stats-json "$tmp/full.json" --trace /dev/null || rc=$?
    if [[ $rc -ne 0 ]]; then
        echo "FAIL  case $i traced: exit code $rc: ${cases[$i]}"
        failed=$((failed + 1))
        continue
    fi
    if python3 - "$tmp/fast.json" "$tmp/full.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:])
for r in (a, b):
    r.pop("wall_time_s")
    r.pop("kernel")  # how the kernel ran is what differs, by design
assert a["run_end"] == "completed" and a["outstanding_ios"] == 0, (a["run_end"], a["outstanding_ios"])
diff = [k for k in a if a[k] != b.get(k)]
if diff:
    print("traced and untraced differ in", diff)
    sys.exit(1)
PY
    then echo "ok    case $i: ${cases[$i]}"; else echo "FAIL  case $i: ${cases[$i]}"; failed=$((failed + 1)); fi
done
echo "exact word times: $((${#cases[@]} - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
