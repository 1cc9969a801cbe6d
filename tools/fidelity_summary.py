#!/usr/bin/env python3
"""Summarises a `ccsim device fidelity` timing.json (markdown on stdout): trial-to-trial spread, busbw tables,
and (with a second, older timing.json) the same kernels' n-GPU rows on another host.
Usage: fidelity_summary.py TIMING.json [OTHER_TIMING.json]"""
import collections, json, statistics, sys

MiB = 1 << 20
rows = json.load(open(sys.argv[1]))
other = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else []

def key(r):
    return (r["op"], r["algo"], r["proto"], r["n"], r["channels"])

def size(b):
    return f"{b >> 20} MiB" if b >= MiB else f"{b >> 10} KiB"

fid = collections.defaultdict(list)          # (group, bytes) -> [time_us per trial]
for r in rows:
    if r["set"] == "fidelity":
        fid[(key(r), r["bytes"])].append(r["time_us"])
med = {k: statistics.median(v) for k, v in fid.items()}

print("## Trial-to-trial spread (|trial - median of the 3 trials| / median)\n")
print("| size class | points | values | median | 90th pct | max | max at |")
print("|---|---|---|---|---|---|---|")
for name, sel in (("< 1 MiB", lambda b: b < MiB), (">= 1 MiB", lambda b: b >= MiB), ("all", lambda b: True)):
    devs = []
    for (g, b), ts in fid.items():
        if sel(b):
            m = med[(g, b)]
            devs += [(abs(t - m) / m, g, b) for t in ts]
    d = sorted(x[0] for x in devs)
    worst = max(devs)
    print(f"| {name} | {len(devs) // 3} | {len(d)} | {100 * statistics.median(d):.2f} % | {100 * d[int(0.9 * len(d))]:.2f} % "
          f"| {100 * worst[0]:.1f} % | {worst[1][0]} {worst[1][1]}/{worst[1][2]} {size(worst[2])} |")
# the same without the zero that the median trial itself contributes: (max - min) / median per point
for name, sel in (("< 1 MiB", lambda b: b < MiB), (">= 1 MiB", lambda b: b >= MiB), ("all", lambda b: True)):
    rng = sorted((max(ts) - min(ts)) / med[(g, b)] for (g, b), ts in fid.items() if sel(b))
    print(f"\n{name}: (max - min) / median of a point's 3 trials: median {100 * statistics.median(rng):.2f} %, "
          f"90th pct {100 * rng[int(0.9 * len(rng))]:.2f} %, max {100 * rng[-1]:.1f} %.", end="")
print()
drift = collections.defaultdict(list)
for r in rows:
    if r["set"] == "fidelity":
        drift[r["trial"]].append(r["time_us"] / med[(key(r), r["bytes"])])
print("Per trial, median of time / median of trials: " + ", ".join(
    f"trial {t}: {statistics.median(v):.4f}" for t, v in sorted(drift.items())) + "\n")

def bw(g, b):
    r = next(x for x in rows if x["set"] == "fidelity" and key(x) == g and x["bytes"] == b)
    return r["busbw_gbps"] * r["time_us"] / med[(g, b)]   # busbw of the median time

groups = sorted({g for g, _ in fid})
ns = sorted({g[3] for g in groups})
show = [4096, 65536, MiB, 16 * MiB, 128 * MiB, 512 * MiB]
for n in ns:
    print(f"## busbw (GB/s), n = {n}, 16 channels, median of 3 trials, graph timing\n")
    print("| op | algo/proto | " + " | ".join(size(b) for b in show) + " |")
    print("|---|---|" + "---|" * len(show))
    for g in groups:
        if g[3] == n:
            print(f"| {g[0]} | {g[1]}/{g[2]} | " + " | ".join(f"{bw(g, b):.1f}" for b in show) + " |")
    print()

ch = collections.defaultdict(dict)
for r in rows:
    if r["set"] == "fidelity_channels":
        ch[(r["algo"], r["proto"], r["n"])][(r["channels"], r["bytes"])] = r["busbw_gbps"]
if ch:
    sizes = sorted({b for v in ch.values() for (_, b) in v})
    print("## all-reduce busbw (GB/s) by channels (fidelity_channels, one trial; 16: fidelity median)\n")
    print("| algo/proto n | ch | " + " | ".join(size(b) for b in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for (a, p, n), v in sorted(ch.items()):
        for c in (4, 16, 64):
            cells = []
            for b in sizes:
                if c == 16:
                    g = ("all_reduce", a, p, n, 16)
                    cells.append(f"{bw(g, b):.1f}" if (g, b) in med else "")
                else:
                    cells.append(f"{v[(c, b)]:.1f}" if (c, b) in v else "")
            print(f"| {a}/{p} n={n} | {c} | " + " | ".join(cells) + " |")
    print()

if other:
    print("## The same kernels on another host: this run's median / the other file's row (same op, algo, proto, n, "
          "channels, bytes; graph rows)\n")
    pairs = []
    for r in other:
        if not r.get("graph", False):
            continue
        k = (key(r), r["bytes"])
        if k in med:
            pairs.append((med[k] / r["time_us"], k))
    print("| size class | points | median ratio | median abs dev | max abs dev | max at |")
    print("|---|---|---|---|---|---|")
    for name, sel in (("< 1 MiB", lambda b: b < MiB), (">= 1 MiB", lambda b: b >= MiB), ("all", lambda b: True)):
        ps = [(q, k) for q, k in pairs if sel(k[1])]
        if not ps:
            continue
        d = sorted(abs(q - 1) for q, _ in ps)
        w = max(ps, key=lambda x: abs(x[0] - 1))
        print(f"| {name} | {len(ps)} | {statistics.median(q for q, _ in ps):.3f} | {100 * statistics.median(d):.1f} % "
              f"| {100 * d[-1]:.1f} % | {w[1][0][0]} {w[1][0][1]}/{w[1][0][2]} {size(w[1][1])} ({w[0]:.2f}) |")
    print("\nPer size (median ratio over groups): " + ", ".join(
        f"{size(b)} {statistics.median(q for q, k in pairs if k[1] == b):.3f}" for b in sorted({k[1] for _, k in pairs})))
    per_group = collections.defaultdict(list)
    for q, k in pairs:
        per_group[k[0]].append(q)
    print("\n| op | algo/proto | ratios at " + ", ".join(size(b) for b in sorted({k[1] for _, k in pairs})) + " |")
    print("|---|---|---|")
    for g in sorted(per_group):
        qs = [q for q, k in sorted(pairs, key=lambda x: x[1][1]) if k[0] == g]
        print(f"| {g[0]} | {g[1]}/{g[2]} | " + " ".join(f"{q:.2f}" for q in qs) + " |")
