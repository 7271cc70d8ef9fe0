#!/usr/bin/env bash
# Yosys synthesis check of the command-first FIFO RTL. Usage: synth.sh <rtl dir>
#  1. generic synth at the default size (DEPTH=64, CMD_DEPTH=16): no latch may be inferred;
#  2. iCEbreaker-class FPGA mapping (synth_ice40) at DEPTH=16, CMD_DEPTH=4, for a size figure.
# Prints one summary line per run; any Yosys error or a latch fails the script.
set -euo pipefail
rtl=$(cd "${1:?usage: synth.sh <rtl dir>}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sources=("$rtl"/*.v)
read_cmd="read_verilog -sv ${sources[*]}"

# Count the cells of a flattened design from a Yosys 'stat' report: total, and those whose type
# matches a pattern.
cells() { awk '/Number of cells:/ { n = $4 } END { print n + 0 }' "$1"; }
cells_matching() { awk -v re="$2" '$1 ~ re { n += $2 } END { print n + 0 }' "$1"; }

# 1. Generic synthesis at the default parameters.
if ! yosys -q -l "$tmp/generic.log" -p "$read_cmd; synth -flatten -top cmdf_top;
        select -assert-none t:\$dlatch* t:\$_DLATCH*; select -assert-none t:\$assert;
        tee -q -o $tmp/generic.stat stat" >/dev/null; then
    grep -i -E 'error|assert' "$tmp/generic.log" >&2 || true
    echo "synth: generic synthesis failed (or inferred a latch)" >&2
    exit 1
fi
echo "cmdf_top DEPTH=64 CMD_DEPTH=16: $(cells "$tmp/generic.stat") cells," \
     "$(cells_matching "$tmp/generic.stat" 'DFF') flip-flops (yosys generic synth, no latches)"

# 2. iCE40 mapping of a smaller instance.
if ! yosys -q -l "$tmp/ice40.log" -p "$read_cmd; chparam -set DEPTH 16 -set CMD_DEPTH 4 cmdf_top;
        synth_ice40 -top cmdf_top; tee -q -o $tmp/ice40.stat stat" >/dev/null; then
    grep -i 'error' "$tmp/ice40.log" >&2 || true
    echo "synth: iCE40 synthesis failed" >&2
    exit 1
fi
echo "cmdf_top DEPTH=16 CMD_DEPTH=4: $(cells "$tmp/ice40.stat") cells," \
     "$(cells_matching "$tmp/ice40.stat" '^SB_DFF') flip-flops," \
     "$(cells_matching "$tmp/ice40.stat" '^SB_LUT4$') LUT4 (iCE40)"
