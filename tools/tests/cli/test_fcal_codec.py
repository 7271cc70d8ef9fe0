"""fcal-codec's command-line contract: output formats and exit codes 0 / 1 / 2 / 6 (docs/cli.md). The expected
8b/10b codes are assembled here from the standard's sub-block tables, not taken from the program."""
from __future__ import annotations

import os
import re
import subprocess

import pytest

# Sub-blocks from the standard's tables that IDLE needs. 6b blocks are indexed by the RD at the character's start,
# 4b blocks by the RD the 6b block leaves.
K28_6B_MINUS = "001111"  # K28 at RD-, unbalanced: leaves RD+
K5_4B_PLUS = "1010"      # K.5 at RD+, balanced
K5_4B_MINUS = "0101"     # K.5 at RD-, balanced
D21_6B = "101010"        # D21, balanced: both columns
D4_4B_PLUS = "0010"      # D.x.4 at RD+, unbalanced: leaves RD-
D4_4B_MINUS = "1101"     # D.x.4 at RD-, unbalanced: leaves RD+
D5_4B = "1010"           # D.x.5, balanced: both columns
# IDLE = K28.5 D21.4 D21.5 D21.5. From RD-: K28.5 leaves RD+, D21.4 brings it back to RD-.
IDLE_MINUS = f"{K28_6B_MINUS}{K5_4B_PLUS} {D21_6B}{D4_4B_PLUS} {D21_6B}{D5_4B} {D21_6B}{D5_4B}"
# From RD+: K28's RD+ 6b block is the complement 110000 and leaves RD-; D21.4 ends at RD+.
IDLE_PLUS = f"110000{K5_4B_MINUS} {D21_6B}{D4_4B_MINUS} {D21_6B}{D5_4B} {D21_6B}{D5_4B}"
CONTROL_BYTES = re.compile(rb"[\x01-\x08\x0e-\x1f\x7f]")


class Codec:
    def __init__(self, path: str):
        self.path = path

    def __call__(self, *args: str, input: bytes | str | None = None, stdin=None, stdout=subprocess.PIPE):
        if isinstance(input, str):
            input = (input + "\n").encode()
        p = subprocess.run([self.path, *args], input=input, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
                           timeout=60)
        return p.returncode, (p.stdout or b"").decode(errors="replace"), p.stderr


@pytest.fixture(scope="module")
def codec(bin_dir):
    return Codec(os.path.join(bin_dir, "fcal-codec"))


def one_line(err: bytes, what: str) -> None:
    assert len(err.splitlines()) == 1, f"{what}: expected a one-line error on stderr, got: {err!r}"


def test_table(codec):
    rc, out, err = codec("table")
    rows = out.splitlines()
    assert rc == 0, f"table: exit {rc}"
    assert rows[0] == "name,byte,is_k,rd_minus,rd_plus", f"table header: {rows[0]}"
    assert len(rows) == 269, f"table: expected 256 data + 12 control rows + header, got {len(rows)} lines"
    assert rows[1].startswith("D0.0,0x00,0,"), f"table: first row {rows[1]}"
    assert rows[256].startswith("D31.7,0xFF,0,"), f"table: last data row {rows[256]}"
    assert f"K28.5,0xBC,1,{K28_6B_MINUS}{K5_4B_PLUS},110000{K5_4B_MINUS}" in rows, "table: K28.5 row"
    assert f"D21.5,0xB5,0,{D21_6B}{D5_4B},{D21_6B}{D5_4B}" in rows, "table: D21.5 row"
    assert not err, f"table: unexpected stderr: {err!r}"


def test_encode_idle_from_either_disparity(codec):
    rc, out, err = codec("encode", "IDLE")
    assert rc == 0 and out.strip() == f"IDLE K28.5 D21.4 D21.5 D21.5 {IDLE_MINUS} -", f"encode IDLE: {out}"
    assert not err, f"encode: unexpected stderr (SystemC banner?): {err!r}"
    rc, out, _ = codec("encode", "--rd", "+", "IDLE")
    assert rc == 0 and out.strip() == f"IDLE K28.5 D21.4 D21.5 D21.5 {IDLE_PLUS} +", f"encode --rd + IDLE: {out}"


