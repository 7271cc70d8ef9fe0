#!/usr/bin/env bash
# The main job: install what is missing, build, and run the baseline.
# Until the simulator exists (fcal-sim), the main job encodes the common ordered sets.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export SC_COPYRIGHT_MESSAGE=DISABLE
build/bin/fcal-codec encode IDLE 'R_RDY' 'ARB(F0)' 'ARB(0xE8)' 'OPN(0xE8,0x01)' 'OPN(0xE8)' CLS SOFi3 EOFn SOFn3 EOFt
