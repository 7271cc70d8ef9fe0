#!/usr/bin/env bash
# fcal-sim with a RAID volume and the ideal transport: the new keys and their errors (exit 2 naming
# the key), --cdf (a bad path is refused before the run; the CSV is a monotone quantile function),
# p90 and per-disk utilisation in the results, and byte-identical results for a repeated run.
# Usage: raid.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

small=(--set disk.count=5 --set workload.measured_ios=300 --set workload.warmup_ios=20 --quiet)

# --- keys are listed and bad values refused
run --list-params
for k in volume.raid volume.stripe_kib volume.split_merge transport workload.lba; do
    grep -q "^$k " "$tmp/out" || fail "--list-params lacks $k"
done
ok "--list-params names the volume, transport and LBA keys"
run "${small[@]}" --set volume.raid=raid6
expect_error volume.raid "unknown RAID level"
run "${small[@]}" --set volume.raid=raid1
expect_error volume.raid "raid1 over an odd disk count"
run --set disk.count=2 --set volume.raid=raid5 --quiet
expect_error volume.raid "raid5 over 2 disks"
run "${small[@]}" --set volume.stripe_kib=0
expect_error volume.stripe_kib "zero stripe unit"
run "${small[@]}" --set volume.split_merge=sometimes
expect_error volume.split_merge "unknown split-merge discipline"
run "${small[@]}" --set transport=wire
expect_error transport "unknown transport"
run "${small[@]}" --set workload.lba=backwards
expect_error workload.lba "unknown LBA pattern"
run "${small[@]}" --set volume.raid=raid0 --set workload.io_size=1000
expect_error workload.io_size "RAID request not a whole number of blocks"

# --- --cdf: a path that cannot be written is refused before the run
run "${small[@]}" --cdf "$tmp/no/such/dir/cdf.csv"
expect_error "--cdf" "--cdf to a missing directory"

# --- RAID 5 over the loop and over the ideal transport: results, CDF, determinism
for transport in loop ideal; do
    args=("${small[@]}" --set volume.raid=raid5 --set workload.read_fraction=0.5 --set workload.queue_depth=4
          --set transport=$transport)
    run "${args[@]}" --stats-json "$tmp/a.json" --cdf "$tmp/a.csv"
    expect_rc 0 "raid5 over $transport"
    run "${args[@]}" --stats-json "$tmp/b.json"
    expect_rc 0 "raid5 over $transport, again"
    python3 - "$tmp/a.json" "$tmp/b.json" "$tmp/a.csv" "$transport" <<'PY' || fail "raid5 over $transport: results"
import csv, json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["results"].pop("wall_time_s")
assert a == b, "a repeated run differs"
r, c = a["results"], a["config"]
assert {k: c["volume"][k] for k in ("raid", "stripe_kib", "split_merge")} == {"raid": "raid5", "stripe_kib": 64, "split_merge": "fork_join"}, c["volume"]
assert c["transport"] == sys.argv[4]
assert r["run_end"] == "completed" and r["measured_ios"] == 300
assert r["p50_response_us"] <= r["p90_response_us"] <= r["p99_response_us"] <= r["max_response_us"]
assert len(r["disks"]) == 5
for d in r["disks"]:
    assert 0 < d["utilisation"] < 1, d
    assert d["ios"] > 0, d
assert r["volume"]["member_ios"] > r["issued_ios"]
assert (len(r["ports"]) == 0) == (sys.argv[4] == "ideal")
rows = list(csv.reader(open(sys.argv[3])))
assert rows[0] == ["quantile", "response_us"], rows[0]
q = [(float(x), float(y)) for x, y in rows[1:]]
assert len(q) == 1001 and q[0][0] == 0 and q[-1][0] == 1
assert all(q[i][1] <= q[i + 1][1] for i in range(1000)), "quantiles not monotone"
tol = 1.0 / 8192  # LogHistogram::kRelativeError
for quantile, key in ((0.5, "p50_response_us"), (0.9, "p90_response_us"), (0.99, "p99_response_us")):
    row = q[round(quantile * 1000)]
    assert abs(row[1] - r[key]) <= 1e-6 + r[key] * 1e-9, (row, r[key])
assert abs(q[-1][1] - r["max_response_us"]) <= 1e-6
PY
    ok "raid5 over $transport: p90, utilisation, CDF, byte-identical repeat"
done

echo "raid: $checks passed, 0 failed"
