#!/usr/bin/env bash
# Verilator lint of the command-first FIFO RTL with every warning enabled, at the default depths
# (64/16) and at the small ones the benches also run (4/2), with and without the planted bug: any
# warning fails. Usage: lint.sh <rtl dir>
set -euo pipefail
rtl=$(cd "${1:?usage: lint.sh <rtl dir>}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"   # Verilator may leave files in the working directory

status=0
for depths in "" "-GDEPTH=4 -GCMD_DEPTH=2"; do
    for defs in "" "-DFCAL_PLANTED_BUG"; do
        # shellcheck disable=SC2086  # $depths and $defs are lists of words or empty
        if verilator --lint-only -Wall $depths $defs --top-module cmdf_top "$rtl"/*.v; then
            echo "lint: clean${depths:+ with $depths}${defs:+ with $defs}"
        else
            echo "lint: warnings${depths:+ with $depths}${defs:+ with $defs}" >&2
            status=1
        fi
    done
done
exit $status
