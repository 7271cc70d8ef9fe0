#!/usr/bin/env bash
# Embedding fcal (README, "Embedding fcal"): `cmake --install` puts the programs, the model libraries
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
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$src/examples/embed" -B "$tmp/embed" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/embed" >/dev/null
out=$("$tmp/embed/my_storage_platform")
echo "$out"
grep -Eq '^run completed: [0-9.]+ IOPS' <<<"$out" || { echo "FAIL: the embedded simulation did not complete"; exit 1; }
echo "install_embed: 1 passed, 0 failed"
