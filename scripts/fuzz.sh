#!/usr/bin/env bash
# Fuzzing with libFuzzer (docs/testing.md, "Sanitizers, fuzzing and random configurations"): builds the fuzz targets of tests/fuzz
# with Debian's clang (coverage, AddressSanitizer, UndefinedBehaviorSanitizer) into build-fuzz/ and
# runs each for SECONDS (default 60), starting from its committed corpus.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     targets: fuzz_8b10b fuzz_config_json fuzz_set
# New inputs go to build-fuzz/corpus/<target>; with FCAL_FUZZ_MERGE=1 the committed corpus
# (tests/fuzz/corpus/<target>) is replaced by the minimal set covering both. A crash leaves its input
# in build-fuzz/crashes/<target>/: fix the bug, then copy the input to tests/fuzz/regressions/<target>/,
# where the normal test suite replays it ("fuzz: <target>").
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_8b10b fuzz_config_json fuzz_set)

bash scripts/setup.sh >/dev/null  # the Debian packages (clang and libclang-rt-14-dev among them)
if [ ! -f build-fuzz/build.ninja ]; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
        -DFCAL_FUZZ=ON -DFCAL_BUILD_TESTS=OFF >/dev/null
fi
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]}"

export SC_COPYRIGHT_MESSAGE=DISABLE
export ASAN_OPTIONS="detect_leaks=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/crashes/$t"
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "== $t: ${seconds} s"
  if ! "build-fuzz/bin/$t" "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" "${dict[@]}" \
        -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/crashes/$t/" 2>"build-fuzz/$t.log"; then
    echo "== $t: CRASH, see build-fuzz/$t.log and build-fuzz/crashes/$t/"
    status=1
  fi
  grep -E '^stat::number_of_executed_units|^stat::new_units_added|^#[0-9]+.*DONE' "build-fuzz/$t.log" || true
  if [ "${FCAL_FUZZ_MERGE:-0}" = 1 ]; then
    mkdir -p "build-fuzz/merged/$t"
    "build-fuzz/bin/$t" -merge=1 "build-fuzz/merged/$t" "tests/fuzz/corpus/$t" "build-fuzz/corpus/$t" 2>/dev/null
    rm -f "tests/fuzz/corpus/$t"/*
    cp "build-fuzz/merged/$t"/* "tests/fuzz/corpus/$t/"
    rm -rf "build-fuzz/merged/$t"
  fi
done
exit $status
