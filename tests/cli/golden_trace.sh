#!/usr/bin/env bash
# The port-watcher trace of one 2 KiB read against a hand-derived golden file
# (traces/golden/single_read.trace, derived in traces/golden/README.md and derive.py).
# The fcal-sim settings are taken from the golden file's first line:
#   # fcal-sim <options> --trace PATH
# Every trace line must match exactly; on a mismatch a unified diff is printed.
# Usage: golden_trace.sh <bin dir>
set -euo pipefail

sim="$1/fcal-sim"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
golden="$here/../../traces/golden/single_read.trace"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SC_COPYRIGHT_MESSAGE=DISABLE

fail() { echo "FAIL: $*" >&2; exit 1; }

[[ -r "$golden" ]] || fail "no golden file at $golden"
header=$(head -n 1 "$golden")
[[ "$header" == "# fcal-sim "*" --trace PATH" ]] || fail "first line of $golden is not '# fcal-sim ... --trace PATH': $header"
options=${header#"# fcal-sim "}
options=${options%" --trace PATH"}
read -r -a args <<<"$options"

set +e
"$sim" "${args[@]}" --trace "$tmp/run.trace" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "fcal-sim exited with $rc (stderr: $(cat "$tmp/err"))"

grep -v '^#' "$golden" >"$tmp/expected.trace"
[[ -s "$tmp/expected.trace" ]] || fail "$golden has no trace lines"
if ! diff -u --label "expected (traces/golden/single_read.trace)" --label "fcal-sim --trace" \
        "$tmp/expected.trace" "$tmp/run.trace"; then
    echo "FAIL: the trace differs from the hand-derived golden trace (diff above)" >&2
    exit 1
fi
echo "OK: $(wc -l <"$tmp/expected.trace") trace lines match traces/golden/single_read.trace"
