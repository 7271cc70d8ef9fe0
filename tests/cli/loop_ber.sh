#!/usr/bin/env bash
# loop.ber and loop.al_time_us (docs/model.md, "Faults and recovery", "The loop"): at loop.ber=0 (the
# default) a run gives exactly the results of a run that does not name the keys, the two new counters
# at 0; the config echo shows both; out-of-range and malformed values are refused with exit code 2
# naming the key.
set -euo pipefail
bin=$1
sim="$bin/fcal-sim"
export SC_COPYRIGHT_MESSAGE=DISABLE
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
common=(--set disk.count=2 --set workload.measured_ios=40 --quiet)

"$sim" "${common[@]}" --stats-json "$out/default.json"
"$sim" "${common[@]}" --set loop.ber=0 --set loop.al_time_us=5 --stats-json "$out/zero.json"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
a, b = (json.load(open(f"{d}/{n}.json")) for n in ("default", "zero"))
drop = lambda r: {k: v for k, v in r.items() if k != "wall_time_s"}
assert drop(a["results"]) == drop(b["results"]), "loop.ber=0 changed the results"
for r in (a["results"], b["results"]):
    assert r["frames_discarded"] == 0 and r["code_violations"] == 0, r
assert a["config"]["loop"]["ber"] == 0 and a["config"]["loop"]["al_time_us"] == 15000, a["config"]["loop"]
assert b["config"]["loop"]["al_time_us"] == 5, b["config"]["loop"]
PY
for bad in loop.ber=-1e-9 loop.ber=2e-3 loop.ber=1 loop.ber=often loop.al_time_us=0 loop.al_time_us=-5 loop.al_time_us=soon; do
  rc=0
  "$sim" --set "$bad" --quiet 2>"$out/err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "${bad%%=*}" "$out/err" || { cat "$out/err"; echo "FAIL: $bad gave exit $rc"; exit 1; }
done
echo "loop ber: 1 passed, 0 failed"
