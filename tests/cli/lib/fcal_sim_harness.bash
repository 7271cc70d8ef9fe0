# Shared by the fcal-sim CLI test scripts (sourced, not a test of its own): the simulator under test
# (and its test variant), a scratch folder, pass/fail reporting, and a runner that keeps stdout, stderr and the exit code.
# Usage, in a script called with the bin dir as $1:  source "$(dirname "$0")/lib/fcal_sim_harness.bash" "$1"
sim="$1/fcal-sim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

checks=0
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { checks=$((checks + 1)); echo "OK: $*"; }

# Runs the simulator (at most 60 s wall), keeping stdout/stderr in $tmp/out and $tmp/err and the exit
# code in $rc.
run() {
    set +e
    timeout 60 "$sim" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
    [[ $rc -ne 124 ]] || fail "fcal-sim $*: still running after 60 s"
}
# The same with fcal-sim-test, the test variant that has the test-only hooks (--test-lose-io,
# --test-throw-io, --test-drop-frame, --test-drop-disk; tb/test_hooks.hpp).
run_hooked() {
    local sim="${sim}-test"
    run "$@"
}
expect_rc() { [[ $rc -eq $1 ]] || fail "$2: exit code $rc, expected $1 (stderr: $(head -c 2000 "$tmp/err"))"; }
expect_error() {  # exit 2 with one line on stderr naming $1
    expect_rc 2 "$2"
    grep -q -- "$1" "$tmp/err" || fail "$2: stderr does not name $1: $(cat "$tmp/err")"
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$2: more than one line on stderr"
    ok "$2"
}
expect_no_stderr() { [[ -s "$tmp/err" ]] && fail "$1: unexpected stderr: $(cat "$tmp/err")"; return 0; }
# Fails unless stats JSON files $1 and $2 are identical but for the wall-clock time ($3 names the runs).
expect_same_results() {
    python3 - "$1" "$2" <<'PY' || fail "$3: the two runs' results differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["results"].pop("wall_time_s")
assert a == b
PY
}
