#!/usr/bin/env bash
# The sweep tool's spec, failure recording, statistics and plot:
# - a zipped axis with a value fcal-sim refuses (disk.count=200): that point is recorded as failed with
#   fcal-sim's exit code 2 and the stderr line naming the key, the other points still run, exit code 1;
# - three seeds per point: the summary's mean and 95 % half-width equal mean +- t(0.975, 2) s / sqrt(3)
#   recomputed here from runs.csv (t = 4.302653, from tables);
# - seeds change the results (the workload draws reads and writes at random), so the CI is not zero;
# - `plot` draws a PNG; a malformed spec is refused with exit code 2.
set -euo pipefail
source "$(dirname "$0")/lib/sweep_setup.bash" "$1"

cat >"$out/spec.toml" <<'SPEC'
name = "basic"
seeds = 3
results = ["iops", "mean_response_us"]
[fixed]
"workload.measured_ios" = 60
"workload.read_fraction" = 0.5
[[zip]]
"disk.count" = [2, 4, 200]
"workload.io_size" = ["4K", "16K", "4K"]
SPEC
rc=0
"$py" "$sweep" run "$out/spec.toml" --out "$out/r" --fcal-sim "$bin/fcal-sim" 2>"$out/log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$out/log"; echo "FAIL: exit code $rc with a failed point, expected 1"; exit 1; }
[ "$(grep -c ',failed,2,' "$out/r/runs.csv")" -eq 3 ] || { cat "$out/r/runs.csv"; echo "FAIL: the bad point's 3 runs are not recorded as failed with exit code 2"; exit 1; }
grep ',failed,2,' "$out/r/runs.csv" | grep -q 'disk.count' || { echo "FAIL: the stderr tail does not name disk.count"; exit 1; }
[ "$(grep -c ',ok,0,' "$out/r/runs.csv")" -eq 6 ] || { echo "FAIL: the good points did not all run"; exit 1; }

"$py" - "$out/r/runs.csv" "$out/r/summary.csv" <<'PY'
import csv, math, sys
runs = list(csv.DictReader(open(sys.argv[1])))
summ = {(r["disk.count"], r["workload.io_size"]): r for r in csv.DictReader(open(sys.argv[2]))}
T = 4.302653  # Student t, 0.975 quantile, 2 degrees of freedom
for key in [("2", "4K"), ("4", "16K")]:
    vals = [float(r["iops"]) for r in runs if (r["disk.count"], r["workload.io_size"]) == key and r["status"] == "ok"]
    assert len(vals) == 3, key
    m = sum(vals) / 3
    s = math.sqrt(sum((v - m) ** 2 for v in vals) / 2)
    assert s > 0, f"{key}: seeds gave identical results {vals}"
    row = summ[key]
    assert int(row["runs"]) == 3 and int(row["failed"]) == 0, row
    assert abs(float(row["iops"]) - m) <= 1e-9 * m, (row["iops"], m)
    assert abs(float(row["iops_ci95"]) - T * s / math.sqrt(3)) <= 1e-5 * T * s, (row["iops_ci95"], T * s / math.sqrt(3))
bad = summ[("200", "4K")]
assert bad["runs"] == "0" and bad["failed"] == "3" and bad["iops"] == "", bad
PY

"$py" "$sweep" plot "$out/r/summary.csv" --x disk.count --y iops --out "$out/p.png" >/dev/null
[ -s "$out/p.png" ] || { echo "FAIL: no plot"; exit 1; }

echo '{"name": "x", "results": ["iops"], "zip": {"disk.count": [1, 2], "schedule": ["cmdf"]}}' >"$out/bad.json"
rc=0
"$py" "$sweep" run "$out/bad.json" --out "$out/b" --fcal-sim "$bin/fcal-sim" 2>"$out/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "zip" "$out/err" || { cat "$out/err"; echo "FAIL: a zip of unequal lengths was not refused (rc $rc)"; exit 1; }
echo "sweep basic: 1 passed, 0 failed"
