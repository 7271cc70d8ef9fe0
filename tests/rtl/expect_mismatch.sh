#!/usr/bin/env bash
# Runs a co-simulation bench that must find a disagreement (the planted-bug build) and passes only
# if it did so cleanly: exit code 1 AND a scoreboard mismatch report in its output. A crash, a
# timeout, an RTL assertion instead of a mismatch, or a pass all fail this check.
# Usage: expect_mismatch.sh <bench> [bench options...]
set -uo pipefail
bench=${1:?usage: expect_mismatch.sh <bench> [options...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bench" "$@" >"$tmp/log" 2>&1
status=$?
cat "$tmp/log"

if [ "$status" -ne 1 ]; then
    echo "expect_mismatch: $(basename "$bench") exited with $status, expected 1 (a scoreboard mismatch)" >&2
    exit 1
fi
if ! grep -q ': MISMATCH at cycle ' "$tmp/log"; then
    echo "expect_mismatch: $(basename "$bench") exited with 1 but printed no mismatch report" >&2
    exit 1
fi
if grep -q 'RTL assertion' "$tmp/log"; then
    echo "expect_mismatch: an RTL assertion reported it, not the scoreboard" >&2
    exit 1
fi
echo "expect_mismatch: the scoreboard caught it, as it should"
exit 0
