#!/usr/bin/env bash
# The main job: install what is missing, build, and run the baseline scenario (docs/model.md, "The
# baseline scenario").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export SC_COPYRIGHT_MESSAGE=DISABLE
build/bin/fcal-sim "$@"
