#!/usr/bin/env bash
# Smoke test of the speed benchmark (issue 11): a quick run prints a Markdown table row, with a number
# in the activations-per-frame column, for each scenario. Timings are not checked. Uses Debian's python3
# even where another python3 comes first on PATH.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$py" "$here/../../tools/bench.py" --quick --reps 1 --fcal-sim "$bin/fcal-sim" >"$log" 2>&1 || {
  cat "$log"; echo "FAIL: the benchmark did not run"; exit 1; }
fail=0
for s in "baseline" "normal" "64 disks" "126 nodes" "login credit"; do
  # | scenario | sim s | wall s | sim s / wall s | x real time | activations / frame | ...
  grep -Eq "^\| $s \|( [^|]+ \|){4} [0-9][0-9.,]* \|" "$log" || { echo "FAIL: no table row for $s"; fail=1; }
done
grep -q "^Memory flat (baseline peak RSS):" "$log" || { echo "FAIL: no memory flat line"; fail=1; }
if [ "$fail" -ne 0 ]; then cat "$log"; exit 1; fi
echo "bench: 1 passed, 0 failed"
