#!/usr/bin/env bash
# The measurement proof of docs/measurement.md, on a GPU machine with a built judge (scripts/build.sh):
#   1. agreement: the judge's median vs ncu's gpu__time_duration median, single-kernel examples at benchmark size
#   2. repeatability: five `judge submit` runs of the same submission
#   3. escape: a kernel left running on a non-blocking stream is timed at its true duration
#   4. overhead: where `judge submit` spends its wall time, and how that grows from 1 MB to 4 GB of inputs
#   5. the study behind 1: CUPTI's two kernel tracing modes and the kernel's own span against ncu (bench/agreement)
# Raw JSON goes to $OUT (or bench-out); bench/analyze.py prints the markdown tables.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${OUT:-bench-out}")
mkdir -p "$out"
judge=$PWD/build/judge/judge
export JUDGE_DB=$out/proof.sqlite JUDGE_CACHE_DIR=$out/cache JUDGE_USER=proof
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > "$out/gpu.txt"
# The judge keeps its store in $out/calibration.json (beside JUDGE_DB); the report goes elsewhere.
"$judge" --json calibrate > "$out/calibration-report.json" 2>/dev/null

# name  challenge  file  kernel
cat > "$out/singles.txt" <<'LIST'
vector_add submissions/vector_add/1_naive.cu vector_add
matrix_transpose submissions/matrix_transpose/1_naive.cu transpose_naive
matrix_transpose submissions/matrix_transpose/2_shared_tile.cu transpose_tiled
matrix_transpose submissions/matrix_transpose/3_shared_tile_padded.cu transpose_padded
matrix_multiplication submissions/matrix_multiplication/2_shared_tiles_16.cu matmul_tiled
matrix_multiplication submissions/matrix_multiplication/3_blocktiling_2d.cu matmul_blocktiled
LIST

ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
while read -r id file kernel; do
  tag=$(basename "$file" .cu)
  for run in 1 2 3 4 5; do
    "$judge" --json submit "$id" "$file" --no-reference-timing > "$out/rep-$id-$tag-$run.json"
  done
  # Graded tests only: stress cases run after the graded benchmarks.
  tests=$(python3 -c "import json; print(sum(1 for t in json.load(open('challenges/$id/spec.json'))['tests'] if not t.get('stress')))")
  # The first benchmark's calls come right after one call per test; it makes at least 12 (2 warm-up, 10 samples), so
  # 10 profiled launches stay inside it (analyze.py also keeps only launches with the first one's grid).
  if [ -n "$ncu" ]; then
    "$ncu" --clock-control none --target-processes all --kernel-name "$kernel" --launch-skip "$tests" \
      --launch-count 10 --metrics gpu__time_duration.sum --csv --print-units base \
      "$judge" --json submit "$id" "$file" --no-reference-timing --no-calibration --under-tool --no-cupti \
      > "$out/ncu-$id-$tag.csv" 2> "$out/ncu-$id-$tag.err"
  fi
done < "$out/singles.txt"

"$judge" --json submit vector_add bench/escape/nonblocking_stream.cu --no-reference-timing > "$out/escape-cupti.json"
"$judge" --json submit vector_add bench/escape/nonblocking_stream.cu --no-reference-timing --no-cupti > "$out/escape-events.json"
"$judge" --json submit vector_add submissions/vector_add/1_naive.cu --no-reference-timing --no-cupti > "$out/plain-events.json"

"$judge" --json --challenges bench/scaling submit vector_add submissions/vector_add/1_naive.cu --budget 1 \
  > "$out/scaling.json"
python3 bench/analyze.py "$out" | tee "$out/proof.md"
# Why the agreement holds: the timer and placement study (bench/agreement/l2_state.cu).
{ printf '\n## Timer and placement study (bench/agreement)\n'; OUT=$out REPS=20 bash bench/agreement/run.sh; } \
  | tee -a "$out/proof.md"
