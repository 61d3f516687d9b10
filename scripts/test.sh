#!/usr/bin/env bash
# The test suite: builds, then runs every test. Host tests run everywhere; GPU tests run where a CUDA device is
# present and are reported by ctest as skipped (never passed) where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
# JUDGE_TEST_DEPS: the build's packages and the tests' own (headless Chromium for the report page).
JUDGE_TEST_DEPS=1 BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} scripts/build.sh
root=$PWD
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
  # calibration). The plain command stays the full suite. The three corpus entries build in their own tests rather
  # than waiting for the whole corpus to be built ahead (-FS corpus_builds).
  shift
  ctest --output-on-failure -j "$(nproc)" --timeout 600 -L host "$@"
  ctest --output-on-failure -j "$(nproc)" --timeout 600 --resource-spec-file gpu-resources.json -FS corpus_builds "$@" -R \
    '^(Generators\.|Checkers\.|SolverMemory\.|Reference\.MatchesCpuDouble|Files/Corpus\.GetsItsVerdict/vector_add_(forged_verdict_messages|write_past_end|accept_multi_stream)|ConcurrentSubmit\.|CalibrationGpu\.FiguresArePlausible)'
  exit
fi
if [ "${1:-}" = --timeline ]; then
  # The full suite as the plain command runs it, each line of ctest's output stamped with the seconds since it started
  # (build/ctest-timeline.log), then where its time went: per group of tests, the longest, and the examples' time on
  # the GPU's timing lock (bench/suite-timeline/table.py).
  shift
  status=0
  ctest --output-on-failure -j "$(nproc)" --timeout 1200 --resource-spec-file gpu-resources.json "$@" 2>&1 |
    python3 -u -c 'import sys, time
t = time.time()
for line in sys.stdin: sys.stdout.write("%7.1f %s" % (time.time() - t, line))' | tee ctest-timeline.log || status=$?
  python3 "$root/bench/suite-timeline/table.py" ctest-timeline.log Testing/Temporary/LastTest.log || true
  exit "$status"
fi
if [ "${1:-}" = --resume ] || [ "${1:-}" = --restart ]; then
  # The full suite in parts, for a GPU machine lent in slices: each call runs the tests not yet passed or skipped
  # (their names in test-progress.txt), starts none after SECONDS (default: no limit) and says how far it got.
  # --restart forgets the progress first. Exit 0 only once every test has passed or been skipped; 1 when one failed
  # in this part; 3 when tests are left to run.
  [ "$1" = --restart ] && rm -f test-progress.txt
  shift
  seconds=""
  if [ -n "${1:-}" ] && [ "${1#-}" = "$1" ]; then seconds=$1; shift; fi
  touch test-progress.txt
  ctest -N "$@" | sed -n 's/^ *Test *#\([0-9]*\): \([^ ]*\).*$/\1 \2/p' > test-all.txt
  awk 'FILENAME == ARGV[1] {done[$0] = 1; next} !($2 in done) {print $1}' test-progress.txt test-all.txt > test-todo.txt
  total=$(wc -l < test-all.txt)
  if [ -s test-todo.txt ]; then
    stop=()
    [ -n "$seconds" ] && stop=(--stop-time "$(date -d "+$seconds sec" +%H:%M:%S)")
    { printf '0,0,0,'; paste -sd, test-todo.txt; } > test-todo.sel  # no range, only these
    status=0
    ctest --output-on-failure -j "$(nproc)" --timeout 1200 --resource-spec-file gpu-resources.json -I test-todo.sel \
      "${stop[@]}" | tee test-part.log || status=$?
    sed -n -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* (Passed|\*\*\*Skipped) +[0-9.]+ sec$/\1/p' test-part.log >> test-progress.txt
  else
    status=0
  fi
  done_count=$(awk 'FILENAME == ARGV[1] {d[$0] = 1; next} $2 in d' test-progress.txt test-all.txt | wc -l)
  echo "test.sh --resume: $done_count of $total tests passed or skipped so far (progress in $PWD/test-progress.txt)"
  [ "$status" -ne 0 ] && exit 1
  [ "$done_count" -lt "$total" ] && { echo "test.sh --resume: run it again for the other $((total - done_count))"; exit 3; }
  exit 0
fi
ctest --output-on-failure -j "$(nproc)" --timeout 1200 --resource-spec-file gpu-resources.json "$@"
