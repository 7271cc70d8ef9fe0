#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite (ctest; long sweeps are labelled
# "long" and left out).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export SC_COPYRIGHT_MESSAGE=DISABLE
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE long
