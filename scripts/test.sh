#!/usr/bin/env bash
# The test suite: builds, then runs every test. Host tests run everywhere; GPU tests run where a CUDA device is
# present and are reported by ctest as skipped (never passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} scripts/build.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" --timeout 1200 "$@"
