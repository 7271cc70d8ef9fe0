#!/usr/bin/env bash
# Verilator lint of the command-first FIFO RTL with every warning enabled, with and without the
# planted bug: any warning fails. Usage: lint.sh <rtl dir>
set -euo pipefail
rtl=$(cd "${1:?usage: lint.sh <rtl dir>}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"   # Verilator may leave files in the working directory

status=0
for defs in "" "-DFCAL_PLANTED_BUG"; do
    # shellcheck disable=SC2086  # $defs is empty or one word
    if verilator --lint-only -Wall $defs --top-module cmdf_top "$rtl"/*.v; then
        echo "lint: clean${defs:+ with $defs}"
    else
        echo "lint: warnings${defs:+ with $defs}" >&2
        status=1
    fi
done
exit $status
