#!/usr/bin/env bash
# End-to-end acceptance on a GPU machine, from a clean build: the README's two commands, then `judge submit` of
# every example submission, a deliberately wrong one, and the leaderboards. Logs go to $OUT (or ./acceptance-out).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-acceptance-out}
mkdir -p "$out"
out=$(realpath -m "$out")
export JUDGE_DB=${JUDGE_DB:-$out/leaderboard.sqlite}
export JUDGE_CACHE_DIR=${JUDGE_CACHE_DIR:-$out/cache}
rm -rf build "$JUDGE_DB" "$JUDGE_CACHE_DIR"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader

echo "== scripts/quickstart.sh"
scripts/quickstart.sh > "$out/quickstart.log" 2>&1; echo "quickstart exit $?"; tail -n 25 "$out/quickstart.log"
echo "== scripts/test.sh"
scripts/test.sh > "$out/test.log" 2>&1; echo "test exit $?"
grep -E "tests passed|tests failed|Total Test time" "$out/test.log"
sed -n '/The following tests/,$p' "$out/test.log" | head -40

judge=build/judge/judge
echo "== judge submit, every example"
for f in submissions/*/*.cu; do
  id=$(basename "$(dirname "$f")")
  "$judge" --color never submit "$id" "$f" --name "$(basename "$f" .cu)" > "$out/submit-$id-$(basename "$f" .cu).log" 2>&1
  printf '%-24s %-34s exit %s  %s\n' "$id" "$(basename "$f")" "$?" \
    "$(grep -E '^(✓|✗)' "$out/submit-$id-$(basename "$f" .cu).log" | head -1)"
done
echo "== a wrong submission"
"$judge" --color never run matrix_multiplication tests/corpus/matrix_multiplication/transposed_b.cu
echo "exit $?"
echo "== leaderboards"
for d in challenges/*/; do "$judge" --color never leaderboard "$(basename "$d")"; done
