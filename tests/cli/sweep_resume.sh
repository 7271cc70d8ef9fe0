#!/usr/bin/env bash
# Resume after a killed sweep loses and repeats nothing: a sweep is killed with SIGKILL after a few
# runs are recorded, a torn half row is added to the file (as if the kill hit a write), and the sweep
# is run again. The resumed run starts exactly the runs that are missing (counted by a wrapper around
# fcal-sim), the file ends with one row per (point, seed), and the rows equal an uninterrupted run's.
set -euo pipefail
source "$(dirname "$0")/lib/sweep_setup.bash" "$1"

# (The sweep's own checks, --list-params and the dry runs, marked FCAL_SWEEP_CHECK=1, are not its runs.)
cat >"$out/wrap.sh" <<WRAP
#!/usr/bin/env bash
[ -n "\${FCAL_SWEEP_CHECK:-}" ] || echo run >>"$out/calls"
exec "$bin/fcal-sim" "\$@"
WRAP
chmod +x "$out/wrap.sh"
cat >"$out/spec.json" <<'SPEC'
{"name": "resume", "seeds": [3, 5], "results": ["iops", "mean_response_us"],
 "fixed": {"workload.measured_ios": 300, "disk.count": 8},
 "grid": {"workload.io_size": [2048, 8192, 16384, 32768, 65536], "schedule": ["normal", "cmdf"]}}
SPEC
total=20

"$py" "$sweep" run "$out/spec.json" --out "$out/ref" --jobs 2 --fcal-sim "$bin/fcal-sim" 2>/dev/null

"$py" "$sweep" run "$out/spec.json" --out "$out/cut" --jobs 1 --fcal-sim "$out/wrap.sh" 2>"$out/first.log" &
victim=$!
for _ in $(seq 600); do
  [ -f "$out/cut/runs.csv" ] && [ "$(wc -l <"$out/cut/runs.csv")" -ge 5 ] && break
  sleep 0.05
done
kill -9 "$victim"
wait "$victim" 2>/dev/null || true
before=$(($(wc -l <"$out/cut/runs.csv") - 1))
[ "$before" -ge 4 ] && [ "$before" -lt "$total" ] || { echo "FAIL: $before rows when killed (want 4..$((total - 1)))"; exit 1; }
printf '2048,normal,999,ok,0,,12' >>"$out/cut/runs.csv"   # a torn row: no newline, it was never finished
sleep 1   # the run in flight at the kill ends (orphaned); its result was never recorded
rm -f "$out/calls"

"$py" "$sweep" run "$out/spec.json" --out "$out/cut" --jobs 2 --fcal-sim "$out/wrap.sh" 2>"$out/second.log" || {
  cat "$out/second.log"; echo "FAIL: the resumed sweep failed"; exit 1; }
grep -q "$before already recorded, $((total - before)) to run" "$out/second.log" || {
  cat "$out/second.log"; echo "FAIL: the resume did not see $before recorded runs"; exit 1; }
calls=$(wc -l <"$out/calls")
[ "$calls" -eq $((total - before)) ] || { echo "FAIL: the resume ran $calls simulations, expected $((total - before))"; exit 1; }
after=$(($(wc -l <"$out/cut/runs.csv") - 1))
[ "$after" -eq "$total" ] || { echo "FAIL: $after rows after the resume, expected $total"; exit 1; }
grep -q ",999," "$out/cut/runs.csv" && { echo "FAIL: the torn row survived"; exit 1; }
dups=$(tail -n +2 "$out/cut/runs.csv" | cut -d, -f1,2,5 | sort | uniq -d | wc -l)
[ "$dups" -eq 0 ] || { echo "FAIL: $dups (point, seed) recorded twice"; exit 1; }
# (Field 9, build, names the binary: fcal-sim for the reference, the wrapper here.)
[ "$(head -1 "$out/cut/runs.csv" | cut -d, -f9)" = build ] || { echo "FAIL: runs.csv has no build column"; exit 1; }
cmp -s <(tail -n +2 "$out/ref/runs.csv" | cut -d, -f1-8,10- | sort) <(tail -n +2 "$out/cut/runs.csv" | cut -d, -f1-8,10- | sort) || {
  echo "FAIL: the resumed rows differ from an uninterrupted run's"; exit 1; }
cmp -s "$out/ref/summary.csv" "$out/cut/summary.csv" || { echo "FAIL: summaries differ"; exit 1; }

# A third run has nothing left to do.
rm -f "$out/calls"
"$py" "$sweep" run "$out/spec.json" --out "$out/cut" --fcal-sim "$out/wrap.sh" 2>/dev/null
[ ! -f "$out/calls" ] || { echo "FAIL: a finished sweep ran $(wc -l <"$out/calls") simulations again"; exit 1; }
echo "sweep resume: 1 passed, 0 failed"
