#!/usr/bin/env bash
# Regenerates the ladder tables of submissions/README.md from the stored runs its begin marker names
# (`<!-- ladder tables: begin, from bench/ladder-runs/<gpu> -->`), with `judge ladder --from ... --markdown`.
# The tables are never typed: tests/host/test_ladder_markdown.cpp fails when they differ from the stored runs.
# JUDGE names the judge binary (default: build/judge/judge).
set -euo pipefail
cd "$(dirname "$0")/.."
judge=${JUDGE:-build/judge/judge}
readme=submissions/README.md
runs=$(sed -n 's/^<!-- ladder tables: begin, from \(.*\) -->$/\1/p' "$readme")
if [ -z "$runs" ]; then
  echo "$readme: no '<!-- ladder tables: begin, from DIR -->' line to fill" >&2
  exit 2
fi
from=()
while IFS= read -r f; do from+=(--from "$f"); done < <(ls "$runs"/*.json | LC_ALL=C sort)
tables=$(mktemp)
trap 'rm -f "$tables" "$readme.new"' EXIT
# Charts are linked as the README sees them: from submissions/, the runs folder is one level up.
"$judge" ladder "${from[@]}" --markdown --charts-from "../$runs" > "$tables"
awk -v t="$tables" '
  /^<!-- ladder tables: begin/ { print; while ((getline line < t) > 0) print line; print ""; skip = 1; next }
  /^<!-- ladder tables: end -->/ { skip = 0 }
  !skip' "$readme" > "$readme.new"
mv "$readme.new" "$readme"
echo "$readme: ladder tables regenerated from $runs ($(( ${#from[@]} / 2 )) ladders)"
