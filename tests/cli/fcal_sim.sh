#!/usr/bin/env bash
# fcal-sim's command-line contract: parameters, results JSON, determinism, configuration files,
# exit codes 0 / 1 / 2 with one-line errors, the trace outputs, and the RTL transmit queue's keys,
# counters, back-pressure and VCD. (Equivalence of the RTL's results: rtl_equivalence.sh.)
# Usage: fcal_sim.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

# Small runs: few disks, few I/Os.
small=(--set disk.count=4 --set workload.measured_ios=200)

# Runs python3 on a JSON file with an inline program; the program raises (exits non-zero) on failure.
pycheck() {
    local file="$1" what="$2" program="$3"
    python3 - "$file" "$program" <<'EOF' || fail "$what"
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[2])
EOF
}

# --- 1. --list-params and --list-params --json list the same parameters, and every listed default
# is one --set accepts and means (the keys themselves are declared once, in the program).
run --list-params
expect_rc 0 "--list-params"
expect_no_stderr "--list-params"
cp "$tmp/out" "$tmp/list.txt"
run --list-params --json
expect_rc 0 "--list-params --json"
expect_no_stderr "--list-params --json"
cp "$tmp/out" "$tmp/list.json"
python3 - "$tmp/list.txt" "$tmp/list.json" >"$tmp/sets" <<'EOF2' || fail "--list-params and --list-params --json disagree"
import json, sys
text = [line.split()[0] for line in open(sys.argv[1]).read().splitlines()[1:] if line.strip()]
listing = json.load(open(sys.argv[2]))
assert text == [p["key"] for p in listing], "the two listings name other keys or another order"
assert len(text) >= 100, len(text)
for p in listing:
    for field in ["key", "type", "unit", "default", "default_text", "range", "per_disk", "description"]:
        assert field in p, (p["key"], field)
    if p["default"] is not None:
        print("--set\n%s=%s" % (p["key"], p["default_text"]))
