#!/usr/bin/env bash
# fcal-sim's outputs (issue 18: nothing lost at the edges): a refused run leaves existing files as
# they were and creates none; an interrupted run (SIGINT, SIGTERM) stops cleanly with its documented
# exit code, writes the partial results it was asked for and leaves the trace and VCD untouched; a
# write that fails (a device, a file size limit) is exit 6 naming the path, with no file replaced;
# --vcd writes the path as given; empty and shared paths are bad input.
# Usage: fcal_sim_outputs.sh <bin dir>
set -euo pipefail

source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"

tiny=(--set disk.count=2 --set workload.measured_ios=20 --set workload.warmup_ios=0)
# Long enough to be interrupted (hours), short to start.
long=(--set disk.count=4 --set workload.measured_ios=100000000)

# Four existing outputs in a folder of their own, and a check that they (and nothing else) are there.
fresh_outputs() {
    rm -rf "$tmp/o"
    mkdir "$tmp/o"
    for f in p.stats p.trace p.cdf p.vcd; do echo "keep $f" >"$tmp/o/$f"; done
}
expect_untouched() {  # expect_untouched WHAT FILE...: each still "keep NAME"; no other file in the folder
    local what="$1"; shift
    for f in "$@"; do
        [[ "$(cat "$tmp/o/$f")" == "keep $f" ]] || fail "$what: $f was changed: $(head -c 200 "$tmp/o/$f")"
    done
    local extra
    extra=$(cd "$tmp/o" && ls -A | grep -vxE 'p\.(stats|trace|cdf|vcd)' || true)
    [[ -z "$extra" ]] || fail "$what: files left behind: $extra"
}
outputs=(--stats-json "$tmp/o/p.stats" --trace "$tmp/o/p.trace" --cdf "$tmp/o/p.cdf" --vcd "$tmp/o/p.vcd")

# Runs the simulator in the background with SIGINT and SIGTERM at their defaults (a script's
# background job would otherwise ignore SIGINT), waits until its outputs' temporary files exist (the
# run has started), sends signal $1 and waits. Leaves stdout/stderr in $tmp/out, $tmp/err, the code in $rc.
interrupt() {
    local signal="$1"; shift
    python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        "$sim" "$@" >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    for _ in $(seq 300); do
        compgen -G "$tmp/o/.p.*" >/dev/null && break
        sleep 0.1
    done
    sleep 0.3
    kill -s "$signal" "$pid"
    set +e
    wait "$pid"
    rc=$?
    set -e
}

# --- 1. a run refused at the last check (the AL_TIME rule) used to truncate all four outputs
fresh_outputs
run "${outputs[@]}" --set loop.ber=0.001 --set loop.al_time_us=1
expect_error loop.al_time_us "refused run (AL_TIME)"
expect_untouched "refused run (AL_TIME)" p.stats p.trace p.cdf p.vcd
# ... and the other rules that used to come only with elaboration: the RTL's depths, the span, a
# stripe unit larger than a fixed disk (exit 5 before), a disk smaller than one I/O (exit 5 before)
for refused in "initiator.tx_fifo_frames --set cmdf.impl=rtl --set initiator.tx_fifo_frames=8" \
               "workload.span_bytes --set workload.span_bytes=1K" \
               "volume.stripe_kib --set volume.raid=raid0 --set disk.capacity_gb=0.00001" \
               "workload.io_size --set disk.capacity_gb=0.000001"; do
    read -r -a words <<<"$refused"
    run "${tiny[@]}" "${outputs[@]}" "${words[@]:1}"
    expect_error "${words[0]}" "refused run (${words[0]})"
    expect_untouched "refused run (${words[0]})" p.stats p.trace p.cdf p.vcd
done
# A refused run does not probe by creating the VCD (it used to leave an empty one).
run --vcd "$tmp/o/new.vcd" --set loop.ber=0.001 --set loop.al_time_us=1
[[ ! -e "$tmp/o/new.vcd" ]] || fail "a refused run created $tmp/o/new.vcd"
ok "refused runs leave existing outputs as they were and create none"

