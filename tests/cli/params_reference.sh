#!/usr/bin/env bash
# The README's parameter reference is generated from fcal-sim --list-params --json
# (scripts/params_reference.py): this fails when it drifts from what the program declares.
# Usage: params_reference.sh <bin dir>
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
python3 "$src/scripts/params_reference.py" "$1/fcal-sim" --check "$src/README.md"
# A drifted copy is caught (the check can fail).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/| `loop.hop_m` | 2 |/| `loop.hop_m` | 3 |/' "$src/README.md" >"$tmp/README.md"
cmp -s "$src/README.md" "$tmp/README.md" && { echo "FAIL: the drift test did not change the copy"; exit 1; }
if python3 "$src/scripts/params_reference.py" "$1/fcal-sim" --check "$tmp/README.md" 2>/dev/null; then
    echo "FAIL: a drifted reference passed the check"; exit 1
fi
echo "params_reference: 2 passed, 0 failed"
