#!/usr/bin/env bash
# The test suite: builds, then runs every test. Host tests run everywhere; GPU tests run where a CUDA device is
# present and are reported by ctest as skipped (never passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
# JUDGE_TEST_DEPS: the build's packages and the tests' own (headless Chromium for the report page).
JUDGE_TEST_DEPS=1 BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} scripts/build.sh
cd "${BUILD_DIR:-build}"
# One GPU resource with as many slots as tests/CMakeLists.txt's JUDGE_GPU_TEST_SLOTS: timing tests take all of them,
# verdict-only tests one each (see there). Without a GPU the GPU tests skip themselves and the slots do not matter.
slots=$(sed -n 's/^JUDGE_GPU_TEST_SLOTS:STRING=//p' CMakeCache.txt)
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": %s}]}]}\n' "${slots:-4}" \
  > gpu-resources.json
ctest --output-on-failure -j "$(nproc)" --timeout 1200 --resource-spec-file gpu-resources.json "$@"
