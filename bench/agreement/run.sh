#!/usr/bin/env bash
# Runs bench/agreement/l2_state.cu for both streaming kernels: the judge's timer (CUPTI serialized, then concurrent)
# and the kernel's own span per L2 preparation, then ncu's gpu__time_duration for the same launches with ncu's cache
# control on (its default: flush and invalidate before each kernel) and off. Output under $OUT (or
# bench-out/agreement); the tables are printed last. Needs a build with the study (scripts/build.sh builds it).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${OUT:-bench-out}/agreement")
mkdir -p "$out"
bin=${BIN:-$PWD/build/bench/judge-bench-l2-state}
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
judge=${JUDGE:-$PWD/build/judge/judge}
export JUDGE_DB=$out/agreement.sqlite JUDGE_CACHE_DIR=$out/cache JUDGE_USER=agreement
stamped=bench/agreement/transpose_naive_stamped.cu
# The naive transpose's own clock inside the judge, alone and under ncu (which profiles 6 of its first 40 launches).
"$judge" --json submit matrix_transpose $stamped --no-reference-timing --no-calibration > "$out/stamped-plain.json"
[ -n "$ncu" ] && "$ncu" --clock-control none --target-processes all --kernel-name transpose_naive --launch-skip 14 \
  --launch-count 6 --metrics gpu__time_duration.sum --csv --print-units base \
  "$judge" --json submit matrix_transpose $stamped --no-reference-timing --no-calibration \
  > "$out/stamped-ncu.csv" 2> "$out/stamped-ncu.err"
# The same kernel moved to other physical pages by allocating some memory first.
for mb in 0 2 6 30 130 510; do
  JUDGE_STUDY_OFFSET_MB=$mb "$bin" transpose 10 > "$out/offset-$mb.txt" 2>&1
done
for k in vector_add transpose; do
  "$bin" "$k" "${REPS:-30}" serialized,concurrent > "$out/cupti-$k.txt" 2>&1
  for cc in all none; do
    [ -n "$ncu" ] && "$ncu" --clock-control none --cache-control "$cc" --kernel-name regex:_v \
      --metrics gpu__time_duration.sum --csv --print-units base "$bin" "$k" "${NCU_REPS:-10}" \
      > "$out/ncu-$cc-$k.csv" 2> "$out/ncu-$cc-$k.err"
  done
done
python3 - "$out" <<'PY'
import csv, io, json, os, re, statistics, sys
out = sys.argv[1]

def spans(text):
    """In-kernel spans (µs) the stamped submission printed, from the judge's JSON in `text`."""
    start = text.find("{")
    if start < 0:
        return []
    report, _ = json.JSONDecoder().raw_decode(text[start:])
    return [float(l.split()[-2]) for l in report.get("output", "").splitlines() if "in-kernel" in l]

def rows(text):
    """(name, median, min, in-kernel) rows of one table the program printed."""
    return [l.split() for l in text.splitlines() if len(l.split()) == 4 and l.split()[1][0].isdigit()]

for k in ("vector_add", "transpose"):
    ncu = {}
    for cc in ("all", "none"):
        path = f"{out}/ncu-{cc}-{k}.csv"
        if not os.path.exists(path):
            continue
        text = open(path).read()
        # the program's own table under ncu (its timer is events there, CUPTI being ncu's): the in-kernel spans
        ncu["k" + cc] = {i: float(r[3]) for i, r in enumerate(rows(text))}
        start = text.find('"ID"')
        by = {}
        for row in csv.DictReader(io.StringIO(text[start:])) if start >= 0 else []:
            m = re.search(r"_v<(\d+)>", row.get("Kernel Name", ""))
            if m and row.get("Metric Name") == "gpu__time_duration.sum":
                by.setdefault(int(m.group(1)), []).append(float(row["Metric Value"].replace(",", "")) / 1000.0)
        ncu[cc] = {v: statistics.median(s) for v, s in by.items()}
    # one table per timer the program ran in turn
    for section in open(f"{out}/cupti-{k}.txt").read().split("timer ")[1:]:
        print(f"\n{k}, timer {section.splitlines()[0]}")
        print("| preparation | median µs | in-kernel µs | ncu (cache all) µs | in-kernel under ncu "
              "| ncu (cache none) µs | in-kernel under ncu |")
        print("|---|---|---|---|---|---|---|")
        for i, r in enumerate(rows(section)):
            cells = [f"{ncu[c][i]:.1f}" if c in ncu and i in ncu[c] else "-" for c in ("all", "kall", "none", "knone")]
            print(f"| {r[0]} | {r[1]} | {r[3]} | " + " | ".join(cells) + " |")

print("\nnaive transpose 8192x8192 after allocating N MB first (judge's timer, regen+read2x, median of 10)")
print("| N MB | median µs | in-kernel µs |")
print("|---|---|---|")
for mb in (0, 2, 6, 30, 130, 510):
    path = f"{out}/offset-{mb}.txt"
    found = [r for r in rows(open(path).read()) if r[0] == "regen+read2x"] if os.path.exists(path) else []
    if found:
        print(f"| {mb} | {found[0][1]} | {found[0][3]} |")

plain = spans(open(f"{out}/stamped-plain.json").read()) if os.path.exists(f"{out}/stamped-plain.json") else []
under = []
profiled = []
if os.path.exists(f"{out}/stamped-ncu.csv"):
    text = open(f"{out}/stamped-ncu.csv").read()
    under = spans(text)
    start = text.find('"ID"')
    profiled = [float(r["Metric Value"].replace(",", "")) / 1000.0
                for r in csv.DictReader(io.StringIO(text[start:])) if r["Grid Size"] == "(256, 1024, 1)"] if start >= 0 else []
print("\nnaive transpose 8192x8192 in the judge, by its own clock (median of 40 calls; under ncu, calls 5-10 profiled)")
print("| process | in-kernel µs, all calls | in-kernel µs, profiled calls | ncu gpu__time_duration µs |")
print("|---|---|---|---|")
med = lambda v: f"{statistics.median(v):.1f}" if v else "-"
print(f"| judge alone | {med(plain)} | - | - |")
print(f"| judge under ncu | {med(under)} | {med(under[5:11])} | {med(profiled)} |")
PY
