#!/usr/bin/env bash
# fcal-codec's command-line contract: output formats and exit codes 0 / 1 / 2 / 6.
# Usage: fcal_codec.sh <bin dir>
set -euo pipefail

codec="$1/fcal-codec"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Runs the codec, keeping stdout/stderr in $tmp and the exit code in $rc.
run() {
    set +e
    "$codec" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
}
run_stdin() {
    local input="$1"; shift
    set +e
    printf '%s\n' "$input" | "$codec" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    set -e
}
expect_rc() { [[ $rc -eq $1 ]] || fail "$2: exit code $rc, expected $1 (stderr: $(cat "$tmp/err"))"; }
expect_one_line_error() {
    [[ $(wc -l <"$tmp/err") -eq 1 ]] || fail "$1: expected a one-line error on stderr, got: $(cat "$tmp/err")"
}

# Sub-blocks from the standard's tables that IDLE needs. 6b blocks are indexed by the RD at the
# character's start, 4b blocks by the RD the 6b block leaves.
k28_6b_minus=001111   # K28 at RD-, unbalanced: leaves RD+
k5_4b_plus=1010       # K.5 at RD+, balanced
k5_4b_minus=0101      # K.5 at RD-, balanced
d21_6b=101010         # D21, balanced: both columns
d4_4b_plus=0010       # D.x.4 at RD+, unbalanced: leaves RD-
d4_4b_minus=1101      # D.x.4 at RD-, unbalanced: leaves RD+
d5_4b=1010            # D.x.5, balanced: both columns

# IDLE = K28.5 D21.4 D21.5 D21.5. From RD-: K28.5 leaves RD+, D21.4 brings it back to RD-.
idle_minus="$k28_6b_minus$k5_4b_plus $d21_6b$d4_4b_plus $d21_6b$d5_4b $d21_6b$d5_4b"
# From RD+: K28's RD+ 6b block is the complement 110000 and leaves RD-; D21.4 ends at RD+.
idle_plus="110000$k5_4b_minus $d21_6b$d4_4b_minus $d21_6b$d5_4b $d21_6b$d5_4b"

# --- table
run table
expect_rc 0 "table"
[[ $(head -1 "$tmp/out") == "name,byte,is_k,rd_minus,rd_plus" ]] || fail "table header: $(head -1 "$tmp/out")"
[[ $(wc -l <"$tmp/out") -eq 269 ]] || fail "table: expected 268 rows + header, got $(wc -l <"$tmp/out") lines"
[[ $(sed -n 2p "$tmp/out") == D0.0,0x00,0,* ]] || fail "table: first row $(sed -n 2p "$tmp/out")"
[[ $(sed -n 257p "$tmp/out") == D31.7,0xFF,0,* ]] || fail "table: last data row $(sed -n 257p "$tmp/out")"
grep -qx "K28.5,0xBC,1,${k28_6b_minus}${k5_4b_plus},110000${k5_4b_minus}" "$tmp/out" || fail "table: K28.5 row"
grep -qx "D21.5,0xB5,0,${d21_6b}${d5_4b},${d21_6b}${d5_4b}" "$tmp/out" || fail "table: D21.5 row"
[[ -s "$tmp/err" ]] && fail "table: unexpected stderr: $(cat "$tmp/err")"

# --- encode
run encode IDLE
expect_rc 0 "encode IDLE"
[[ $(cat "$tmp/out") == "IDLE K28.5 D21.4 D21.5 D21.5 $idle_minus -" ]] || fail "encode IDLE: $(cat "$tmp/out")"
[[ -s "$tmp/err" ]] && fail "encode: unexpected stderr (SystemC banner?): $(cat "$tmp/err")"

run encode --rd + IDLE
expect_rc 0 "encode --rd + IDLE"
[[ $(cat "$tmp/out") == "IDLE K28.5 D21.4 D21.5 D21.5 $idle_plus +" ]] || fail "encode --rd + IDLE: $(cat "$tmp/out")"