EOF2
mapfile -t explicit <"$tmp/sets"
[[ ${#explicit[@]} -gt 150 ]] || fail "too few listed defaults: ${#explicit[@]}"
run "${explicit[@]}" --check
expect_rc 0 "every listed default given with --set"
for form in given defaulted; do
    args=(--set disk.count=2 --set workload.measured_ios=20 --stats-json "$tmp/$form.json" --quiet)
    [[ $form == given ]] && args=("${explicit[@]}" "${args[@]}")
    run "${args[@]}"
    expect_rc 0 "defaults $form"
done
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"])' "$tmp/given.json") \
       <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"])' "$tmp/defaulted.json") \
    || fail "the listed defaults, given, make another configuration than the defaults"
ok "--list-params and --list-params --json list the same keys; the $(( ${#explicit[@]} / 2 )) plain defaults, given with --set, change nothing"

# --- 2. default run: the baseline scenario with a readable summary
run
expect_rc 0 "default run"
expect_no_stderr "default run"
grep -q "IOPS" "$tmp/out" || fail "default run: summary has no IOPS: $(cat "$tmp/out")"
grep -q "MB/s" "$tmp/out" || fail "default run: summary has no MB/s: $(cat "$tmp/out")"
ok "default run exits 0 with an IOPS and MB/s summary"

# --- 3. --stats-json -: stdout is the JSON document alone
run "${small[@]}" --stats-json -
expect_rc 0 "--stats-json -"
expect_no_stderr "--stats-json -"
pycheck "$tmp/out" "--stats-json -: results incomplete or inconsistent: $(head -c 2000 "$tmp/out")" '
assert isinstance(doc.get("config"), dict) and doc["config"], "no config"
r = doc["results"]
for k in ["iops", "mb_per_s", "mean_response_us", "p50_response_us", "p99_response_us", "max_response_us",
          "measured_ios", "measured_time_s", "sim_time_s", "wall_time_s", "disks", "ports",
          "command_wait_mean_us", "command_wait_p99_us", "issued_ios", "completed_ios", "outstanding_ios"]:
    assert k in r, "results." + k + " missing"
assert isinstance(r["disks"], list) and len(r["disks"]) == 4, "disks: %r" % r["disks"]
for d in r["disks"]:
    assert isinstance(d, dict) and d, "empty disk entry"
assert sum(d["ios"] for d in r["disks"]) == 200, "per-disk ios do not add up to measured_ios"
assert isinstance(r["ports"], list) and len(r["ports"]) == 5, "ports: expected controller + 4 disks"
for p in r["ports"]:
    for k in ["arbitration_wait_mean_us", "arbitration_wait_max_us", "tenancy_share", "frames_sent"]:
        assert k in p, "ports[]." + k + " missing"
    assert 0 <= p["tenancy_share"] <= 1, "tenancy_share %r" % p["tenancy_share"]
assert r["issued_ios"] == r["completed_ios"], "issued %r != completed %r" % (r["issued_ios"], r["completed_ios"])
assert r["outstanding_ios"] == 0, "outstanding %r" % r["outstanding_ios"]
assert r["measured_ios"] == 200, "measured_ios %r" % r["measured_ios"]
assert r["iops"] > 0 and r["mb_per_s"] > 0, "no throughput"
assert r["p50_response_us"] <= r["p99_response_us"] <= r["max_response_us"], "percentiles out of order"
assert r["measured_time_s"] > 0 and r["sim_time_s"] >= r["measured_time_s"], "window times"
'
ok "--stats-json - prints complete, consistent results"

# --stats-json to a file keeps the summary on stdout.
run "${small[@]}" --stats-json "$tmp/stats.json"
expect_rc 0 "--stats-json FILE"
grep -q "IOPS" "$tmp/out" || fail "--stats-json FILE: no summary on stdout"
pycheck "$tmp/stats.json" "--stats-json FILE: bad results" 'assert doc["results"]["measured_ios"] == 200'
ok "--stats-json FILE writes the JSON and keeps the summary"

# --- 4. determinism: same config and seed, same results; another seed, other results
det=("${small[@]}" --set workload.read_fraction=0.5 --quiet)
for name in a b; do
    run "${det[@]}" --set workload.seed=7 --stats-json "$tmp/seed7$name.json"
    expect_rc 0 "seed 7 run $name"
done
run "${det[@]}" --set workload.seed=8 --stats-json "$tmp/seed8.json"
expect_rc 0 "seed 8 run"
python3 - "$tmp/seed7a.json" "$tmp/seed7b.json" "$tmp/seed8.json" <<'EOF' || fail "determinism"
import json, sys
def load(path):
    d = json.load(open(path))
    del d["results"]["wall_time_s"]
    return d
a, b, c = (load(p) for p in sys.argv[1:])
if a != b:
    sys.exit("same seed, different results: " + str([k for k in a["results"] if a["results"][k] != b["results"].get(k)]))
if a["results"] == c["results"]:
    sys.exit("seeds 7 and 8 gave identical results")
assert a["config"]["workload"]["seed"] == 7 and c["config"]["workload"]["seed"] == 8
EOF
ok "same seed reproduces the results exactly; another seed changes them"

# --- 5. --config with nested objects, dotted keys, both mixed; --set after the file wins
cat >"$tmp/nested.json" <<'EOF'
{"disk": {"count": 3, "access_ms": 1.5}, "workload": {"measured_ios": 100, "io_size": "8K", "seed": 5},
 "loop": {"speed": "4GFC", "length_m": 40}, "initiator": {"al_pa": "0x02"}}
EOF
cat >"$tmp/dotted.json" <<'EOF'
{"disk.count": 3, "disk.access_ms": 1.5, "workload.measured_ios": 100, "workload.io_size": "8K", "workload.seed": 5,
 "loop.speed": "4GFC", "loop.length_m": 40, "initiator.al_pa": "0x02"}
EOF
cat >"$tmp/mixed.json" <<'EOF'
{"disk": {"count": 3}, "disk.access_ms": 1.5, "workload": {"measured_ios": 100, "io_size": 8192},
 "workload.seed": 5, "loop.speed": "4GFC", "loop": {"length_m": 40}, "initiator.al_pa": 2}
EOF
for form in nested dotted mixed; do
    run --config "$tmp/$form.json" --stats-json "$tmp/$form.out.json" --quiet
    expect_rc 0 "--config $form"
    pycheck "$tmp/$form.out.json" "--config $form: file values not applied" '
c = doc["config"]
assert c["disk"]["count"] == 3 and c["disk"]["access_ms"] == 1.5, c["disk"]
assert c["workload"]["measured_ios"] == 100 and c["workload"]["io_size"] == 8192 and c["workload"]["seed"] == 5, c["workload"]
assert c["loop"]["speed"] == "4GFC" and c["loop"]["nodes"] == 4 and c["loop"]["hop_m"] == 10.0, c["loop"]
assert c["initiator"]["al_pa"].upper() == "0X02", c["initiator"]
assert doc["results"]["measured_ios"] == 100 and len(doc["results"]["disks"]) == 3
'
done
cmp -s <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"])' "$tmp/nested.out.json") \
       <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"])' "$tmp/dotted.out.json") \
    || fail "--config: nested and dotted forms give different configurations"
