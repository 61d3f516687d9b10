#!/usr/bin/env python3
"""The corpus table (entry, expected verdict, result, seconds) from a ctest log of the GPU suite.

    python3 bench/corpus_table.py build/Testing/Temporary/LastTest.log   (or the output of scripts/test.sh)

A passed entry got its expected verdict (the test asserts it); a failed one is marked with the log's detail."""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "corpus")
log = open(sys.argv[1], errors="replace").read()
# LastTest.log holds every test's output, passing ones too: the line each entry prints has its actual verdict.
actual = {m.group(1): (m.group(2), m.group(3))
          for m in re.finditer(r"corpus: (\S+) expected=\S+ got=(\S+) ([\d.]+)s", log)}
results = {m.group(1): (m.group(2), m.group(3))
           for m in re.finditer(r"Files/Corpus\.GetsItsVerdict/(\S+) \.+\s*(?:\*\*\*)?(\w+)\s+([\d.]+) sec", log)}

print("| entry | command | expected | result | seconds |")
print("|---|---|---|---|---|")
for challenge in sorted(os.listdir(root)):
    folder = os.path.join(root, challenge)
    if not os.path.isdir(folder):
        continue
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".cu"):
            continue
        header = {}
        for line in open(os.path.join(folder, name)):
            if not line.startswith("//"):
                break
            m = re.match(r"// (expect|judge-command): (.*)", line)
            if m:
                header[m.group(1)] = m.group(2).strip()
        key = re.sub(r"[^A-Za-z0-9]", "_", f"{challenge}_{name[:-3]}")
        status, secs = results.get(key, ("not run", ""))
        got, secs = actual.get(f"{challenge}/{name}", (status, secs))
        if got not in header.get("expect", "").split("|"):
            got += " (MISMATCH)"
        print(f"| {challenge}/{name} | {header.get('judge-command', 'run')} | {header.get('expect', '?')} | "
              f"{got} | {secs} |")