# Each name continues from the previous one's ending RD: SOFi3 leaves RD+, so EOFn then takes D21.5.
run encode SOFi3 EOFn 'ARB(0xE8)' 'OPN(0xE8,0x01)' 'OPN(0xE8)' 'ARB(F0)' ARBff R_RDY CLS 'LIP(F7,F7)'
expect_rc 0 "encode list"
[[ $(wc -l <"$tmp/out") -eq 10 ]] || fail "encode list: expected 10 lines"
grep -q '^SOFi3 K28.5 D21.5 D22.2 D22.2 .* +$' "$tmp/out" || fail "encode SOFi3: $(sed -n 1p "$tmp/out")"
grep -q '^EOFn K28.5 D21.5 D21.6 D21.6 .* -$' "$tmp/out" || fail "encode EOFn after SOFi3: $(sed -n 2p "$tmp/out")"
grep -q '^OPN(0xE8,0x01) K28.5 D17.4 D8.7 D1.0 ' "$tmp/out" || fail "encode OPN full duplex"
grep -q '^OPN(0xE8) K28.5 D17.4 D8.7 D8.7 ' "$tmp/out" || fail "encode OPN half duplex"

# The loop initialization and bypass sequences come from phy's ordered sets (docs/loop_init.md,
# "LIP, LPB and LPE"): encoded, then decoded and recognised again.
run encode 'LIP(F8,F7)' 'LIP(F7,0xE8)' 'LIP(FF,0x01)' 'LPB(0xE8,0x01)' 'LPE(FF,0x01)'
expect_rc 0 "encode LIP/LPB/LPE"
grep -q '^LIP(F8,F7) K28.5 D21.0 D24.7 D23.7 ' "$tmp/out" || fail "encode LIP(F8,F7): $(sed -n 1p "$tmp/out")"
grep -q '^LPB(0xE8,0x01) K28.5 D9.0 D8.7 D1.0 ' "$tmp/out" || fail "encode LPB: $(sed -n 4p "$tmp/out")"
run_stdin "$(awk '{print $6, $7, $8, $9}' "$tmp/out")" decode
expect_rc 0 "decode LIP/LPB/LPE"
for set in 'LIP(F8,F7) at 0' 'LIP(F7,0xE8) at 4' 'LIP(FF,0x01) at 8' 'LPB(0xE8,0x01) at 12' 'LPE(FF,0x01) at 16'; do
    grep -qF "ordered set $set" "$tmp/out" || fail "decode: $set not recognised"
done

run encode
expect_rc 2 "encode without names"
expect_one_line_error "encode without names"

run encode NOPE
expect_rc 2 "encode unknown name"
expect_one_line_error "encode unknown name"
grep -q "NOPE" "$tmp/err" || fail "encode unknown name: error does not name it"

run encode 'ARB(0x03)'
expect_rc 2 "encode invalid AL_PA"

run encode --rd x IDLE
expect_rc 2 "encode --rd x"

# --- decode
run_stdin "$idle_minus $idle_minus" decode
expect_rc 0 "decode clean"
grep -q "^0 ${k28_6b_minus}${k5_4b_plus} K28.5 +$" "$tmp/out" || fail "decode: character line"
grep -q "ordered set IDLE at 0" "$tmp/out" || fail "decode: IDLE at 0 not reported"
grep -q "ordered set IDLE at 4" "$tmp/out" || fail "decode: IDLE at 4 not reported"
grep -qE "code violation|disparity error" "$tmp/out" && fail "decode clean: reports errors"

run_stdin "$idle_plus" decode --rd +
expect_rc 0 "decode --rd +"

# Position 1 replaced by a pattern with no character; position 4 starts a second IDLE from RD- at RD+.
bad="${k28_6b_minus}${k5_4b_plus} 1111111111 $d21_6b$d5_4b $d21_6b$d5_4b $idle_minus"
run_stdin "$bad" decode
expect_rc 1 "decode with errors"
grep -q "^1 1111111111 .*code violation" "$tmp/out" || fail "decode: code violation at 1 not reported"
grep -q "^4 .*disparity error" "$tmp/out" || fail "decode: disparity error at 4 not reported"

