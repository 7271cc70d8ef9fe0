#!/usr/bin/env bash
# cmdf.impl=rtl (and rtl.lockstep=true) give byte-identical results to cmdf.impl=model over the
# issue's matrix: normal and cmdf, each FIFO policy, arbitration only, preemption only; reads,
# writes and 66 % reads; 16 disks at queue depth 1 and 4 disks at queue depth 4.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" "$here/../../tools/rtl_equivalence.py" --quick --fcal-sim "$bin/fcal-sim"