run --config "$tmp/nested.json" --set disk.count=2 --set workload.io_size=4K --stats-json "$tmp/override.json" --quiet
expect_rc 0 "--config with --set"
pycheck "$tmp/override.json" "--set does not override --config" '
c = doc["config"]
assert c["disk"]["count"] == 2 and c["workload"]["io_size"] == 4096, (c["disk"], c["workload"])
assert c["disk"]["access_ms"] == 1.5 and c["loop"]["speed"] == "4GFC", "file values lost"
assert c["loop"]["nodes"] == 3, "loop.nodes should follow disk.count + 1"
'
ok "--config accepts nested objects, dotted keys and both; --set overrides the file"

# --- 6. bad input: exit 2, one line on stderr naming the key or file, no output
# expect_bad NEEDLE ARGS...: the run must fail with exit 2 and one stderr line containing NEEDLE.
expect_bad() {
    local needle="$1"; shift
    local what="fcal-sim $*"
    run "$@"
    expect_rc 2 "$what"
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$what: expected a one-line error on stderr, got: $(cat "$tmp/err")"
    grep -qF -- "$needle" "$tmp/err" || fail "$what: error does not name '$needle': $(cat "$tmp/err")"
    [[ -s "$tmp/out" ]] && fail "$what: unexpected stdout: $(head -c 500 "$tmp/out")"
    return 0
}
expect_bad disk.cont --set disk.cont=3
expect_bad disk.count --set disk.count=abc
expect_bad disk.count --set disk.count=0
expect_bad workload.read_fraction --set workload.read_fraction=1.5
expect_bad workload.io_size --set workload.io_size=0
expect_bad initiator.al_pa --set initiator.al_pa=0xF0
expect_bad loop.nodes --set disk.count=16 --set loop.nodes=10
expect_bad schedule --set schedule=sometimes
expect_bad cmdf.fifo --set cmdf.fifo=sideways
printf '{"disk": {"count": 3,}\n' >"$tmp/malformed.json"
expect_bad malformed.json --config "$tmp/malformed.json"
expect_bad "$tmp/missing.json" --config "$tmp/missing.json"
printf '{"disk": {"count": "3"}}\n' >"$tmp/wrongtype.json"
expect_bad disk.count --config "$tmp/wrongtype.json"
expect_bad --bogus --bogus
ok "bad input exits 2 with a one-line error naming the key or file"

# --- 7. port-watcher trace and VCD
run --set disk.count=2 --set workload.measured_ios=10 --trace "$tmp/trace.txt" --vcd "$tmp/wave.vcd" --quiet
expect_rc 0 "--trace/--vcd run"
expect_no_stderr "--trace/--vcd run"
[[ -s "$tmp/trace.txt" ]] || fail "--trace: no trace written"
line_re='^[0-9]+(\.[0-9]+)? [0-9A-Fa-f]{2} [A-Z_]+ [0-9]+ [^ ]+=>[^ ]+$'
if grep -vqE "$line_re" "$tmp/trace.txt"; then
    fail "--trace: malformed line: $(grep -vE "$line_re" "$tmp/trace.txt" | head -1)"
fi
grep -qE '=>OPN' "$tmp/trace.txt" || fail "--trace: no OPN"
grep -qE '=>SOF' "$tmp/trace.txt" || fail "--trace: no SOF"
ok "--trace writes '<time> <AL_PA> <STATE> <count> <A>=><B>' lines including OPN and SOF"
[[ -s "$tmp/wave.vcd" ]] || fail "--vcd: $tmp/wave.vcd not written (files: $(ls "$tmp"))"
grep -qF '$enddefinitions' "$tmp/wave.vcd" || fail "--vcd: no \$enddefinitions"
grep -qF 'lpsm_state' "$tmp/wave.vcd" || fail "--vcd: no lpsm_state signal"
ok "--vcd writes a VCD with lpsm_state"

# --- 8. time limit reached: exit 1 with the ports' states
run --set sim.time_limit_s=0.001
expect_rc 1 "tiny sim.time_limit_s"
grep -q "sim.time_limit_s" "$tmp/err" || fail "time limit: stderr does not say why: $(cat "$tmp/err")"
grep -qE 'controller .*(MONITORING|ARBITRATING|ARBITRATION_WON|OPEN|OPENED|XMITTED_CLOSE|RECEIVED_CLOSE|TRANSMITTED_CLOSE)' "$tmp/err" \
    || fail "time limit: no controller state in the diagnosis: $(cat "$tmp/err")"
[[ $(grep -cE 'disk[0-9]+ ' "$tmp/err") -eq 16 ]] || fail "time limit: expected a state line for each of the 16 disks: $(cat "$tmp/err")"
ok "a tiny sim.time_limit_s exits 1 and prints every port's state"

rtl_small=(--set disk.count=4 --set workload.measured_ios=100 --set workload.read_fraction=0.5)

