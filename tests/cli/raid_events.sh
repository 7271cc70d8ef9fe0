#!/usr/bin/env bash
# fcal-sim with scheduled events and a volume with a hot spare (docs/faults.md, "Scheduled events",
# docs/controller.md, "Degraded mode and rebuild"): bad events and volume keys exit 2 with one line
# naming the key, before anything runs; configs/raid5_8p_s.json's shape runs, fails a member,
# rebuilds onto the spare and balances its account; the same seed gives the same results.
# Usage: raid_events.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"

small=(--set disk.count=4 --set workload.measured_ios=200 --quiet)
fail0=(--set event.0.at_ms=5 --set event.0.kind=fail --set event.0.disk=1)

# --- bad events
run "${small[@]}" --set event.0.kind=fail --set event.0.disk=1
expect_error "event.0.at_ms" "an event without its time"
run "${small[@]}" --set event.0.at_ms=5 --set event.0.disk=1
expect_error "event.0.kind" "an event without its kind"
run "${small[@]}" --set event.0.at_ms=5 --set event.0.kind=explode --set event.0.disk=1
expect_error "event.0.kind" "an unknown event kind"
run "${small[@]}" --set event.0.at_ms=5 --set event.0.kind=lip
expect_error "event.0.kind: lip is not modelled yet (docs/faults.md" "a kind not modelled yet"
run "${small[@]}" --set event.2.at_ms=5 --set event.2.kind=fail --set event.2.disk=4
expect_error "event.2.disk: disk 4 does not exist" "a disk that does not exist"
run "${small[@]}" --set event.0.at_ms=5 --set event.0.kind=fail
expect_error "event.0.disk" "a fail event without its disk"
run "${small[@]}" --set event.0.at_ms=-1 --set event.0.kind=fail --set event.0.disk=1
expect_error "event.0.at_ms" "a negative time"
run "${small[@]}" --set sim.time_limit_s=1 --set event.0.at_ms=1000 --set event.0.kind=fail --set event.0.disk=1
expect_error "event.0.at_ms" "a time beyond the run"
run "${small[@]}" "${fail0[@]}" --set event.1.at_ms=9 --set event.1.kind=fail --set event.1.disk=1
expect_error "event.1.disk" "a disk failed twice"
run "${small[@]}" --set event.01.at_ms=5
expect_error "event.01.at_ms" "an event number with a leading zero"
run "${small[@]}" --set event.0.when=5
expect_error "event.0.when" "an unknown event key"
run "${small[@]}" "${fail0[@]}" --set transport=ideal
expect_error "event.0.kind" "a failure over the ideal transport"

# --- bad volume keys
run "${small[@]}" --set volume.spares=1
expect_error "volume.spares" "spares without a redundant volume"
run "${small[@]}" --set volume.raid=raid5 --set volume.spares=2
expect_error "volume.raid" "raid5 over too few members"
run "${small[@]}" --set volume.raid=raid5 --set volume.member_capacity_gb=0.00001
expect_error "volume.member_capacity_gb" "a member capacity under one stripe unit"
run "${small[@]}" --set volume.member_capacity_gb=1
expect_error "volume.member_capacity_gb" "a member capacity without a volume"

# --- the 8+P+S shape, smaller: the member fails, the spare is rebuilt, same seed same results
shape=(--config "$root/configs/raid5_8p_s.json" --set volume.member_capacity_gb=0.01 --set workload.measured_ios=3000
       --set volume.rebuild_rate_mbs=0 --quiet)
run "${shape[@]}" --stats-json "$tmp/a.json"
expect_rc 0 "raid5_8p_s, smaller"
run "${shape[@]}" --stats-json "$tmp/b.json"
expect_same_results "$tmp/a.json" "$tmp/b.json" "raid5_8p_s repeated"
python3 - "$tmp/a.json" <<'PY' || fail "raid5_8p_s: results"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
v = r["volume"]
assert v["state"] == "optimal" and v["rebuilds_completed"] == 1 and not v["data_lost"], v
assert v["failures"] == ["disk 4 (member 4): failed at 100 ms"], v["failures"]
assert [d["state"] for d in r["disks"]] == ["present"] * 4 + ["failed"] + ["present"] * 5
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"]
for k in ("rebuild_time_s", "rebuild_bytes", "degraded_reads", "data_lost", "phases"):
    assert k in v, k
PY
ok "raid5_8p_s: the member fails, the spare is rebuilt, the account balances, a repeat is identical"
echo "$checks checks passed"
