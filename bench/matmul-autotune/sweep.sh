#!/usr/bin/env bash
# Autotune the matmul ladder's top rung: one variant of sgemm_template.cuh per line of configs.txt (or $CONFIGS),
# judged with rung 8 itself as the baseline by `judge ladder` (every test, then the benchmarks, against cuBLAS),
# stored as JSON and shown as the ladder table. On a GPU machine, after a Release build:
#   bench/matmul-autotune/sweep.sh [out.json]          (JUDGE: the judge binary, default build/judge/judge;
#                                                       BUDGET: seconds per benchmark case, default 0.3)
# Read a stored sweep again without a GPU: judge ladder --from bench/matmul-autotune/h100-2026-11-23.json
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
judge=${JUDGE:-$root/build/judge/judge}
out=${1:-sweep.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=("$root/submissions/matrix_multiplication/8_tuned.cu")
while read -r name bm bn bk stages tn minb; do
  case "$name" in ''|'#'*) continue ;; esac
  f="$work/${name}.cu"
  {
    echo "// Variant ${name}: BM=${bm} BN=${bn} BK=${bk} STAGES=${stages} TN=${tn} MINB=${minb}."
    printf '#define BM %s\n#define BN %s\n#define BK %s\n#define STAGES %s\n#define TN %s\n#define MINB %s\n' \
      "$bm" "$bn" "$bk" "$stages" "$tn" "$minb"
    cat "$here/sgemm_template.cuh"
  } > "$f"
  files+=("$f")
done < "${CONFIGS:-$here/configs.txt}"
"$judge" --json ladder matrix_multiplication "${files[@]}" --budget "${BUDGET:-0.3}" > "$out" || true
"$judge" ladder --from "$out"
