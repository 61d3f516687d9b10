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
for k in vector_add transpose; do
  "$bin" "$k" "${REPS:-30}" serialized,concurrent > "$out/cupti-$k.txt" 2>&1
  for cc in all none; do
    [ -n "$ncu" ] && "$ncu" --clock-control none --cache-control "$cc" --kernel-name regex:_v \
      --metrics gpu__time_duration.sum --csv --print-units base "$bin" "$k" "${NCU_REPS:-10}" \
      > "$out/ncu-$cc-$k.csv" 2> "$out/ncu-$cc-$k.err"
  done
done
python3 - "$out" <<'PY'
import csv, io, os, re, statistics, sys
out = sys.argv[1]

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
PY
