#!/usr/bin/env python3
"""Where one run of the test suite spent its time, from the timestamped ctest log `scripts/test.sh --timeline` writes.

    table.py LOG [LASTTEST]

LOG: ctest's output with each line prefixed by the seconds since ctest started (build/ctest-timeline.log).
LASTTEST (optional): ctest's Testing/Temporary/LastTest.log of the same run, for the examples' timing-lock figures.

Prints three Markdown tables: per group of tests (the examples, the corpus entries, then each test suite's name) the
count, the summed test time and the window in which the group ran; the ten longest tests; and, with LASTTEST, the
examples' wall time, their wait for the GPU's timing lock and the time they held it (the floor for the examples on one
GPU, since only one judge times on a GPU at a time).
"""
import collections
import re
import sys

START = re.compile(r"^\s*([\d.]+)\s+Start\s+\d+: (\S+)")
END = re.compile(r"^\s*([\d.]+)\s+\d+/\d+ Test\s+#\d+: (\S+) .*?(Passed|\*\*\*\w+(?: \w+)?)\s+([\d.]+) sec")
EXAMPLE = re.compile(r"example: (\S+) wall_s=(\S+) lock_waited_s=(\S+) lock_held_s=(\S+)")


def group(name):
    if name.startswith("Files/Example."):
        return "examples"
    if name.startswith("Files/Corpus."):
        return "corpus entries"
    return name.split(".")[0]


def main(log, last_test=None):
    starts, ends = {}, {}
    for line in open(log, errors="replace"):
        m = START.match(line)
        if m:
            starts[m.group(2)] = float(m.group(1))
            continue
        m = END.match(line)
        if m:
            ends[m.group(2)] = (float(m.group(1)), float(m.group(4)), m.group(3))
    if not ends:
        sys.exit(f"{log}: no timestamped ctest results (expected lines like '  12.3  5/1400 Test  #5: name ... Passed  1.00 sec')")
    wall = max(e for e, _, _ in ends.values())
    failed = sorted(n for n, (_, _, s) in ends.items() if s != "Passed" and "Skipped" not in s)
    print(f"{len(ends)} tests in {wall:.0f} s, {len(failed)} not passed or skipped" +
          (f" ({', '.join(failed[:5])}{', ...' if len(failed) > 5 else ''})" if failed else ""))
    print()
    groups = collections.defaultdict(lambda: [0, 0.0, float("inf"), 0.0])
    for name, (end, seconds, _) in ends.items():
        g = groups[group(name)]
        g[0] += 1
        g[1] += seconds
        g[2] = min(g[2], starts.get(name, end - seconds))
        g[3] = max(g[3], end)
    print("| group | tests | test time s | from s | to s |")
    print("|---|---|---|---|---|")
    for name, (n, total, first, last) in sorted(groups.items(), key=lambda kv: -kv[1][1])[:15]:
        print(f"| {name} | {n} | {total:.1f} | {first:.0f} | {last:.0f} |")
    print()
    print("| longest tests | s | from s |")
    print("|---|---|---|")
    for name, (end, seconds, _) in sorted(ends.items(), key=lambda kv: -kv[1][1])[:10]:
        print(f"| {name} | {seconds:.1f} | {starts.get(name, end - seconds):.0f} |")
    if last_test:
        rows = [m.groups() for m in EXAMPLE.finditer(open(last_test, errors="replace").read())]
        if rows:
            w, q, h = (sum(float(r[i]) for r in rows) for i in (1, 2, 3))
            print()
            print("| examples | judge wall s | waiting for the timing lock s | holding it s |")
            print("|---|---|---|---|")
            print(f"| {len(rows)} | {w:.1f} | {q:.1f} | {h:.1f} |")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(*sys.argv[1:])