# --- 2. SIGTERM and SIGINT stop the run cleanly: 143 / 130, partial results, trace and VCD untouched
for signal in TERM INT; do
    fresh_outputs
    interrupt "$signal" "${long[@]}" "${outputs[@]}" --quiet
    code=$([[ $signal == TERM ]] && echo 143 || echo 130)
    expect_rc "$code" "SIG$signal"
    grep -q "interrupted by SIG$signal" "$tmp/err" || fail "SIG$signal: stderr does not say so: $(head -c 500 "$tmp/err")"
    python3 - "$tmp/o/p.stats" <<'PY' || fail "SIG$signal: the stats JSON is not the partial run's"
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r["run_end"] == "interrupted", r["run_end"]
assert r["issued_ios"] == r["completed_ios"] + r["failed_ios"] + r["outstanding_ios"], r
assert 0 < r["completed_ios"] < 100000000, r["completed_ios"]
PY
    head -1 "$tmp/o/p.cdf" | grep -qx "quantile,response_us" || fail "SIG$signal: the CDF was not written"
    expect_untouched "SIG$signal" p.trace p.vcd
done
# Results on standard output are complete JSON too.
fresh_outputs
interrupt TERM "${long[@]}" --stats-json - --trace "$tmp/o/p.trace"
expect_rc 143 "SIGTERM, --stats-json -"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["results"]["run_end"] == "interrupted"' "$tmp/out" ||
    fail "SIGTERM, --stats-json -: no complete JSON on stdout"
ok "SIGTERM and SIGINT end the run with 143 and 130, run_end interrupted, stats and CDF written, trace and VCD untouched"

# --- 3. write errors: exit 6 naming what could not be written, and no output replaced
run "${tiny[@]}" --trace /dev/full --quiet
expect_rc 6 "--trace /dev/full"
grep -qF "fcal-sim: --trace: '/dev/full': cannot write (No space left on device)" "$tmp/err" || fail "--trace /dev/full: $(cat "$tmp/err")"
run "${tiny[@]}" --trace /dev/null --stats-json /dev/null --quiet
expect_rc 0 "outputs to /dev/null"
for what in "--stats-json -" "" "--list-params"; do
    set +e
    # shellcheck disable=SC2086
    timeout 60 "$sim" "${tiny[@]}" $what >/dev/full 2>"$tmp/err"
    rc=$?
    set -e
    expect_rc 6 "${what:-the summary} > /dev/full"
    grep -q "standard output: cannot write" "$tmp/err" || fail "${what:-the summary} > /dev/full: $(cat "$tmp/err")"
done
# A file size limit (SIGXFSZ ignored, so writes fail with EFBIG) cuts the trace, and the VCD that
# SystemC writes without reporting errors: neither they nor the stats replace what was there.
for out in --trace --vcd; do
    fresh_outputs
    set +e
    (trap '' XFSZ; ulimit -f 64; exec "$sim" "${tiny[@]}" --set workload.measured_ios=400 --stats-json "$tmp/o/p.stats" \
        "$out" "$tmp/o/p.${out#--}" --quiet) >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
    expect_rc 6 "a size limit with $out"
    grep -qF -- "$out: '$tmp/o/p.${out#--}': cannot write" "$tmp/err" || fail "a size limit: $out not named: $(cat "$tmp/err")"
    expect_untouched "a size limit ($out)" p.stats p.trace p.cdf p.vcd
done
# Verilator's own VCD writer ended the program on a write error (5.006 deadlocked doing it).
fresh_outputs
set +e
(trap '' XFSZ; ulimit -f 64; exec timeout 60 "$sim" "${tiny[@]}" --set workload.measured_ios=400 --set cmdf.impl=rtl \
    --stats-json "$tmp/o/p.stats" --vcd "$tmp/o/p.vcd" --quiet) >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
expect_rc 6 "a size limit with the RTL's VCD"
grep -qF -- "--vcd: '$tmp/o/p_rtl.vcd': cannot write (File too large)" "$tmp/err" || fail "a size limit: the RTL's VCD not named: $(cat "$tmp/err")"
expect_untouched "a size limit (the RTL's VCD)" p.stats p.vcd
ok "write errors (a full device, standard output, a file size limit) exit 6 naming the output; nothing is replaced"

