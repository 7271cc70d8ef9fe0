#!/usr/bin/env bash
# The main job: install what is missing, build, and run the baseline scenario (docs/model.md, "The
# baseline scenario").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh fcal-sim fcal-codec fcal-rtl-bench fcal-loop-bench  # the programs; the tests build with scripts/test.sh
export SC_COPYRIGHT_MESSAGE=DISABLE
build/bin/fcal-sim "$@"
