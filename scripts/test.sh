#!/usr/bin/env bash
# The test suite: builds, then runs every test. Host tests run everywhere; GPU tests run where a CUDA device is
# present and are reported by ctest as skipped (never passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
# JUDGE_TEST_DEPS: the build's packages and the tests' own (headless Chromium for the report page).
JUDGE_TEST_DEPS=1 BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} scripts/build.sh
cd "${BUILD_DIR:-build}"
# One GPU resource per GPU (those in CUDA_VISIBLE_DEVICES, else every one nvidia-smi lists), each with as many slots as
# tests/CMakeLists.txt's JUDGE_GPU_TEST_SLOTS: timing tests take all of a GPU's, verdict-only tests one each (see
# there); a test sees only the GPU it was given (tests/support/test_support.cpp), so tests that keep a GPU to
# themselves run side by side on several. Without a GPU the GPU tests skip themselves and the slots do not matter.
slots=$(sed -n 's/^JUDGE_GPU_TEST_SLOTS:STRING=//p' CMakeCache.txt)
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  gpus=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
else
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
fi
[ "${gpus:-0}" -ge 1 ] || gpus=1
entries=$(for ((i = 0; i < gpus; i++)); do printf '%s{"id": "%d", "slots": %s}' "$([ "$i" -gt 0 ] && echo ', ')" "$i" "${slots:-4}"; done)
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": [%s]}]}\n' "$entries" > gpu-resources.json
if [ "${1:-}" = --quick ]; then
  # The edit-compile-test loop: every host test, then one GPU smoke test per stage of a run (generators and checkers,
  # the reference against the CPU, a hostile submission in the sandboxed solver, a timed submit that is ranked,
  # calibration). The plain command stays the full suite.
  shift
  ctest --output-on-failure -j "$(nproc)" --timeout 600 -L host "$@"
  ctest --output-on-failure -j "$(nproc)" --timeout 600 --resource-spec-file gpu-resources.json "$@" -R \
    '^(Generators\.|Checkers\.|Reference\.MatchesCpuDouble|Files/Corpus\.GetsItsVerdict/vector_add_(forged_verdict_messages|write_past_end|accept_multi_stream)|ConcurrentSubmit\.|CalibrationGpu\.FiguresArePlausible)'
  exit
fi
ctest --output-on-failure -j "$(nproc)" --timeout 1200 --resource-spec-file gpu-resources.json "$@"
