#!/usr/bin/env bash
# The sanitizer build (docs/testing.md, "Sanitizers, fuzzing and random configurations"): builds fcal with
# AddressSanitizer and UndefinedBehaviorSanitizer into build-asan/ and runs tests there.
#   scripts/sanitize.sh            the whole suite (every test but the "long" ones), as scripts/test.sh
#   scripts/sanitize.sh --subset   what scripts/test.sh (and so CI) runs after the normal suite: the
#                                  simulator, the kernel's containers, timers and histogram, the
#                                  configuration checks, the fuzz corpus replay and the random
#                                  configurations; a fraction of the build time
# Other arguments go to ctest. Any sanitizer report ends its program with exit code 86, which no fcal
# program uses, so the test that ran it fails.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=()
tests=(-E "^cli: bench$")  # the speed benchmark runs valgrind, which cannot run ASan programs
if [ "${1:-}" = "--subset" ]; then
  shift
  targets=(--target fcal-sim fcal-sim-test fcal-codec unit_kernel unit_sim fuzz_8b10b_replay fuzz_config_json_replay fuzz_set_replay)
  tests=(-R "^(unit_kernel:|unit_sim:|fuzz: |cli: (fcal_sim|fcal_sim_bad_input|fcal_sim_outputs|random_configs)$)")
else
  bash scripts/setup.sh >/dev/null  # the Debian packages (and the normal build, quick when up to date)
fi

if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFCAL_SANITIZE=ON >/dev/null
fi
cmake --build build-asan -j "$(nproc)" "${targets[@]}"

export SC_COPYRIGHT_MESSAGE=DISABLE
# detect_leaks=0: SystemC keeps its simulation context and processes until exit and never frees them.
export ASAN_OPTIONS="exitcode=86:detect_leaks=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="exitcode=86:print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE long "${tests[@]}" "$@"
