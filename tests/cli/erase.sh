#!/usr/bin/env bash
# fcal-sim erasure jobs (docs/erasure.md, "Erasure"): the erase.* keys and per-disk overrides
# (disk.<i>.<name>), their errors (exit 2, one line naming the key and the disk), a small fixed-disk
# erase whose WRITE SAME times follow access time + range / media rate, the progress lines on stderr,
# and byte-identical results for a repeated run.
# Usage: erase.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

# Two fixed disks of 1 MB (1953 blocks of 512 bytes), 2 ms access, 50 MB/s.
small=(--set disk.count=2 --set disk.capacity_gb=0.001 --set workload.type=erase --quiet)

# --- keys are listed and bad values refused
run --list-params
for k in erase.command erase.strategy erase.tl_policy erase.transfer_blocks erase.same_blocks erase.disks disk.capacity_gb; do
    grep -q "^$k " "$tmp/out" || fail "--list-params lacks $k"
done
ok "--list-params names the erase keys"

# Each line: the key the error must name | what the case is | the --set assignments (after "${small[@]}").
while IFS='|' read -r key what sets; do
    read -r -a assignments <<<"$sets"
    args=()
    for a in "${assignments[@]}"; do args+=(--set "$a"); done
    run "${small[@]}" "${args[@]}"
    expect_error "$key" "$what"
done <<'CASES'
erase.command|unknown erase command|erase.command=format
erase.strategy|unknown strategy|erase.strategy=random
erase.tl_policy|unknown transfer length policy|erase.tl_policy=auto
erase.transfer_blocks|transfer length beyond 16 bits|erase.transfer_blocks=65536
erase.same_blocks|empty WRITE SAME range|erase.same_blocks=0
erase.disks|more disks to erase than on the loop|erase.disks=3
disk.capacity_gb|fixed disk without a capacity|disk.capacity_gb=0
workload.type|erase over the ideal transport|transport=ideal
disk.1.rate_mbs|negative per-disk rate|disk.1.rate_mbs=-5
disk.1.rate_mbs|per-disk rate not a number|disk.1.rate_mbs=fast
disk.2.rate_mbs|override for a disk that does not exist|disk.2.rate_mbs=40
disk.1.model|override of a key that is not per disk|disk.1.model=zoned
disk.1.sector_time_inner_ms|per-disk inner sector time below the outer one|disk.model=zoned disk.1.sector_time_inner_ms=0.001
CASES
echo '{"disk": {"count": 2, "1": {"seek_write_max_ms": "slow"}}}' >"$tmp/bad.json"
run --config "$tmp/bad.json" --quiet
expect_error disk.1.seek_write_max_ms "per-disk override in a JSON file with the wrong type"

# --- a small erase: WRITE SAME of 1000 and 953 blocks per disk, disk 1 at 25 MB/s
echo '{"disk": {"1": {"rate_mbs": 25}}}' >"$tmp/slow1.json"
args=(--config "$tmp/slow1.json" "${small[@]}" --set erase.same_blocks=1000 --set erase.strategy=sequential)
run "${args[@]}" --stats-json "$tmp/a.json"
expect_rc 0 "fixed-disk WRITE SAME erase"
grep -q "erase 100 %" "$tmp/err" || fail "no progress line on stderr: $(cat "$tmp/err")"
ok "progress lines on stderr"
run "${args[@]}" --stats-json "$tmp/b.json"
expect_rc 0 "fixed-disk WRITE SAME erase, again"
expect_same_results "$tmp/a.json" "$tmp/b.json" "fixed-disk WRITE SAME erase"
python3 - "$tmp/a.json" <<'PY' || fail "fixed-disk WRITE SAME erase: results"
import json, sys
a = json.load(open(sys.argv[1]))
r, c = a["results"], a["config"]
assert c["disk"]["1"] == {"rate_mbs": 25.0}, c["disk"]
blocks = int(0.001e9 / 512)  # 1953
assert r["run_end"] == "completed"
for d, rate in ((0, 50e6), (1, 25e6)):
    disk = r["disks"][d]
    assert disk["commands"] == 2, disk
    assert disk["media_bytes"] == blocks * 512, disk
    # Each command: 2 ms access + its range at the media rate; the HBAs add well under 1 ms per command.
    media = 2 * 2e-3 + blocks * 512 / rate
    assert media < disk["erase_time_s"] < media + 2e-3, (disk, media)
assert abs(r["erase_time_s"] - (r["disks"][0]["erase_time_s"] + r["disks"][1]["erase_time_s"])) < 1e-3, r
PY
ok "fixed-disk WRITE SAME erase: media bytes, times, per-disk rate, byte-identical repeat"

echo "erase: $checks passed, 0 failed"
