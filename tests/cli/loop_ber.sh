#!/usr/bin/env bash
# loop.ber and loop.al_time_us (docs/faults.md, "Faults and recovery", "Bit errors on the loop"): at loop.ber=0 (the
# default) a run gives exactly the results of a run that does not name the keys, the two new counters
# at 0; the config echo shows both; out-of-range and malformed values are refused with exit code 2
# naming the key.
set -euo pipefail
source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"
export SC_COPYRIGHT_MESSAGE=DISABLE
common=(--set disk.count=2 --set workload.measured_ios=40 --quiet)

run "${common[@]}" --stats-json "$tmp/default.json"
expect_rc 0 "default run"
run "${common[@]}" --set loop.ber=0 --set loop.al_time_us=5 --stats-json "$tmp/zero.json"
expect_rc 0 "loop.ber=0"
/usr/bin/python3 - "$tmp" <<'PY'
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
ok "loop.ber=0 gives the default run's results"
for bad in loop.ber=-1e-9 loop.ber=2e-3 loop.ber=1 loop.ber=often loop.al_time_us=0 loop.al_time_us=-5 loop.al_time_us=soon; do
  run --set "$bad" --quiet
  expect_rc 2 "$bad"
  grep -q "${bad%%=*}" "$tmp/err" || fail "$bad: the error does not name the key: $(cat "$tmp/err")"
  ok "$bad refused"
done
# AL_TIME must exceed twice the round trip once bit errors are on (the default loop's is about 4 us).
run --set loop.ber=1e-9 --set loop.al_time_us=1 --quiet
expect_rc 2 "loop.al_time_us=1 with loop.ber=1e-9"
grep -q "loop.al_time_us" "$tmp/err" || fail "the AL_TIME error does not name the key: $(cat "$tmp/err")"
ok "AL_TIME below twice the round trip refused"
echo "loop ber: $checks passed, 0 failed"
