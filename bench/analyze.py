#!/usr/bin/env python3
"""Turns the raw output of bench/proof.sh into the markdown tables of docs/measurement.md."""
import csv
import glob
import io
import json
import os
import statistics
import sys

out = sys.argv[1]


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def bench_cases(report):
    return [c for c in (report or {}).get("cases", []) if c.get("kind") == "benchmark" and c.get("timing")]


def us(ms):
    return f"{ms * 1e3:.1f}"


print(f"GPU: {open(os.path.join(out, 'gpu.txt')).read().strip()}\n")

cal = (load(os.path.join(out, "calibration-report.json")) or {}).get("calibration")
if cal:
    print("## Calibration\n")
    print("| copy GB/s | FP32 FMA TFLOP/s | SGEMM | TF32 | FP16 | BF16 |")
    print("|---|---|---|---|---|---|")
    print(f"| {cal['copy_gbps']:.0f} | {cal['fp32_fma_gflops']/1e3:.1f} | {cal['sgemm_gflops']/1e3:.1f} | "
          f"{cal['tf32_gflops']/1e3:.0f} | {cal['fp16_gflops']/1e3:.0f} | {cal['bf16_gflops']/1e3:.0f} |\n")

singles = [line.split() for line in open(os.path.join(out, "singles.txt")) if line.strip()]

print("## Agreement with ncu (first benchmark case, median of the judge's 5 runs vs ncu gpu__time_duration)\n")
print("| submission | case | judge µs | ncu µs (n) | difference |")
print("|---|---|---|---|---|")
for cid, path, kernel in singles:
    tag = os.path.splitext(os.path.basename(path))[0]
    runs = [load(p) for p in sorted(glob.glob(os.path.join(out, f"rep-{cid}-{tag}-*.json")))]
    firsts = [bench_cases(r)[0] for r in runs if bench_cases(r)]
    if not firsts:
        print(f"| {cid}/{tag} | - | no result | | |")
        continue
    judge_ms = statistics.median(c["timing"]["median_ms"] for c in firsts)
    values = []
    try:
        text = open(os.path.join(out, f"ncu-{cid}-{tag}.csv")).read()
        start = text.find('"ID"')
        grid = None
        for row in csv.DictReader(io.StringIO(text[start:] if start >= 0 else "")):
            if row.get("Metric Name") != "gpu__time_duration.sum":
                continue
            grid = grid or row.get("Grid Size")
            if row.get("Grid Size") == grid:  # the first benchmark case only
                values.append(float(row["Metric Value"].replace(",", "")) * 1e-6)  # ns -> ms
    except OSError:
        pass
    if values:
        ncu_ms = statistics.median(values)
        diff = 100.0 * (judge_ms - ncu_ms) / ncu_ms
        print(f"| {cid}/{tag} | {firsts[0]['name']} | {us(judge_ms)} | {us(ncu_ms)} ({len(values)}) | {diff:+.2f}% |")
    else:
        print(f"| {cid}/{tag} | {firsts[0]['name']} | {us(judge_ms)} | ncu gave no data | |")

print("\n## Repeatability (five `judge submit` runs: spread of the reported median = (max-min)/median)\n")
print("| submission | case | medians µs | spread |")
print("|---|---|---|---|")
for cid, path, kernel in singles:
    tag = os.path.splitext(os.path.basename(path))[0]
    runs = [load(p) for p in sorted(glob.glob(os.path.join(out, f"rep-{cid}-{tag}-*.json")))]
    by_case = {}
    for r in runs:
        for c in bench_cases(r):
            by_case.setdefault(c["name"], []).append(c["timing"]["median_ms"])
    for name, meds in by_case.items():
        spread = 100.0 * (max(meds) - min(meds)) / statistics.median(meds)
        print(f"| {cid}/{tag} | {name} | {' '.join(us(m) for m in meds)} | {spread:.2f}% |")

print("\n## Escape: a kernel left running on a non-blocking stream\n")
print("| run | case | median µs | timer |")
print("|---|---|---|---|")
plain = [load(p) for p in sorted(glob.glob(os.path.join(out, "rep-vector_add-1_naive-*.json")))]
for label, rep in [("1_naive.cu (default stream)", plain[0] if plain else None),
                   ("escape (non-blocking stream)", load(os.path.join(out, "escape-cupti.json"))),
                   ("escape, --no-cupti", load(os.path.join(out, "escape-events.json"))),
                   ("1_naive.cu, --no-cupti", load(os.path.join(out, "plain-events.json")))]:
    for c in bench_cases(rep):
        print(f"| {label} | {c['name']} | {us(c['timing']['median_ms'])} | {c['timing']['timer']} |")
    if rep and not bench_cases(rep):
        print(f"| {label} | - | verdict {rep.get('verdict')}: {rep.get('message', '')[:80]} | |")

print("\n## Judge overhead: `judge submit` of vector_add/1_naive.cu with a cached build\n")
r = plain[-1] if plain else None
if r:
    cases = r["cases"]
    prof = lambda key: sum(c.get("profile", {}).get(key, 0.0) for c in cases)
    gpu = sum(c["timing"]["median_ms"] * c.get("profile", {}).get("calls", 0) for c in bench_cases(r))
    print("| wall s | build s | spawn+context s | generate s | reference s | check s | timing loops s | GPU time in solve() s |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| {r['wall_s']:.2f} | {r['build']['seconds']:.2f} | {r.get('worker_start_s', 0):.2f} | "
          f"{prof('generate_ms')/1e3:.2f} | {prof('reference_ms')/1e3:.2f} | {prof('check_ms')/1e3:.2f} | "
          f"{prof('timing_ms')/1e3:.2f} | {gpu/1e3:.3f} |")

print("\n## How the judge's cost grows with the inputs (vector_add, bench/scaling; --budget 1)\n")
s = load(os.path.join(out, "scaling.json"))
copy = cal["copy_gbps"] if cal else 0
if s:
    print(f"wall {s['wall_s']:.1f} s, spawn+context {s.get('worker_start_s', 0):.2f} s, verdict {s['verdict']}\n")
    print("| case | inputs | calls | solve() median µs | generate GB/s | check GB/s | per call: generate+reference+check ms | judge ms per solve() ms |")
    print("|---|---|---|---|---|---|---|---|")
    for c in bench_cases(s):
        p = c.get("profile", {})
        calls = max(p.get("calls", 1), 1)
        gen = p.get("generated_bytes", 0) / max(p.get("generate_ms", 1e-9), 1e-9) / 1e6
        chk = p.get("checked_bytes", 0) / max(p.get("check_ms", 1e-9), 1e-9) / 1e6
        per_call = (p.get("generate_ms", 0) + p.get("reference_ms", 0) + p.get("check_ms", 0)) / calls
        med = c["timing"]["median_ms"]
        ratio = p.get("timing_ms", 0) / calls / med if med else 0
        inputs = p.get("generated_bytes", 0) / calls
        pct = lambda v: f" ({100*v/copy:.0f}%)" if copy else ""
        print(f"| {c['name']} | {inputs/1e6:.0f} MB | {calls} | {us(med)} | {gen:.0f}{pct(gen)} | {chk:.0f}{pct(chk)} | "
              f"{per_call:.3f} | {ratio:.1f} |")
