#!/usr/bin/env bash
# DECODE on a RAID 0 volume of DECODE's drives (docs/controller.md, "DECODE"): a read-only workload gives the
# same results with and without DECODE over the same layout; with no free slots DECODE is plain RAID 0
# even for writes; with free slots writes relocate and a repeated run is byte-identical; bad keys exit 2
# naming the key.
# Usage: decode.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"
drive="$(cd "$(dirname "$0")/../../configs/disks" && pwd)/decode_5400rpm.json"

expect_error() {  # exit 2 with one line on stderr naming $1
    expect_rc 2 "$2"
    grep -q -- "$1" "$tmp/err" || fail "$2: stderr does not name $1: $(cat "$tmp/err")"
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$2: more than one line on stderr"
    ok "$2"
}

# The paper's set-up in small: 8 disks, 4 KiB (8-sector) units, a 10 MB file, 1-64 sectors, open arrivals.
base=(--config "$drive" --set disk.count=8 --set volume.raid=raid0 --set volume.stripe_kib=4 --set transport=ideal
      --set workload.type=open --set workload.rate_iops=150 --set workload.io_size=512 --set workload.io_size_max=32K
      --set workload.span_bytes=10485760 --set workload.measured_ios=600 --set workload.warmup_ios=100 --quiet)

# Compares two results files apart from the decode counters; extra Python checks in $3.
same_apart_from_counters() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:3])
for r in (a, b):
    r.pop("wall_time_s")
    for k in ("decode_relocations", "decode_in_place_writes"):
        r["volume"].pop(k, None)
assert a == b, [(k, a[k], b.get(k)) for k in a if a[k] != b.get(k)]
exec(sys.argv[3])
PY
}

run "${base[@]}" --set workload.read_fraction=1 --set volume.decode=true --stats-json "$tmp/on.json"
expect_rc 0 "read-only with DECODE"
run "${base[@]}" --set workload.read_fraction=1 --set decode.free_fraction=0.125 --stats-json "$tmp/off.json"
expect_rc 0 "read-only, conventional striping over DECODE's layout"
same_apart_from_counters "$tmp/on.json" "$tmp/off.json" '
r = json.load(open(sys.argv[1]))["results"]
assert r["volume"]["decode_relocations"] == 0 and r["volume"]["decode_in_place_writes"] == 0, r["volume"]
assert r["writes"] == 0 and r["reads"] == 600
' || fail "read-only: DECODE changed the results"
ok "read-only: identical results with and without DECODE"

run "${base[@]}" --set workload.read_fraction=0.75 --set volume.decode=true --set decode.free_fraction=0 --stats-json "$tmp/on.json"
expect_rc 0 "DECODE without free slots"
run "${base[@]}" --set workload.read_fraction=0.75 --stats-json "$tmp/off.json"
expect_rc 0 "plain RAID 0"
same_apart_from_counters "$tmp/on.json" "$tmp/off.json" '
r = json.load(open(sys.argv[1]))["results"]
assert r["volume"]["decode_relocations"] == 0 and r["volume"]["decode_in_place_writes"] > 0, r["volume"]
assert "decode_relocations" not in json.load(open(sys.argv[2]))["results"]["volume"]
' || fail "no free slots: DECODE differs from RAID 0"
ok "mixed workload, no free slots: DECODE is exactly RAID 0"

run "${base[@]}" --set workload.read_fraction=0.75 --set volume.decode=true --stats-json "$tmp/a.json"
expect_rc 0 "DECODE with writes"
run "${base[@]}" --set workload.read_fraction=0.75 --set volume.decode=true --stats-json "$tmp/b.json"
expect_same_results "$tmp/a.json" "$tmp/b.json" "DECODE with writes"
python3 - "$tmp/a.json" <<'PY' || fail "DECODE with writes: results"
import json, sys
a = json.load(open(sys.argv[1]))
r, c = a["results"], a["config"]
assert c["volume"]["decode"] is True and c["decode"] == {"area_units": 10, "threshold": 0.5, "own_write": True, "free_fraction": 0.125}, c
assert r["run_end"] == "completed" and r["completed_ios"] == r["issued_ios"] == 800
v = r["volume"]
assert v["decode_relocations"] > 0 and v["decode_in_place_writes"] > 0, v
assert r["read_mean_response_us"] > 0 and r["write_mean_response_us"] > 0
PY
ok "DECODE with writes: relocations and in-place writes counted, every I/O completes, byte-identical repeat"

run --list-params
for k in volume.decode decode.area_units decode.threshold decode.own_write decode.free_fraction workload.io_size_max workload.span_bytes; do
    grep -q "^$k " "$tmp/out" || fail "--list-params lacks $k"
done
ok "--list-params names the DECODE and workload-size keys"
small=(--set disk.count=4 --set workload.measured_ios=50 --quiet)
run "${small[@]}" --set volume.decode=true
expect_error volume.decode "DECODE without a volume"
run "${small[@]}" --set volume.raid=raid5 --set volume.decode=true
expect_error volume.decode "DECODE on raid5"
run "${small[@]}" --set volume.raid=raid0 --set volume.decode=maybe
expect_error volume.decode "DECODE switch not a boolean"
run "${small[@]}" --set volume.raid=raid1 --set decode.free_fraction=0.25
expect_error decode.free_fraction "free slots on raid1"
run "${small[@]}" --set volume.raid=raid0 --set volume.decode=true --set decode.free_fraction=0.6
expect_error decode.free_fraction "free fraction above 0.5"
run "${small[@]}" --set volume.raid=raid0 --set volume.decode=true --set decode.threshold=-0.1
expect_error decode.threshold "negative threshold"
run "${small[@]}" --set volume.raid=raid0 --set volume.decode=true --set decode.area_units=-1
expect_error decode.area_units "negative equivalent area"
run "${small[@]}" --set workload.io_size=8K --set workload.io_size_max=4K
expect_error workload.io_size_max "largest size below the smallest"
run "${small[@]}" --set workload.io_size=1000 --set workload.io_size_max=4K
expect_error workload.io_size_max "sizes not whole blocks"
run "${small[@]}" --set volume.raid=raid0 --set workload.span_bytes=1000G
expect_error workload.span_bytes "span beyond the volume"
run "${small[@]}" --set workload.span_bytes=32K
expect_error workload.span_bytes "span smaller than one I/O"

echo "decode: $checks passed, 0 failed"
