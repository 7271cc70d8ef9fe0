#!/usr/bin/env bash
# The sweep tool cannot double or orphan runs (issue 18):
# - a malformed spec is refused naming its file; a key fcal-sim does not know is refused before the
#   first run (it used to make every run fail);
# - a second `sweep run` into a folder in use is refused (both used to run, recording every run twice);
# - SIGTERM and SIGINT stop the sweep (143, 130) and every simulation it started, record none of the
#   stopped ones, and a resume then completes the sweep with each run recorded once;
# - SIGKILL of the sweep leaves no simulation running for long (fcal-sim --stop-with-parent).
# A wrapper around fcal-sim records the PID of every simulation, so the test sees each one end. With
# SLOW=1 it makes every simulation take about a minute (a later --set wins), so that one that is not
# stopped is seen still running; with DELAY=S each simulation starts S seconds late, so that a sweep
# surely still holds its folder when a second one comes (however fast the simulations are); the test checks the sweep's bookkeeping, not its results.
set -euo pipefail
source "$(dirname "$0")/lib/sweep_setup.bash" "$1"
fail() { echo "FAIL: $*"; exit 1; }

cat >"$out/wrap.sh" <<WRAP
#!/usr/bin/env bash
# (The sweep's own checks, --list-params and the dry runs, marked FCAL_SWEEP_CHECK=1, are not its runs.)
[ -z "\${FCAL_SWEEP_CHECK:-}" ] || exec "$bin/fcal-sim" "\$@"
echo "\$\$" >>"$out/pids"
[ -z "\${DELAY:-}" ] || sleep "\$DELAY"
exec "$bin/fcal-sim" "\$@" \${SLOW:+--set workload.measured_ios=200000}
WRAP
chmod +x "$out/wrap.sh"
sweep_run() { "$py" "$sweep" run "$@" --fcal-sim "$out/wrap.sh"; }
# None of the simulations recorded in $out/pids may still run ($1: seconds allowed to end).
expect_all_ended() {
    local deadline=$((SECONDS + $1)) pid
    [ -s "$out/pids" ] || fail "$2: no simulation was started"
    while read -r pid; do
        while kill -0 "$pid" 2>/dev/null; do
            [ $SECONDS -lt $deadline ] || fail "$2: simulation $pid still running after $1 s"
            sleep 0.1
        done
    done <"$out/pids"
}
expect_rows() {  # expect_rows DIR N: N rows, every one ok, no (point, seed) twice
    "$py" - "$1/runs.csv" "$2" <<'PY' || fail "$1/runs.csv: $(cat "$1/runs.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = [tuple(v for k, v in r.items() if k not in ("status", "exit_code", "stderr_tail", "iops")) for r in rows]
assert len(rows) == int(sys.argv[2]), f"{len(rows)} rows, expected {sys.argv[2]}"
assert len(set(keys)) == len(keys), "a run recorded twice"
assert all(r["status"] == "ok" for r in rows), "a run recorded as failed"
PY
}
# Waits until $1 simulations have started.
wait_started() {
    for _ in $(seq 600); do
        [ -f "$out/pids" ] && [ "$(wc -l <"$out/pids")" -ge "$1" ] && return 0
        sleep 0.05
    done
    fail "no simulation started"
}

# --- 1. malformed specs name their file; unknown keys are refused before any run
printf 'name = "x"\nresults = ["iops"\n' >"$out/broken.toml"
printf '[1, 2]' >"$out/list.json"
for spec in broken.toml list.json; do
    rc=0
    sweep_run "$out/$spec" --out "$out/b" 2>"$out/err" || rc=$?
    [ "$rc" -eq 2 ] && grep -qF "$out/$spec:" "$out/err" || fail "$spec: exit $rc, message without the file: $(cat "$out/err")"
done
printf '{"results": ["iops"], "fixed": {"workload.measured_iops": 10}, "grid": {"disk.count": [1, 2]}}' >"$out/typo.json"
rc=0
sweep_run "$out/typo.json" --out "$out/t" 2>"$out/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "workload.measured_iops" "$out/err" || fail "unknown key: exit $rc: $(cat "$out/err")"
[ ! -f "$out/pids" ] || fail "unknown key: $(wc -l <"$out/pids") simulations ran before the refusal"
[ ! -f "$out/t/runs.csv" ] || fail "unknown key: runs were recorded"
echo "OK: malformed specs and unknown keys are refused (exit 2) naming the file or key, before any run"

# --- 2. one `sweep run` per folder
cat >"$out/quick.json" <<'SPEC'
{"name": "quick", "seeds": [1, 2], "results": ["iops"], "fixed": {"workload.measured_ios": 600, "disk.count": 4},
 "grid": {"workload.io_size": [4096, 16384, 65536]}}
SPEC
DELAY=1 sweep_run "$out/quick.json" --out "$out/q" --jobs 1 2>/dev/null &
first=$!
wait_started 1
rc=0
sweep_run "$out/quick.json" --out "$out/q" --jobs 1 2>"$out/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "another \`sweep run\` (pid [0-9]*)" "$out/err" || fail "a second sweep into the folder: exit $rc: $(cat "$out/err")"
wait "$first" || fail "the first sweep failed"
expect_rows "$out/q" 6
echo "OK: a second sweep into a folder in use is refused; the first records each run once"

# --- 3. SIGTERM and SIGINT stop the sweep and its simulations; a resume completes it
for signal in TERM INT; do
    rm -rf "$out/s" "$out/pids"
    # (SIGINT at its default: a script's background job would ignore it.)
    SLOW=1 "$py" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
        "$py" "$sweep" run "$out/quick.json" --out "$out/s" --jobs 2 --fcal-sim "$out/wrap.sh" 2>"$out/log" &
    victim=$!
    wait_started 2
    kill -s "$signal" "$victim"
    rc=0
    wait "$victim" || rc=$?
    code=$([ "$signal" = TERM ] && echo 143 || echo 130)
    [ "$rc" -eq "$code" ] || { cat "$out/log"; fail "SIG$signal: the sweep exited $rc, expected $code"; }
    expect_all_ended 5 "SIG$signal"
    grep -q "interrupted (SIG$signal)" "$out/log" || fail "SIG$signal: the sweep does not say so: $(cat "$out/log")"
    [ "$(wc -l <"$out/s/runs.csv")" -eq 1 ] || fail "SIG$signal: a stopped run was recorded: $(cat "$out/s/runs.csv")"
    rm -f "$out/pids"
    sweep_run "$out/quick.json" --out "$out/s" --jobs 2 2>"$out/log" || { cat "$out/log"; fail "SIG$signal: the resume failed"; }
    [ "$(wc -l <"$out/pids")" -eq 6 ] || fail "SIG$signal: the resume ran $(wc -l <"$out/pids") simulations, expected 6"
    expect_rows "$out/s" 6
done
echo "OK: SIGTERM and SIGINT end the sweep (143, 130) and all its simulations; nothing stopped is recorded; a resume completes it"

# --- 4. SIGKILL of the sweep: its simulations notice and stop
rm -rf "$out/k" "$out/pids"
SLOW=1 "$py" "$sweep" run "$out/quick.json" --out "$out/k" --jobs 2 --fcal-sim "$out/wrap.sh" 2>/dev/null &
victim=$!
wait_started 2
kill -KILL "$victim"
wait "$victim" 2>/dev/null || true
expect_all_ended 5 "SIGKILL"
[ "$(wc -l <"$out/pids")" -eq 2 ] || fail "SIGKILL: simulations started after the kill"
echo "OK: the simulations of a killed sweep stop by themselves"
echo "sweep guard: 4 passed, 0 failed"
