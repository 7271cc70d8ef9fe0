#!/usr/bin/env bash
# Installs what is missing (Debian packages only) and builds fcal into build/: everything, or only the
# given targets (scripts/run.sh builds the programs alone, not the tests: a first result sooner).
# Usage: setup.sh [TARGET...]
# Idempotent: with everything installed and nothing changed it only checks and returns.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config python3 python3-matplotlib python3-distributed python3-pytest mypy gtkwave libsystemc-dev verilator iverilog yosys catch2 nlohmann-json3-dev libcli11-dev)
# Debian's clang with its compiler-rt (libFuzzer, sanitizers) for scripts/fuzz.sh.
packages+=(clang libclang-rt-14-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: run as root (or install these Debian packages): ${missing[*]}" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build build -j "$(nproc)" ${1:+--target "$@"}