def test_encode_a_list_continues_the_disparity(codec):
    # Each name continues from the previous one's ending RD: SOFi3 leaves RD+, so EOFn then takes D21.5.
    rc, out, _ = codec("encode", "SOFi3", "EOFn", "ARB(0xE8)", "OPN(0xE8,0x01)", "OPN(0xE8)", "ARB(F0)", "ARBff",
                       "R_RDY", "CLS", "LIP(F7,F7)")
    lines = out.splitlines()
    assert rc == 0 and len(lines) == 10, f"encode list: exit {rc}, {len(lines)} lines, expected 10"
    assert re.match(r"^SOFi3 K28\.5 D21\.5 D22\.2 D22\.2 .* \+$", lines[0]), f"encode SOFi3: {lines[0]}"
    assert re.match(r"^EOFn K28\.5 D21\.5 D21\.6 D21\.6 .* -$", lines[1]), f"encode EOFn after SOFi3: {lines[1]}"
    assert any(line.startswith("OPN(0xE8,0x01) K28.5 D17.4 D8.7 D1.0 ") for line in lines), "encode OPN full duplex"
    assert any(line.startswith("OPN(0xE8) K28.5 D17.4 D8.7 D8.7 ") for line in lines), "encode OPN half duplex"


def test_loop_init_sets_encode_and_decode_back(codec):
    # From phy's ordered sets (docs/loop_init.md, "LIP, LPB and LPE"): encoded, then decoded and recognised again.
    rc, out, _ = codec("encode", "LIP(F8,F7)", "LIP(F7,0xE8)", "LIP(FF,0x01)", "LPB(0xE8,0x01)", "LPE(FF,0x01)")
    lines = out.splitlines()
    assert rc == 0, f"encode LIP/LPB/LPE: exit {rc}"
    assert lines[0].startswith("LIP(F8,F7) K28.5 D21.0 D24.7 D23.7 "), f"encode LIP(F8,F7): {lines[0]}"
    assert lines[3].startswith("LPB(0xE8,0x01) K28.5 D9.0 D8.7 D1.0 "), f"encode LPB: {lines[3]}"
    codes = "\n".join(" ".join(line.split()[5:9]) for line in lines)
    rc, out, _ = codec("decode", input=codes)
    assert rc == 0, f"decode LIP/LPB/LPE: exit {rc}"
    for s in ["LIP(F8,F7) at 0", "LIP(F7,0xE8) at 4", "LIP(FF,0x01) at 8", "LPB(0xE8,0x01) at 12", "LPE(FF,0x01) at 16"]:
        assert f"ordered set {s}" in out, f"decode: {s} not recognised"


@pytest.mark.parametrize("args, named", [
    (["encode"], None), (["encode", "NOPE"], "NOPE"), (["encode", "ARB(0x03)"], None), (["encode", "--rd", "x", "IDLE"], None),
    (["frobnicate"], "frobnicate"), ([], None), (["table", "--bogus"], None)])
def test_bad_arguments_exit_2(codec, args, named):
    rc, _, err = codec(*args)
    what = "fcal-codec " + " ".join(args)
    assert rc == 2, f"{what}: exit {rc}, expected 2"
    # (The script checked one line for these; the invalid AL_PA and --rd x only for the exit code.)
    if args not in (["encode", "ARB(0x03)"], ["encode", "--rd", "x", "IDLE"]):
        one_line(err, what)
    if named:
        assert named.encode() in err, f"{what}: the error does not name {named}: {err!r}"


