#!/usr/bin/env bash
# Embedding fcal (docs/cli.md, "Embedding fcal"): `cmake --install` puts the programs, the model libraries
# and the headers (include/fcal/<layer>/...) under a prefix with a CMake package, and a user's own
# sc_main (examples/embed) finds it with find_package(fcal), builds against "fcal/sim/..." headers,
# links fcal::fcal_sim and runs a simulation to completion.
# Usage: install_embed.sh <bin dir>
set -euo pipefail
build=$(cd "$1/.." && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/fcal-sim bin/fcal-codec include/fcal/loop/lport.hpp include/fcal/sim/storage_system.hpp lib/cmake/fcal/fcal-config.cmake; do
    [[ -e "$tmp/prefix/$f" ]] || { echo "FAIL: $f not installed"; exit 1; }
done
[[ ! -e "$tmp/prefix/bin/fcal-loop-bench" ]] || { echo "FAIL: a test bench was installed"; exit 1; }
# The test-only hooks live in fcal-sim-test, which is not installed; the installed fcal-sim refuses them.
[[ ! -e "$tmp/prefix/bin/fcal-sim-test" ]] || { echo "FAIL: the test variant fcal-sim-test was installed"; exit 1; }
for hook in "--test-lose-io 1" "--test-throw-io 1" "--test-drop-frame any:1" "--test-drop-disk 0"; do
    set +e
    # shellcheck disable=SC2086
    err=$("$tmp/prefix/bin/fcal-sim" $hook --check 2>&1 >/dev/null)
    rc=$?
    set -e
    [[ $rc -eq 2 && $err == *"${hook%% *}"* ]] || { echo "FAIL: the installed fcal-sim accepts $hook (exit $rc: $err)"; exit 1; }
done
# ... which the test variant in the build tree accepts.
"$1/fcal-sim-test" --test-lose-io 1 --check || { echo "FAIL: fcal-sim-test refuses --test-lose-io"; exit 1; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$src/examples/embed" -B "$tmp/embed" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/embed" >/dev/null
out=$("$tmp/embed/my_storage_platform")
echo "$out"
grep -Eq '^run completed: [0-9.]+ IOPS' <<<"$out" || { echo "FAIL: the embedded simulation did not complete"; exit 1; }
echo "install_embed: 2 passed, 0 failed"
