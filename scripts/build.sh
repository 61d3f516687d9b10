#!/usr/bin/env bash
# Configure and build into build/ (BUILD_DIR overrides). Used by quickstart.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
build_dir=${BUILD_DIR:-build}
generator=()
command -v ninja >/dev/null 2>&1 && [ ! -f "$build_dir/Makefile" ] && generator=(-G Ninja)
# shellcheck disable=SC2086
cmake -S . -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} ${JUDGE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
