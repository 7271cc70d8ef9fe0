#!/usr/bin/env bash
# The sanitizer build (README, "Sanitizers and fuzzing"): builds fcal with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-asan/ and runs the test suite there (unit, integration,
# validation, CLI, fuzz-corpus replay; the "long" tests are left out, as in scripts/test.sh).
# Any sanitizer report ends its program with exit code 86, which no fcal program uses, so the test
# that ran it fails. CI runs this after scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null  # the Debian packages (and the normal build, quick when up to date)

if [ ! -f build-asan/build.ninja ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFCAL_SANITIZE=ON >/dev/null
fi
cmake --build build-asan -j "$(nproc)"

export SC_COPYRIGHT_MESSAGE=DISABLE
# detect_leaks=0: SystemC keeps its simulation context and processes until exit and never frees them.
export ASAN_OPTIONS="exitcode=86:detect_leaks=0:abort_on_error=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="exitcode=86:print_stacktrace=1:halt_on_error=1"
ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE long "$@"