def test_decode(codec):
    rc, out, _ = codec("decode", input=f"{IDLE_MINUS} {IDLE_MINUS}")
    assert rc == 0, f"decode clean: exit {rc}"
    assert f"0 {K28_6B_MINUS}{K5_4B_PLUS} K28.5 +" in out.splitlines(), "decode: character line"
    assert "ordered set IDLE at 0" in out and "ordered set IDLE at 4" in out, "decode: IDLE at 0 and 4 not reported"
    assert "code violation" not in out and "disparity error" not in out, "decode clean: reports errors"
    rc, _, _ = codec("decode", "--rd", "+", input=IDLE_PLUS)
    assert rc == 0, f"decode --rd +: exit {rc}"
    # Position 1 replaced by a pattern with no character; position 4 starts a second IDLE from RD- at RD+.
    bad = f"{K28_6B_MINUS}{K5_4B_PLUS} 1111111111 {D21_6B}{D5_4B} {D21_6B}{D5_4B} {IDLE_MINUS}"
    rc, out, _ = codec("decode", input=bad)
    assert rc == 1, f"decode with errors: exit {rc}, expected 1"
    assert re.search(r"^1 1111111111 .*code violation", out, re.M), "decode: code violation at 1 not reported"
    assert re.search(r"^4 .*disparity error", out, re.M), "decode: disparity error at 4 not reported"
    rc, _, err = codec("decode", input=f"{IDLE_MINUS} 1010x01010")
    assert rc == 2, f"decode non-binary token: exit {rc}"
    one_line(err, "decode non-binary token")
    assert b"1010x01010" in err and b"position 4" in err, f"decode: the error must name token and position: {err!r}"
    rc, _, _ = codec("decode", input=f"{IDLE_MINUS} 101010")
    assert rc == 2, f"decode short token: exit {rc}"


def test_al_pa(codec):
    rc, out, _ = codec("al-pa")
    rows = out.splitlines()
    assert rc == 0 and len(rows) == 128, f"al-pa: expected 127 rows + header, got {len(rows)}"
    assert rows[0] == "al_pa,loop_id", "al-pa header"
    assert rows[1] == "0x00,126", "al-pa: highest priority first"
    assert "0xEF,0" in rows and "0x01,125" in rows, "al-pa: 0xEF is loop_ID 0, 0x01 loop_ID 125"
    assert not any("0xF0" in row for row in rows), "al-pa: 0xF0 listed"


@pytest.mark.parametrize("sub", [[], ["table"], ["encode"], ["decode"], ["al-pa"]])
def test_help(codec, sub):
    rc, out, _ = codec(*sub, "--help")
    assert rc == 0 and "Usage" in out, f"{' '.join(sub)} --help: exit {rc}, no usage"


def test_a_read_error_is_not_empty_input(codec, tmp_path):
    # Standard input a directory used to give "characters 0", exit 0.
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        rc, _, err = codec("decode", stdin=fd)
    finally:
        os.close(fd)
    assert rc == 2, f"decode < a directory: exit {rc}"
    one_line(err, "decode < a directory")
    assert b"cannot read standard input" in err, f"decode < a directory: {err!r}"


@pytest.mark.parametrize("sub", [["table"], ["al-pa"], ["encode", "IDLE"], ["decode"]])
def test_unwritable_stdout_exits_6(codec, sub):
    with open("/dev/full", "wb") as full:
        rc, _, err = codec(*sub, input=IDLE_MINUS, stdout=full)
    assert rc == 6, f"{' '.join(sub)} > /dev/full: exit {rc}, expected 6"
    assert b"standard output: cannot write" in err, f"{' '.join(sub)} > /dev/full: {err!r}"


def test_hostile_tokens_are_cut_and_escaped(codec):
    rc, _, err = codec("decode", input=b"1" * 3000000)
    assert rc == 2, f"decode a 3 MB token: exit {rc}"
    one_line(err, "decode a 3 MB token")
    assert len(err) < 300, f"decode a 3 MB token: a {len(err)}-byte message"
    assert b"(3000000 bytes)" in err, f"decode a 3 MB token: its size is not named: {err[:300]!r}"
    rc, _, err = codec("decode", input="0101010101 \x1b[2J1")
    assert rc == 2 and b"\\u001b[2J1" in err, f"decode: ESC not escaped: {err!r}"
    _, _, err = codec("encode", "IDLE\x07")
    assert b"IDLE\\u0007" in err, f"encode: BEL not escaped: {err!r}"
    _, _, err = codec("tab\x1ble")
    assert b"tab\\u001ble" in err, f"unknown subcommand: ESC not escaped: {err!r}"
    assert not CONTROL_BYTES.search(err), f"a control byte reached stderr: {err!r}"
