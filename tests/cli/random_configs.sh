#!/usr/bin/env bash
# Runs N seeded random valid configurations from seed FIRST (the test is tools/tests/cli/test_random_configs.py;
# docs/testing.md, "Random configurations"). A command for people and for the ctest `random configs (300)`
# (tests/fuzz/CMakeLists.txt), which need a count and a first seed that the ctest `cli: random_configs` does not.
# Usage: random_configs.sh <bin dir> [N (default 12)] [FIRST seed (default 1)]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
cd "$root"
FCAL_BIN=$(cd "$1" && pwd) FCAL_RANDOM_CONFIGS="${2:-12} ${3:-1}" SC_COPYRIGHT_MESSAGE=DISABLE PYTHONDONTWRITEBYTECODE=1 \
    exec "$py" -m pytest -q --rootdir "$root" -c "$root/pyproject.toml" tools/tests/cli/test_random_configs.py