# --- 9. RTL transmit queue (issue 8): bad values name their key
expect_bad cmdf.impl --set cmdf.impl=verilog
expect_bad rtl.lockstep --set rtl.lockstep=true
expect_bad rtl.clock_mhz --set cmdf.impl=rtl --set rtl.clock_mhz=0
expect_bad rtl.clock_mhz --set cmdf.impl=rtl --set rtl.clock_mhz=1e-12
expect_bad rtl.clock_mhz --set cmdf.impl=rtl --set rtl.clock_mhz=1e300
expect_bad initiator.tx_fifo_frames --set cmdf.impl=rtl --set initiator.tx_fifo_frames=32
expect_bad initiator.cmd_fifo_frames --set cmdf.impl=rtl --set initiator.cmd_fifo_frames=8
expect_bad initiator.tx_fifo_frames --set initiator.tx_fifo_frames=0
ok "bad cmdf.impl / rtl.* / FIFO depth values exit 2 naming the key"

# --- 10. the RTL-only counters appear with cmdf.impl=rtl only; the lock-step counts its decisions
run "${rtl_small[@]}" --stats-json "$tmp/model.json" --quiet
[[ $rc -eq 0 ]] || fail "model run: exit $rc: $(cat "$tmp/err")"
run "${rtl_small[@]}" --set cmdf.impl=rtl --set rtl.lockstep=true --stats-json "$tmp/rtl.json" --quiet
[[ $rc -eq 0 ]] || fail "rtl lock-step run: exit $rc: $(cat "$tmp/err")"
python3 - "$tmp/model.json" "$tmp/rtl.json" <<'PY' || fail "RTL-only counters"
import json, sys
m, r = (json.load(open(p))["results"] for p in sys.argv[1:])
assert "rtl" not in m, m.keys()
c = r["rtl"]
# One cycle per push and one per pop: every frame the controller sent went through the RTL twice.
frames = r["ports"][0]["frames_sent"]
assert c["cycles"] >= 2 * frames > 0, (c, frames)
assert c["decisions_compared"] > c["cycles"], c
assert r["issued_ios"] == r["completed_ios"] and r["outstanding_ios"] == 0
PY
ok "results carry rtl.cycles / evaluations / decisions_compared only with cmdf.impl=rtl"

# --- 11. back-pressure: with a 2-frame FIFO the HBA holds write data, and nothing is lost
for impl in model rtl; do
    depth=2; [[ $impl == rtl ]] && depth=64
    run --set disk.count=4 --set workload.queue_depth=2 --set workload.read_fraction=0 --set workload.measured_ios=100 \
        --set initiator.tx_fifo_frames=$depth --set cmdf.impl=$impl --stats-json "$tmp/bp.json" --quiet
    [[ $rc -eq 0 ]] || fail "back-pressure run ($impl): exit $rc: $(cat "$tmp/err")"
    python3 - "$tmp/bp.json" <<'PY' || fail "back-pressure ($impl)"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["tx_frames_held"] > 0, r["tx_frames_held"]
assert r["issued_ios"] == r["completed_ios"] > 0 and r["outstanding_ios"] == 0
PY
done
ok "a full transmit FIFO holds frames in the HBA (model with 2 frames, RTL with 64) and every I/O completes"

# --- 12. --vcd with the RTL: a second VCD with the block's signals, on the same picosecond axis
run "${rtl_small[@]}" --set workload.measured_ios=10 --set workload.warmup_ios=0 --set cmdf.impl=rtl --vcd "$tmp/wave.vcd" --quiet
[[ $rc -eq 0 ]] || fail "--vcd run: exit $rc: $(cat "$tmp/err")"
[[ -s "$tmp/wave_rtl.vcd" ]] || fail "no $tmp/wave_rtl.vcd (files: $(ls "$tmp"))"
for s in head_valid head_tag frame_count cmd_count preempt_req q_dest push pop clk; do
    grep -qE "\\\$var .* $s(\\s|\\[)" "$tmp/wave_rtl.vcd" || fail "RTL VCD: no signal $s"
done
for f in wave.vcd wave_rtl.vcd; do
    grep -A1 '\$timescale' "$tmp/$f" | grep -q '1 *ps' || fail "$f: not in ps"
    python3 - "$tmp/$f" <<'PY' || fail "$f: time stamps not increasing"
import sys
last = -1
for line in open(sys.argv[1]):
    if line.startswith("#"):
        t = int(line[1:])
        assert t > last, (last, t)
        last = t
assert last > 0
PY
done
ok "--vcd with cmdf.impl=rtl also writes PATH_rtl.vcd (ps, increasing time) with the block's signals"

echo "fcal-sim CLI: $checks checks passed"
