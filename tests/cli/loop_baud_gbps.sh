#!/usr/bin/env bash
# loop.baud_gbps overrides the line rate of loop.speed: a 2GFC loop at 1.0625 Gbaud gives exactly the
# results of a 1GFC loop (the same word time everywhere) and different ones from 2GFC's; the config
# echo shows the baud in use (the speed's standard one when the key is not set); out-of-range and malformed values are refused with exit code 2 naming the key.
set -euo pipefail
bin=$1
sim="$bin/fcal-sim"
export SC_COPYRIGHT_MESSAGE=DISABLE
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
common=(--set disk.count=2 --set workload.measured_ios=40 --set workload.io_size=256K --quiet)

"$sim" "${common[@]}" --set loop.speed=1GFC --stats-json "$out/g1.json"
"$sim" "${common[@]}" --set loop.speed=2GFC --set loop.baud_gbps=1.0625 --stats-json "$out/o.json"
"$sim" "${common[@]}" --set loop.speed=2GFC --stats-json "$out/g2.json"
/usr/bin/python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
g1, o, g2 = (json.load(open(f"{d}/{n}.json")) for n in ("g1", "o", "g2"))
drop = lambda r: {k: v for k, v in r.items() if k != "wall_time_s"}
assert drop(g1["results"]) == drop(o["results"]), "2GFC at 1.0625 Gbaud differs from 1GFC"
assert o["config"]["loop"]["baud_gbps"] == 1.0625, o["config"]["loop"]
assert g2["config"]["loop"]["baud_gbps"] == 2.125, g2["config"]["loop"]
assert g1["config"]["loop"]["baud_gbps"] == 1.0625, g1["config"]["loop"]
assert drop(g2["results"]) != drop(o["results"]), "the override changed nothing"
PY
for bad in 0 0.05 101 fast; do
  rc=0
  "$sim" --set loop.baud_gbps=$bad --quiet 2>"$out/err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "loop.baud_gbps" "$out/err" || { cat "$out/err"; echo "FAIL: loop.baud_gbps=$bad gave exit $rc"; exit 1; }
done
echo "loop baud_gbps: 1 passed, 0 failed"
