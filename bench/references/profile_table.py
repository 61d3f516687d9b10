#!/usr/bin/env python3
"""The table of bench/references/profile.sh: per kernel of one reference call, the figures `judge profile` shows
(judge/core/run/ncu.cpp reads the same metrics and applies the same rules). Usage: profile_table.py DIR ID..."""
import csv
import glob
import io
import os
import sys

DURATION = "gpu__time_duration.sum"
# The first one present wins: Nsight Compute releases renamed a few (judge/core/run/ncu.cpp reads the same lists).
DRAM = ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed")
MEMORY = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
SM = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
ACHIEVED = "sm__warps_active.avg.pct_of_peak_sustained_active"
THEORETICAL = "sm__maximum_warps_per_active_cycle_pct"
STALL_PREFIX, STALL_SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"
BUSY_PCT = 60  # Nsight Compute's SOLBottleneck rule, as judge profile's limiter()


def rows(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    at = text.find('"ID",')
    if at < 0:
        return []
    table = list(csv.reader(io.StringIO(text[at:])))
    header, data = table[0], table[1:]
    if data and data[0] and data[0][0] == "":  # the units row
        data = data[1:]
    return [dict(zip(header, r)) for r in data if len(r) == len(header)]


def num(row, key):
    for k in (key,) if isinstance(key, str) else key:
        try:
            return float(row[k].replace(",", ""))
        except (KeyError, ValueError):
            continue
    return None


def short_name(full):
    """'void (anonymous namespace)::scan<float, 256>(const float *, int)' -> 'scan'."""
    name = full.replace("(anonymous namespace)::", "").split("(")[0].split("<")[0].strip()
    return name.split(" ")[-1].split("::")[-1] or full


def stalls(row):
    states = {k[len(STALL_PREFIX):-len(STALL_SUFFIX)]: num(row, k) for k in row
              if k.startswith(STALL_PREFIX) and k.endswith(STALL_SUFFIX) and "not_issued" not in k}
    states = {k: v for k, v in states.items() if v is not None}
    total = sum(states.values())
    top = sorted(((v, k) for k, v in states.items() if k != "selected" and v > 0), reverse=True)[:2]
    return ", ".join(f"{k.replace('_', ' ')} {100 * v / total:.0f}%" for v, k in top) if total else "-"


def limiter(row):
    memory = num(row, MEMORY) if num(row, MEMORY) is not None else num(row, DRAM)
    sm = num(row, SM)
    if memory is None or sm is None:
        return "-"
    if max(memory, sm) < BUSY_PCT:
        return "latency"
    return "memory" if memory >= sm else "compute"


def pct(row, key):
    v = num(row, key)
    return "-" if v is None else f"{v:.0f}%"


def main():
    out, ids = sys.argv[1], sys.argv[2:]
    print("| challenge | case | kernel | grid x block | µs | DRAM | busiest memory unit | SM | occupancy achieved / "
          "theoretical | limiter | top stalls (share of warp cycles) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for cid in ids:
        for path in sorted(glob.glob(os.path.join(out, f"{cid}@*.csv"))):
            case = os.path.basename(path)[len(cid) + 1:-4]
            found = rows(path)
            if not found:
                print(f"| {cid} | {case} | (no kernel profiled: see {path[:-4]}.err) |||||||||")
            for r in found:
                name = short_name(r.get("Kernel Name", "?"))
                dur = num(r, DURATION)
                print(f"| {cid} | {case} | {name} | {r.get('Grid Size', '?')} x {r.get('Block Size', '?')} | "
                      f"{'-' if dur is None else f'{dur / 1e3:.1f}'} | {pct(r, DRAM)} | {pct(r, MEMORY)} | {pct(r, SM)} | "
                      f"{pct(r, ACHIEVED)} / {pct(r, THEORETICAL)} | {limiter(r)} | {stalls(r)} |")


if __name__ == "__main__":
    main()
