#!/usr/bin/env bash
# The fast path is exact (issue 11): with every port traced (which forces each port through the full
# hop-by-hop path) the results equal those of the untraced run, for the baseline, the normal
# schedule, login credit, full duplex, 64 disks, long cables, a 126-node loop and close timers.
# Usage: trace_equivalence.sh <bin dir>
set -euo pipefail
sim="$1/fcal-sim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A cases=(
    [baseline]=""
    [normal]="--set schedule=normal --set workload.read_fraction=0.66"
    [login_credit]="--set disk.count=8 --set target.login_bb_credit=4 --set target.incoming_buffers=4 --set initiator.max_outstanding=1"
    [full_duplex]="--set initiator.full_duplex=true --set target.full_duplex=true --set workload.read_fraction=0.5"
    [disks_64]="--set disk.count=64 --set workload.warmup_ios=64"
    [long_cables]="--set loop.hop_m=200 --set workload.read_fraction=0.5"
    [nodes_126]="--set loop.nodes=126"
    [circuit_hold]="--set target.dma_mbs=150 --set target.circuit_hold_us=5 --set initiator.circuit_hold_us=2 --set workload.read_fraction=0.5"
)
failed=0
for name in "${!cases[@]}"; do
    read -r -a extra <<<"${cases[$name]}"
    "$sim" --quiet --set workload.measured_ios=200 "${extra[@]}" --stats-json "$tmp/fast.json"
    "$sim" --quiet --set workload.measured_ios=200 "${extra[@]}" --stats-json "$tmp/full.json" --trace /dev/null
    if python3 - "$tmp/fast.json" "$tmp/full.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:])
for r in (a, b):
    r.pop("wall_time_s")
    r.pop("kernel")  # how the kernel ran is what differs, by design
diff = [k for k in a if a[k] != b.get(k)]
if diff:
    print("differ in", diff)
    sys.exit(1)
PY
    then echo "same  $name"; else echo "FAIL  $name"; failed=$((failed + 1)); fi
done
echo "trace equivalence: $((${#cases[@]} - failed)) passed, $failed failed"
[[ $failed -eq 0 ]]
