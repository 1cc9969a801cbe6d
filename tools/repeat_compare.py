#!/usr/bin/env python3
"""How far two fidelity sweeps of ccsim's kernels differ: for each file after the first, per (op, algo, proto) group
of the n = 2, 16-channel rows, the median |difference| of the per-point trial medians against the first file, below
and from 1 MiB, and the signed median from 1 MiB; then the trial spread of the first file.
Usage: repeat_compare.py RUN.json OTHER.json [OTHER.json ...]"""
import json
import statistics as st
import sys

MIB = 1 << 20


def load(path, n=2):
    points = {}
    for r in json.load(open(path)):
        if r.get("n") != n or not r.get("graph") or r.get("set") != "fidelity":
            continue
        k = (r["op"], r["algo"], r["proto"], r["channels"], r["bytes"])
        points.setdefault(k, []).append(r["time_us"])
    return points


def compare(x, y, name):
    groups = {}
    for k, v in x.items():
        if k not in y:
            continue
        e = (st.median(v) - st.median(y[k])) / st.median(y[k]) * 100
        groups.setdefault((k[:3], k[4] >= MIB), []).append(e)
    print(f"== {name}: median |diff| per group, below / from 1 MiB, and the signed median from 1 MiB")
    small, large = [], []
    for g in sorted({g for g, _ in groups}):
        s, b = groups.get((g, False), []), groups.get((g, True), [])
        small += s
        large += b
        print("  %-15s %-5s %-7s %5.1f %5.1f  %+5.1f" % (*g, st.median(map(abs, s)), st.median(map(abs, b)), st.median(b)))
    print("  all groups: below 1 MiB %.1f %%, from 1 MiB %.1f %%" % (st.median(map(abs, small)), st.median(map(abs, large))))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    base = load(sys.argv[1])
    for other in sys.argv[2:]:
        compare(base, load(other), f"{sys.argv[1]} vs {other}")
    spread = {False: [], True: []}
    for k, v in base.items():
        if len(v) >= 3:
            spread[k[4] >= MIB].append((max(v) - min(v)) / st.median(v) * 100)
    print("trial spread of %s: below 1 MiB %.1f %%, from 1 MiB %.1f %%" % (sys.argv[1], st.median(spread[False]), st.median(spread[True])))


if __name__ == "__main__":
    main()
