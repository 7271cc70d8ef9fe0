#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite (ctest; long sweeps are labelled
# "long" and left out).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export SC_COPYRIGHT_MESSAGE=DISABLE
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE long
# The sanitized subset (scripts/sanitize.sh --subset): the simulator, the configuration checks, the
# fuzz corpus and the random configurations under AddressSanitizer and UBSan, in build-asan/.
bash scripts/sanitize.sh --subset
