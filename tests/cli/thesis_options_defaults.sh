#!/usr/bin/env bash
# The options of issue 21 (disk.max_concurrent, initiator/target.sft_engine, driver.disk_outstanding)
# at their defaults are the model without them: each given explicitly gives the same results, byte for
# byte but for the wall time, as not given at all (docs/disk.md, "Concurrent commands",
# docs/hba.md, "Single-frame transfers", docs/hba.md, "Outstanding commands per disk"). Comparison with the
# program before the options: tools/exactness.py.
# Usage: thesis_options_defaults.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

# Deep queues, mixed traffic, TASK SET FULL (2 slots for 6 I/Os per disk): every path the options touch.
base=(--set disk.count=3 --set workload.queue_depth=6 --set disk.queue_slots=2 --set workload.io_size=8K
      --set workload.read_fraction=0.66 --set workload.measured_ios=300 --quiet)
run "${base[@]}" --stats-json "$tmp/unset.json"
expect_rc 0 "the options unset"
run "${base[@]}" --set disk.max_concurrent=1 --set initiator.sft_engine=dma --set target.sft_engine=dma \
    --set driver.disk_outstanding=0 --stats-json "$tmp/set.json"
expect_rc 0 "the options at their defaults"
expect_same_results "$tmp/unset.json" "$tmp/set.json" "options unset / at their defaults"
ok "disk.max_concurrent=1, *.sft_engine=dma and driver.disk_outstanding=0 give the results of the options unset"

# And each option away from its default changes the run (the key reaches the model).
for opt in disk.max_concurrent=2 initiator.sft_engine=own target.sft_engine=own driver.disk_outstanding=1; do
    run "${base[@]}" --set "$opt" --stats-json "$tmp/other.json"
    expect_rc 0 "$opt"
    python3 - "$tmp/unset.json" "$tmp/other.json" <<'PY' || fail "$opt: the results did not change"
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:3])
assert a["mean_response_us"] != b["mean_response_us"], a["mean_response_us"]
assert b["issued_ios"] == b["completed_ios"], b
PY
done
ok "each option set away from its default reaches the model"

echo "thesis options at their defaults: $checks checks passed"
