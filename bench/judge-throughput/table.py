#!/usr/bin/env python3
"""The table of bench/judge-throughput/run.py from its raw records.

    bench/judge-throughput/table.py DIR

Per config: how many judges ran at once, the runs, those that did not exit 0, the wall time, runs per second, a run's
mean wall time, and where a run's time went: the mean seconds per run of the four longest phases, each phase named by
the JUDGE_PHASE_TIMES note that ends it ("worker: device" is the time up to the worker's device event: its CUDA
context, the sandboxed solver's start and context). Runs per second that stop growing with more judges or more GPUs,
while the phases before the first case grow, mean something host-wide is serialised.
"""
import collections
import json
import os
import re
import sys


def record_file(out, config):
    """Where run.py keeps a config's records: DIR/<config>.jsonl, with , * : spelt _ x _."""
    return os.path.join(out, config.replace(",", "_").replace("*", "x").replace(":", "_") + ".jsonl")


def phases_of(notes):
    spent = collections.defaultdict(float)
    previous = 0.0
    for at, label in notes:
        label = re.sub(r"^worker: case_begin .*", "worker: case_begin", label)
        spent[label] += at - previous
        previous = at
    return spent


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: table.py DIR (the --out of run.py)")
    out = sys.argv[1]
    with open(os.path.join(out, "configs.txt")) as f:
        configs = [line.strip() for line in f if line.strip()]
    print("| config | judges at once | runs | not exit 0 | wall s | runs/s | mean run s | "
          "where a run's time went (mean s) |")
    print("|---|---|---|---|---|---|---|---|")
    for name in configs:
        with open(record_file(out, name)) as f:
            head = json.loads(f.readline())
            runs = [json.loads(line) for line in f if line.strip()]
        if not runs:
            print(f"| {name} | {len(head['gpus']) * head['per_gpu']} | 0 | - | - | - | - | - |")
            continue
        spent = collections.defaultdict(float)
        for r in runs:
            for label, s in phases_of(r["phases"]).items():
                spent[label] += s
        top = sorted(spent.items(), key=lambda kv: -kv[1])[:4]
        where = ", ".join(f"{label} {s / len(runs):.2f}" for label, s in top)
        failed = sum(1 for r in runs if r["rc"] != 0)
        mean = sum(r["wall_s"] for r in runs) / len(runs)
        print(f"| {name} | {len(head['gpus']) * head['per_gpu']} | {len(runs)} | {failed} | {head['wall_s']:.1f} | "
              f"{len(runs) / head['wall_s']:.2f} | {mean:.2f} | {where} |")


if __name__ == "__main__":
    main()
