#!/usr/bin/env python3
"""The batch-scaling table (bench/batch-scaling/run.sh) from its JSON outputs.

    table.py OUT COUNT...     reads OUT/<batch>-<count>gpu.json for both batches and prints one Markdown row each

Speedup and efficiency are against the 1-GPU run (efficiency = T1 / (g * Tg)); the last column is, per GPU, the
share of the batch's wall time its timing lock was held (the union of the judges' holds on it).
"""
import json
import sys


def union(intervals):
    """Total length covered by the (start, end) intervals."""
    total, end = 0.0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def main(out, counts):
    print("| batch | GPUs | wall s | speedup | efficiency | accepted | timing lock held, share of wall per GPU |")
    print("|---|---|---|---|---|---|---|")
    for batch in ("vector_add", "matrix_multiplication"):
        base = None
        for g in counts:
            try:
                with open(f"{out}/{batch}-{g}gpu.json") as f:
                    j = json.load(f)
            except (OSError, ValueError) as e:
                print(f"| {batch} | {g} | - | - | - | - | no result: {e} |")
                continue
            wall = j["wall_s"]
            if g == 1:
                base = wall
            held = {}
            for r in j["results"]:
                for start, end in r["report"].get("gpu_lock", {}).get("holds_s", []):
                    held.setdefault(str(r["device"]), []).append((start, end))
            shares = " ".join(f"GPU {d}: {100 * union(v) / wall:.0f}%" for d, v in sorted(held.items()))
            speedup = f"{base / wall:.2f}" if base else "-"
            efficiency = f"{base / (g * wall):.2f}" if base else "-"
            print(f"| {batch} | {g} | {wall:.1f} | {speedup} | {efficiency} | {j['accepted']}/{j['submissions']} "
                  f"| {shares} |")


if __name__ == "__main__":
    main(sys.argv[1], [int(c) for c in sys.argv[2:]])
