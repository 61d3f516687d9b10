#!/usr/bin/env bash
# Quick start: install what is missing, build, and judge an example submission.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
echo
echo "== judge submit vector_add submissions/vector_add/1_naive.cu"
build/judge/judge submit vector_add submissions/vector_add/1_naive.cu --name example
echo
build/judge/judge leaderboard vector_add
