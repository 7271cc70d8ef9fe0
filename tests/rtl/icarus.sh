#!/usr/bin/env bash
# Compiles the command-first FIFO RTL with its directed Icarus bench and runs it.
# Usage: icarus.sh <rtl dir> [extra iverilog options, e.g. -DFCAL_PLANTED_BUG]
# Passes only if the bench printed PASS, and printed no FAIL and no assertion ERROR.
set -euo pipefail
rtl=$(cd "${1:?usage: icarus.sh <rtl dir>}" && pwd)
shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iverilog -g2012 -Wall -o "$tmp/cmdf_tb.vvp" -s cmdf_tb "$@" "$here/cmdf_tb.v" "$rtl"/*.v
vvp -n "$tmp/cmdf_tb.vvp" | tee "$tmp/log"

if grep -q '^PASS' "$tmp/log" && ! grep -q -E 'FAIL|ERROR' "$tmp/log"; then
    exit 0
fi
echo "icarus: cmdf_tb did not pass" >&2
exit 1
