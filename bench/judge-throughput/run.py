#!/usr/bin/env python3
"""How many judge runs a host finishes per second, against how many run at once and on how many GPUs.

    bench/judge-throughput/run.py [--out DIR] [--runs N] [--source FILE --challenge ID] [CONFIG ...]

A CONFIG is GPUS*K: K judges at once on each GPU of the comma-separated list GPUS (as nvidia-smi numbers them), e.g.
0*8 (eight on GPU 0) or 0,1*8 (eight on GPU 0 and eight on GPU 1); GPUS*K:N runs N judges instead of --runs. Without
configs: 0*1:4, 0*8, 0*16, then 0,1*4 and 0,1*8 on a host with two GPUs or more, 0,1,2,3*4 with four or more.

Each judge is `judge --json run ID FILE` (the functional tests, no timing), sees only its GPU (CUDA_VISIBLE_DEVICES)
and has a private cache copied from one warmed first, so none compiles and none shares a lock: what is left is what
every judged run pays (starting the worker and the sandboxed solver, their CUDA contexts, generating, checking).
JUDGE_PHASE_TIMES is set, so each run's stderr says where its time went. Raw records in DIR/<config>.jsonl (one run a
line: GPU, wall seconds, exit code, phase notes), the configs' order in DIR/configs.txt; the table (table.py beside
this) is printed last. Run it with the sandbox the judge uses (JUDGE_BWRAP where bubblewrap is not installed).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from table import record_file  # noqa: E402


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout
    except OSError:
        return 0
    return sum(1 for line in out.splitlines() if line.startswith("GPU "))


def default_configs(gpus):
    configs = ["0*1:4", "0*8", "0*16"]
    if gpus >= 2:
        configs += ["0,1*4", "0,1*8"]
    if gpus >= 4:
        configs += ["0,1,2,3*4"]
    return configs


def parse_config(text, runs):
    m = re.fullmatch(r"([0-9]+(?:,[0-9]+)*)\*([0-9]+)(?::([0-9]+))?", text)
    if not m:
        sys.exit(f"run.py: config '{text}' is not GPUS*K or GPUS*K:N (e.g. 0*8, 0,1*8, 0*1:4)")
    gpus = [int(g) for g in m.group(1).split(",")]
    return gpus, int(m.group(2)), int(m.group(3)) if m.group(3) else runs


def phase_notes(stderr):
    notes = []
    for line in stderr.splitlines():
        m = re.match(r"judge phase-times: ([0-9.]+) (.*)", line)
        if m:
            notes.append([float(m.group(1)), m.group(2)])
    return notes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench-out", "judge-throughput"))
    ap.add_argument("--runs", type=int, default=32)
    ap.add_argument("--source", default=os.path.join(ROOT, "submissions", "vector_add", "1_naive.cu"))
    ap.add_argument("--challenge", default="vector_add")
    ap.add_argument("--judge", default=os.environ.get("JUDGE", os.path.join(ROOT, "build", "judge", "judge")))
    ap.add_argument("configs", nargs="*")
    a = ap.parse_args()
    if not os.access(a.judge, os.X_OK):
        sys.exit(f"run.py: no judge at {a.judge}: build first (scripts/build.sh) or pass --judge")
    have = gpu_count()
    if have < 1:
        sys.exit("run.py: no GPU here (nvidia-smi lists none)")
    configs = a.configs or default_configs(have)
    plans = [(c, *parse_config(c, a.runs)) for c in configs]
    for c, gpus, _, _ in plans:
        if max(gpus) >= have:
            sys.exit(f"run.py: config '{c}' names GPU {max(gpus)}, this host has {have}")

    os.makedirs(a.out, exist_ok=True)
    scratch = os.path.join(a.out, "caches")
    shutil.rmtree(scratch, ignore_errors=True)
    warm = os.path.join(scratch, "warm")
    base_env = dict(os.environ, JUDGE_PHASE_TIMES="1")
    command = [a.judge, "--json", "run", a.challenge, a.source]
    first = subprocess.run(command, env=dict(base_env, JUDGE_CACHE_DIR=warm, CUDA_VISIBLE_DEVICES="0"),
                           capture_output=True, text=True)
    if first.returncode != 0:
        sys.exit(f"run.py: the warming run failed (exit {first.returncode}):\n"
                 f"{first.stdout[-2000:]}{first.stderr[-2000:]}")

    with open(os.path.join(a.out, "configs.txt"), "w") as f:
        f.write("\n".join(c for c, *_ in plans) + "\n")
    for name, gpus, per_gpu, runs in plans:
        todo = list(range(runs))
        lock = threading.Lock()
        records = []

        def judge_loop(gpu):
            while True:
                with lock:
                    if not todo:
                        return
                    i = todo.pop()
                cache = record_file(scratch, name)[:-len(".jsonl")] + f"-{i}"
                shutil.copytree(warm, cache, symlinks=True)
                t = time.monotonic()
                p = subprocess.run(command, env=dict(base_env, JUDGE_CACHE_DIR=cache, CUDA_VISIBLE_DEVICES=str(gpu)),
                                   capture_output=True, text=True)
                wall = time.monotonic() - t
                shutil.rmtree(cache, ignore_errors=True)
                with lock:
                    records.append({"gpu": gpu, "wall_s": round(wall, 3), "rc": p.returncode,
                                    "phases": phase_notes(p.stderr)})

        threads = [threading.Thread(target=judge_loop, args=(g,)) for g in gpus for _ in range(per_gpu)]
        t = time.monotonic()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        total = time.monotonic() - t
        with open(record_file(a.out, name), "w") as f:
            f.write(json.dumps({"config": name, "gpus": gpus, "per_gpu": per_gpu, "wall_s": round(total, 3)}) + "\n")
            for r in records:
                f.write(json.dumps(r) + "\n")
        print(f"{name}: {len(records)} runs in {total:.1f} s", file=sys.stderr)
    shutil.rmtree(scratch, ignore_errors=True)
    subprocess.run([sys.executable, os.path.join(HERE, "table.py"), a.out], check=False)


if __name__ == "__main__":
    main()
