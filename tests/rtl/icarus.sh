#!/usr/bin/env bash
# Compiles the command-first FIFO RTL with its directed Icarus bench and runs it.
# Usage: icarus.sh <rtl dir> [--expect-fail] [extra iverilog options, e.g. -Pcmdf_tb.DEPTH=4 -DFCAL_PLANTED_BUG]
# Passes only if the bench printed PASS, and printed no FAIL and no assertion ERROR. With
# --expect-fail (the planted bug) it passes only if the bench ran to its end and failed checks:
# a closing "FAIL: N of M checks failed" line, no timeout.
set -euo pipefail
rtl=$(cd "${1:?usage: icarus.sh <rtl dir> [--expect-fail] [iverilog options]}" && pwd)
shift
expect_fail=0
if [ "${1:-}" = "--expect-fail" ]; then
    expect_fail=1
    shift
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iverilog -g2012 -Wall -o "$tmp/cmdf_tb.vvp" -s cmdf_tb "$@" "$here/cmdf_tb.v" "$rtl"/*.v
vvp -n "$tmp/cmdf_tb.vvp" | tee "$tmp/log"

if [ $expect_fail = 1 ]; then
    if grep -q -E '^FAIL: [0-9]+ of [0-9]+ checks failed' "$tmp/log" && ! grep -q '^FAIL timeout' "$tmp/log"; then
        echo "icarus: cmdf_tb failed checks, as it should"
        exit 0
    fi
    echo "icarus: cmdf_tb was expected to fail its checks and did not" >&2
    exit 1
fi
if grep -q '^PASS' "$tmp/log" && ! grep -q -E 'FAIL|ERROR' "$tmp/log"; then
    exit 0
fi
echo "icarus: cmdf_tb did not pass" >&2
exit 1