# --- 4. --vcd writes the path given: no ".vcd" added, no directory or device taken
run "${tiny[@]}" --vcd "$tmp/wave" --quiet
expect_rc 0 "--vcd without .vcd"
grep -qF '$enddefinitions' "$tmp/wave" || fail "--vcd $tmp/wave: not written there (files: $(ls "$tmp"))"
[[ ! -e "$tmp/wave.vcd" ]] || fail "--vcd $tmp/wave also wrote $tmp/wave.vcd"
mkdir "$tmp/adir"
run "${tiny[@]}" --vcd "$tmp/adir"
expect_error "is a directory" "--vcd a directory"
[[ ! -e "$tmp/adir.vcd" ]] || fail "--vcd a directory wrote $tmp/adir.vcd"
mkfifo "$tmp/pipe"
run "${tiny[@]}" --vcd "$tmp/pipe"
expect_error "is not a regular file" "--vcd a pipe"
[[ ! -e "$tmp/pipe.vcd" ]] || fail "--vcd a pipe wrote $tmp/pipe.vcd"
# With the RTL, its VCD is PATH minus .vcd plus _rtl.vcd.
run "${tiny[@]}" --set cmdf.impl=rtl --vcd "$tmp/rtlwave" --quiet
expect_rc 0 "--vcd with the RTL"
[[ -s "$tmp/rtlwave" && -s "$tmp/rtlwave_rtl.vcd" ]] || fail "--vcd with the RTL: files $(ls "$tmp")"
ok "--vcd writes exactly PATH (the RTL's PATH_rtl.vcd) and refuses directories and devices"

# --- 5. empty paths and two outputs on one path are bad input (empty ones used to be ignored)
for option in --stats-json --trace --vcd --cdf --config; do
    run "${tiny[@]}" "$option" ""
    expect_error "$option: an empty path" "$option \"\""
done
run "${tiny[@]}" --stats-json "$tmp/same" --cdf "$tmp/same"
expect_error "is the path of another output" "--stats-json and --cdf on one path"
ok "empty output paths and one path for two outputs exit 2"

# --- 5b. --check: the configuration and the output paths checked, nothing run or written
fresh_outputs
run "${long[@]}" --check --stats-json "$tmp/o/new.stats" --trace "$tmp/o/p.trace"
expect_rc 0 "--check"
expect_no_stderr "--check"
[[ ! -s "$tmp/out" ]] || fail "--check printed: $(head -c 300 "$tmp/out")"
[[ ! -e "$tmp/o/new.stats" ]] || fail "--check wrote $tmp/o/new.stats"
expect_untouched "--check" p.trace
run --check --set loop.ber=0.001 --set loop.al_time_us=1
expect_error loop.al_time_us "--check of a refused configuration"
run --check --stats-json "$tmp/no/such/folder/s.json"
expect_error "no folder" "--check of an output in a folder that does not exist"
ok "--check exits 0 or 2 without running or writing anything"

# --- 6. tracing changes how the run is computed (results.kernel), never what it computes
run "${tiny[@]}" --set workload.measured_ios=200 --stats-json "$tmp/plain.json" --quiet
run "${tiny[@]}" --set workload.measured_ios=200 --stats-json "$tmp/traced.json" --trace /dev/null --quiet
python3 - "$tmp/plain.json" "$tmp/traced.json" <<'PY' || fail "--trace changed a result other than wall_time_s and kernel"
import json, sys
a, b = (json.load(open(p))["results"] for p in sys.argv[1:3])
assert a["kernel"]["port_activations"] != b["kernel"]["port_activations"], "expected the traced run to cost more"
for r in (a, b):
    r.pop("wall_time_s"), r.pop("kernel")
assert a == b
PY
readme="$(dirname "$0")/../../README.md"
grep -q 'byte-identical JSON apart from `wall_time_s` and the `kernel` block' "$readme" ||
    fail "README: the determinism promise does not name the kernel block, which --trace and --vcd change"
ok "tracing leaves every result but wall_time_s and the kernel block (documented) identical"

echo "fcal-sim outputs: $checks checks passed"
