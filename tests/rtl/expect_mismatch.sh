#!/usr/bin/env bash
# Runs a co-simulation bench that must find a disagreement (the planted-bug build) and passes only
# if it did so cleanly: exit code 1 AND a scoreboard mismatch report in its output. A crash, a
# timeout, an RTL assertion instead of a mismatch, or a pass all fail this check. The bench runs
# with --vcd, and the report must name a VCD time that is a timestamp of that VCD, so that an
# engineer can jump to it in GTKWave.
# Usage: expect_mismatch.sh <bench> [bench options...]
set -uo pipefail
bench=${1:?usage: expect_mismatch.sh <bench> [options...]}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bench" "$@" --vcd "$tmp/run.vcd" >"$tmp/log" 2>&1
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
vcd_ps=$(sed -n 's/.*: MISMATCH at cycle [0-9]*, VCD time \([0-9]*\) ps .*/\1/p' "$tmp/log")
if [ -z "$vcd_ps" ]; then
    echo "expect_mismatch: the mismatch report names no VCD time ('..., VCD time N ps')" >&2
    exit 1
fi
if ! grep -q '^\$timescale 1ps \$end' "$tmp/run.vcd"; then
    echo "expect_mismatch: the bench's VCD is not in picoseconds" >&2
    exit 1
fi
last_ps=$(grep '^#' "$tmp/run.vcd" | tail -1 | cut -c2-)
if [ -z "$last_ps" ] || [ "$vcd_ps" -gt "$last_ps" ]; then
    echo "expect_mismatch: the report's VCD time $vcd_ps ps is past the end of the bench's VCD (${last_ps:-empty})" >&2
    exit 1
fi
# The bits a bus of the top scope holds in the VCD at time $2 (empty if never set by then).
pin_at() {
    awk -v sig="$1" -v at="$2" '
        $1 == "$var" && $5 == sig && id == "" { id = $4 }
        /^#/ { if (substr($0, 2) + 0 > at) exit; next }
        id != "" && /^b/ && $2 == id { v = substr($1, 2) }
        END { print v }' "$tmp/run.vcd"
}
# The first tag that differs, as the report gives it: the VCD must show the RTL's value there.
read -r port rtl_tag < <(sed -n 's/^  \(select(pop)\|select\|head\)\.tag: rtl \([0-9]*\), .*/\1 \2/p' "$tmp/log" | head -1)
if [ -n "${port:-}" ]; then
    pin=sel_tag
    [ "$port" = head ] && pin=head_tag
    bits=$(pin_at "$pin" "$vcd_ps")
    if [ -z "$bits" ] || [ $((2#$bits)) -ne "$rtl_tag" ]; then
        echo "expect_mismatch: at the report's VCD time $vcd_ps ps the VCD shows $pin = ${bits:-nothing}, not the RTL's $rtl_tag" >&2
        exit 1
    fi
    echo "expect_mismatch: the VCD shows $pin = $rtl_tag at $vcd_ps ps, as the report says"
fi
echo "expect_mismatch: the scoreboard caught it, as it should, at VCD time $vcd_ps ps"
exit 0
