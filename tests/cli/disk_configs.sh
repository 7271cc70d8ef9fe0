#!/usr/bin/env bash
# The drives of configs/disks/ load and run in fcal-sim, which prints each one's capacity; the
# capacity in the results is floor(N(C)) x sector size, worked out here from the file's geometry
# (docs/disk.md, "The zoned model"). Bad disk keys exit with code 2 naming the key.
# Usage: disk_configs.sh <bin dir>
set -euo pipefail

sim="$1/fcal-sim"
configs="$(cd "$(dirname "$0")/../../configs/disks" && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

n=0
for file in "$configs"/*.json; do
    "$sim" --config "$file" --set disk.count=2 --set workload.io_size=4K --set workload.measured_ios=100 \
        --stats-json "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" || fail "$file: exit code $? ($(cat "$tmp/err"))"
    grep -q "zoned disks *capacity" "$tmp/out" || fail "$file: no capacity line"
    python3 - "$file" "$tmp/r.json" <<'PY' || fail "$file: capacity"
import json, math, sys
d = json.load(open(sys.argv[1]))["disk"]
r = json.load(open(sys.argv[2]))["results"]
rev = 60000.0 / d["rpm"]
si, so = rev / d["sector_time_inner_ms"], rev / d["sector_time_outer_ms"]
c = d["cylinders"]
sectors = math.floor(d["heads"] * (si * c + (so - si) * c * c / (2 * (c - 1))))
assert r["disk_mechanics"]["capacity_bytes"] == sectors * d["sector_bytes"], (r["disk_mechanics"], sectors)
assert r["completed_ios"] == r["issued_ios"]
PY
    n=$((n + 1))
done
[[ $n -ge 3 ]] || fail "expected at least 3 drives in configs/disks, found $n"
echo "OK: $n drive configurations run"

expect_bad() {
    set +e
    "$sim" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
    [[ $rc -eq 2 ]] || fail "$*: exit code $rc, expected 2"
    grep -q "$key" "$tmp/err" || fail "$*: error does not name $key: $(cat "$tmp/err")"
}
key=disk.model expect_bad --set disk.model=tape
key=disk.access_dist expect_bad --set disk.access_dist=normal
key=disk.scheduler expect_bad --set disk.scheduler=sptf
key=disk.scheduler expect_bad --set disk.model=zoned --set disk.positioning=stochastic --set disk.scheduler=sptf
key=disk.sector_time_inner_ms expect_bad --set disk.model=zoned --set disk.sector_time_inner_ms=0.001
key=disk.seek_read_min_ms expect_bad --set disk.model=zoned --set disk.seek_read_min_ms=20
key=disk.buffer_full_ratio expect_bad --set disk.buffer_full_ratio=0
key=disk.buffer_kib expect_bad --set disk.model=zoned --set disk.buffer_kib=8 --set target.max_payload=2112
key=initiator.task_set_full_retry_us expect_bad --set initiator.task_set_full_retry_us=-1
echo "OK: bad disk keys exit 2 naming the key"
