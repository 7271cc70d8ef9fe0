#!/usr/bin/env bash
# The LPSM and its credit accounting are SystemC-free (issue 11, docs/model.md "The loop: the port's
# pieces"): neither they nor any header they include pulls in SystemC, so tests can drive the state
# machine word by word without a kernel. Checked with the compiler's own list of included files.
# Usage: loop_systemc_free.sh <bin dir>   (the bin dir is not used)
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
cxx="${CXX:-c++}"
failed=0
# The loop initialization pieces (docs/loop_init.md) are SystemC-free too.
for f in loop/lpsm.cpp loop/circuit_credit.cpp loop/word.cpp loop/transmit_queue.cpp loop/lpsm_state.cpp \
         loop/al_pa_bitmap.cpp loop/loop_init_frame.cpp loop/loop_init_procedure.cpp loop/loop_init_timing.cpp \
         loop/port_bypass_circuits.cpp loop/primitive_sequence_detector.cpp; do
    deps=$("$cxx" -std=c++17 -M -I "$src/models" "$src/models/fcal/$f")
    if grep -q -i "systemc\|sysc/" <<<"$deps"; then
        echo "FAIL  $f includes SystemC:"
        grep -o -i "[^ ]*systemc[^ ]*" <<<"$deps" | head -3
        failed=$((failed + 1))
    else
        echo "ok    $f"
    fi
done
[[ $failed -eq 0 ]]
