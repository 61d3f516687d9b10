#!/usr/bin/env bash
# Batch scaling (issue 23 §1): `judge batch` of the same submissions on 1, 2, 4, ... GPUs of this host, each from a
# fresh build cache and leaderboard, and how close each comes to linear. Two batches: 32 distinct vector_add
# submissions (copies of rung 1, so every one is its own build) and 16 matrix_multiplication ones (rungs 2-9, twice).
#
#   bench/batch-scaling/run.sh [OUT] [GPU COUNTS...]      default OUT bench-out/batch-scaling, counts 1 2 4 (those
#                                                         this host has)
#
# Per batch and GPU count: the batch's wall time, speedup and efficiency against one GPU (T1 / (g * Tg)), and per GPU
# the share of the wall time its timing lock was held (the rest is start-up, building, functional tests, the tail).
# Raw JSON under OUT/<batch>-<g>gpu.json; the table is printed last and written to OUT/table.md. Store a run you
# report under bench/batch-scaling/runs/<date>-<gpu>/ (the table and the JSON).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-bench-out/batch-scaling}")
shift || true
judge=${JUDGE:-$PWD/build/judge/judge}
[ -x "$judge" ] || { echo "no judge at $judge: build first (scripts/build.sh) or set JUDGE" >&2; exit 2; }
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
[ "${have:-0}" -ge 1 ] || { echo "no GPU here (nvidia-smi lists none)" >&2; exit 2; }
counts=("$@")
[ ${#counts[@]} -gt 0 ] || for g in 1 2 4 8; do [ "$g" -le "$have" ] && counts+=("$g"); done
mkdir -p "$out/src/vector_add" "$out/src/matrix_multiplication"
for k in $(seq -w 1 32); do
  { cat submissions/vector_add/1_naive.cu; echo "// batch-scaling copy $k"; } > "$out/src/vector_add/va_$k.cu"
done
for copy in a b; do
  for f in submissions/matrix_multiplication/[2-9]_*.cu; do
    name=$(basename "$f" .cu)
    { cat "$f"; echo "// batch-scaling copy $copy"; } > "$out/src/matrix_multiplication/${name}_$copy.cu"
  done
done
for batch in vector_add matrix_multiplication; do
  for g in "${counts[@]}"; do
    gpus=$(seq -s, 0 $((g - 1)))
    rm -rf "$out/cache-$batch-$g" "$out/db-$batch-$g.sqlite"
    echo "$batch on $g GPU(s) ($gpus)..." >&2
    JUDGE_CACHE_DIR="$out/cache-$batch-$g" "$judge" --json batch "$batch" "$out/src/$batch" --gpus "$gpus" \
      --db "$out/db-$batch-$g.sqlite" --budget 0.5 --min-samples 10 > "$out/$batch-${g}gpu.json" \
      2> "$out/$batch-${g}gpu.err"
  done
done
python3 bench/batch-scaling/table.py "$out" "${counts[@]}" | tee "$out/table.md"
