#!/usr/bin/env bash
# Smoke test of the NORMAL vs CMDF sweep (tools/cmdf_sweep.py, on the general sweep tool): a quick sweep
# runs, and writes its CSV (one row per point, three arms), the gain table and the four figures; run
# again into the same folder it has nothing left to run (it resumes) and writes the same CSV. Uses Debian's python3 (with
# python3-matplotlib) even where another python3 comes first on PATH.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$py" "$here/../../tools/cmdf_sweep.py" --quick --measured 100 --fcal-sim "$bin/fcal-sim" --out "$out" >"$out/log" 2>&1 || {
  cat "$out/log"; echo "FAIL: the sweep did not run"; exit 1; }
rows=$(($(wc -l <"$out/sweep.csv") - 1))
# --quick: (4 sizes x 3 read fractions + 3 disk counts + 2 depths + 2 access times) x 3 arms
[ "$rows" -eq $(((4 * 3 + 3 + 2 + 2) * 3)) ] || { echo "FAIL: $rows CSV rows"; exit 1; }
for s in normal cmdf unfair; do
  grep -q ",$s," "$out/sweep.csv" || { echo "FAIL: no $s rows"; exit 1; }
done
grep -q "| 64 KiB |" "$out/gain_table.md" || { echo "FAIL: gain table"; cat "$out/gain_table.md"; exit 1; }
for f in sizes disks depth access; do
  [ -s "$out/$f.png" ] || { echo "FAIL: no $f.png"; exit 1; }
done
cp "$out/sweep.csv" "$out/first.csv"
"$py" "$here/../../tools/cmdf_sweep.py" --quick --measured 100 --fcal-sim "$bin/fcal-sim" --out "$out" --no-plots >"$out/log2" 2>&1 || {
  cat "$out/log2"; echo "FAIL: the second run failed"; exit 1; }
cmp -s "$out/first.csv" "$out/sweep.csv" || { echo "FAIL: the resumed run wrote another CSV"; exit 1; }
[ "$(($(wc -l <"$out/runs.csv") - 1))" -eq 57 ] || { echo "FAIL: runs.csv does not hold 57 runs after the second run"; exit 1; }
echo "cmdf sweep: 1 passed, 0 failed"
