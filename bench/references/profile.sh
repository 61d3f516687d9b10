#!/usr/bin/env bash
# What holds a reference below its bound: Nsight Compute's figures, the ones `judge profile` shows for a submission
# (speed of light, occupancy, launch, memory workload, warp states), for the kernels of one reference call per
# benchmark case of each named challenge, one ncu run per case. judge-bench-references times the cases as in docs/references.md and runs
# its last call inside an NVTX range "reference"; ncu profiles only the kernels in that range.
#
#   bench/references/profile.sh CALIBRATION_JSON ID...     (after scripts/build.sh; prints a markdown table)
#
# Raw CSVs go to $OUT (default bench-out/reference-profile). Needs ncu and permission to read the GPU's counters.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 CALIBRATION_JSON ID..." >&2; exit 64; }
calibration=$(realpath "$1"); shift
out=$(realpath -m "${OUT:-bench-out}/reference-profile")
mkdir -p "$out"
bench=$PWD/build/bench/judge-bench-references
[ -x "$bench" ] || { echo "$bench is missing: build first (scripts/build.sh)" >&2; exit 1; }
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu (Nsight Compute) is not installed" >&2; exit 1; }
for id in "$@"; do
  cases=$(python3 -c "import json,sys; print(' '.join(b['name'] for b in json.load(open(sys.argv[1]))['benchmarks']))" \
    "challenges/$id/spec.json")
  for c in $cases; do
    "$ncu" --nvtx --nvtx-include "reference-$c/" --section SpeedOfLight --section Occupancy --section LaunchStats \
      --section MemoryWorkloadAnalysis --section WarpStateStats --csv --page raw --print-units base \
      "$bench" challenges "$calibration" "$id" > "$out/$id@$c.csv" 2> "$out/$id@$c.err" ||
      { echo "ncu failed on $id, case $c:" >&2; tail -5 "$out/$id@$c.err" >&2; exit 1; }
  done
done
python3 bench/references/profile_table.py "$out" "$@"
