#!/usr/bin/env bash
# "I changed the Verilog, now check it": rebuilds what is Verilated from rtl/ (and the programs the
# RTL tests run), runs every RTL check (ctest -L rtl: lint, Icarus at three depths, Yosys, the random
# benches at 64/16 and 4/2, the planted bug, the equivalence quick matrix, the co-simulation and
# lock-step unit tests), then the random bench over more seeds at both depths, and prints a verdict.
#
# Usage: scripts/rtl_check.sh [SEEDS]     SEEDS extra seeds per depth (default 5): seeds 2..SEEDS+1
#                                        (ctest runs seed 1), FCAL_RTL_CHECK_CYCLES cycles each
#                                        (default 1000000); 0 runs ctest only.
# The build folder is build/ (or $FCAL_BUILD_DIR), configured as the README says. Exit code 0 when
# everything passed, 1 when something failed, 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.."

seeds=${1:-5}
cycles=${FCAL_RTL_CHECK_CYCLES:-1000000}
build=${FCAL_BUILD_DIR:-build}
if ! [[ $seeds =~ ^[0-9]+$ ]] || [ $# -gt 1 ]; then
    echo "rtl_check: SEEDS must be a whole number of seeds (usage: scripts/rtl_check.sh [SEEDS])" >&2
    exit 2
fi
if ! [[ $cycles =~ ^[1-9][0-9]*$ ]]; then
    echo "rtl_check: FCAL_RTL_CHECK_CYCLES must be a positive whole number of cycles, not '$cycles'" >&2
    exit 2
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "rtl_check: '$build' is not a configured build folder; configure it first (README, \"Set-up\")" >&2
    exit 2
fi
export SC_COPYRIGHT_MESSAGE=DISABLE
start=$SECONDS

# Everything that Verilates rtl/ (fcal_cosim, the benches with their own model), and the programs the
# RTL tests run: fcal-sim (the equivalence matrix) and unit_cosim.
targets=(fcal-rtl-bench fcal-rtl-bench-d4 fcal-rtl-bench-planted-bug fcal-sim unit_cosim)
echo "== build: ${targets[*]}"
if ! cmake --build "$build" -j2 --target "${targets[@]}"; then
    echo "rtl_check: FAIL (the build failed)"
    exit 1
fi
built=$SECONDS

echo "== ctest -L rtl"
ctest --test-dir "$build" -L rtl -j2 --output-on-failure
ctest_status=$?
tested=$SECONDS

failed_seeds=()
runs=0
if [ "$seeds" -gt 0 ]; then
    echo "== random bench: seeds 2..$((seeds + 1)), $cycles cycles each, at 64/16 and 4/2"
    for bench in fcal-rtl-bench fcal-rtl-bench-d4; do
        for ((seed = 2; seed <= seeds + 1; ++seed)); do
            runs=$((runs + 1))
            log=$("$build/bin/$bench" --quiet --seed "$seed" --cycles "$cycles" --policy all 2>&1)
            status=$?
            tail -1 <<<"$log"
            if [ $status -ne 0 ]; then
                echo "$log"
                failed_seeds+=("$bench --seed $seed")
            fi
        done
    done
fi
done_at=$SECONDS

echo "== verdict"
echo "build $((built - start)) s, ctest -L rtl $((tested - built)) s, random bench $((done_at - tested)) s"
if [ $ctest_status -eq 0 ] && [ ${#failed_seeds[@]} -eq 0 ]; then
    echo "rtl_check: PASS (ctest -L rtl, and $runs random bench runs)"
    exit 0
fi
[ $ctest_status -ne 0 ] && echo "rtl_check: ctest -L rtl failed (see above)"
for f in "${failed_seeds[@]}"; do echo "rtl_check: $f failed (its report is above)"; done
echo "rtl_check: FAIL"
exit 1
