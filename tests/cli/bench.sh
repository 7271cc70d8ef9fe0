#!/usr/bin/env bash
# Smoke test of the speed benchmark (issue 19): a quick run prints a Markdown table row, with numbers
# in the x-real-time and port-activations-per-frame columns, for each scenario, and the targets
# table. Timings are not checked. Uses Debian's python3
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
for s in "baseline" "normal" "64 disks" "126 nodes" "4 KiB QD 4" "RAID 5 writes" "login credit" "rtl"; do
  # | scenario | x real time | wall s | instr / I/O | instr / frame | port act / frame | ...
  grep -Eq "^\| $s \| [0-9][0-9.,]* \|( [^|]+ \|){3} [0-9][0-9.,]* \|" "$log" || { echo "FAIL: no table row for $s"; fail=1; }
done
grep -q "^Runs behind the memory columns" "$log" || { echo "FAIL: no line on the memory runs"; fail=1; }
grep -q "^| target (issue 19) |" "$log" || { echo "FAIL: no targets table"; fail=1; }
if [ "$fail" -ne 0 ]; then cat "$log"; exit 1; fi
echo "bench: 1 passed, 0 failed"