run_stdin "$idle_minus 1010x01010" decode
expect_rc 2 "decode non-binary token"
expect_one_line_error "decode non-binary token"
grep -q "1010x01010" "$tmp/err" && grep -q "position 4" "$tmp/err" || fail "decode: error must name token and position: $(cat "$tmp/err")"

run_stdin "$idle_minus 101010" decode
expect_rc 2 "decode short token"

# --- al-pa
run al-pa
expect_rc 0 "al-pa"
[[ $(wc -l <"$tmp/out") -eq 128 ]] || fail "al-pa: expected 127 rows + header"
[[ $(head -1 "$tmp/out") == "al_pa,loop_id" ]] || fail "al-pa header"
[[ $(sed -n 2p "$tmp/out") == "0x00,126" ]] || fail "al-pa: highest priority first"
grep -qx "0xEF,0" "$tmp/out" || fail "al-pa: 0xEF is loop_ID 0"
grep -qx "0x01,125" "$tmp/out" || fail "al-pa: 0x01 is loop_ID 125"
grep -q "0xF0" "$tmp/out" && fail "al-pa: 0xF0 listed"

# --- usage
for sub in "" table encode decode al-pa; do
    run $sub --help
    expect_rc 0 "$sub --help"
    grep -q "Usage" "$tmp/out" || fail "$sub --help prints no usage"
done
run frobnicate
expect_rc 2 "unknown subcommand"
expect_one_line_error "unknown subcommand"
grep -q "frobnicate" "$tmp/err" || fail "unknown subcommand not named"
run
expect_rc 2 "no subcommand"
expect_one_line_error "no subcommand"
run table --bogus
expect_rc 2 "unknown option"
expect_one_line_error "unknown option"

# --- issue 18: input that cannot be read, output that cannot be written, hostile tokens
# A read error is not empty input (standard input a directory used to give "characters 0", exit 0).
set +e
"$codec" decode <"$tmp" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
expect_rc 2 "decode < a directory"
expect_one_line_error "decode < a directory"
grep -q "cannot read standard input" "$tmp/err" || fail "decode < a directory: $(cat "$tmp/err")"
# Standard output that cannot be written: exit 6 with a line naming it (all used to exit 0).
for sub in table al-pa "encode IDLE" decode; do
    set +e
    printf '%s\n' "$idle_minus" | "$codec" $sub >/dev/full 2>"$tmp/err"
    rc=$?
    set -e
    expect_rc 6 "$sub > /dev/full"
    grep -q "standard output: cannot write" "$tmp/err" || fail "$sub > /dev/full: $(cat "$tmp/err")"
done
# A 3 MB bad token is cut; control bytes in it or in a name are escaped, never sent to the terminal.
set +e
head -c 3000000 /dev/zero | tr '\0' '1' | "$codec" decode >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
expect_rc 2 "decode a 3 MB token"
expect_one_line_error "decode a 3 MB token"
[[ $(wc -c <"$tmp/err") -lt 300 ]] || fail "decode a 3 MB token: a $(wc -c <"$tmp/err")-byte message"
grep -q "(3000000 bytes)" "$tmp/err" || fail "decode a 3 MB token: its size is not named: $(head -c 300 "$tmp/err")"
run_stdin "$(printf '0101010101 \033[2J1')" decode
expect_rc 2 "decode a token with ESC"
grep -qF '\u001b[2J1' "$tmp/err" || fail "decode: ESC not escaped: $(cat -v "$tmp/err")"
run encode "$(printf 'IDLE\007')"
grep -qF 'IDLE\u0007' "$tmp/err" || fail "encode: BEL not escaped: $(cat -v "$tmp/err")"
run "$(printf 'tab\033le')"
grep -qF 'tab\u001ble' "$tmp/err" || fail "unknown subcommand: ESC not escaped: $(cat -v "$tmp/err")"
if LC_ALL=C grep -q "$(printf '[\001-\010\016-\037\177]')" "$tmp/err"; then fail "a control byte reached stderr"; fi

echo "fcal-codec: all checks passed"
