#!/usr/bin/env python3
"""Scale benchmark: `ccsim perf` on rail-optimized HGX H100 clusters of growing size, folded and full, as a markdown
table (GPUs x op x algorithm x mode x wall / user time x events x simulated time), and the equality check of the
simulated times between modes. Each point is one whole process (JVM start included): wall clock, and the CPU time
of the process (os.times of the children).

Usage: scale_bench.py [--nodes 1,2,8,32,64,128] [--ops all_reduce,all_gather] [--algos Ring,default]
                      [--size 1G] [--modes folded,full] [--timeout-s 600] [--ccsim ./ccsim]
"""
import argparse
import os
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", default="1,2,8,32,64,128")
    ap.add_argument("--ops", default="all_reduce,all_gather")
    ap.add_argument("--algos", default="Ring,default")
    ap.add_argument("--size", default="1G")
    ap.add_argument("--modes", default="folded,full")
    ap.add_argument("--timeout-s", type=float, default=600)
    ap.add_argument("--ccsim", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ccsim"))
    a = ap.parse_args()
    print("| GPUs | op | algorithm | mode | wall s | user s | events | simulated µs | busbw GB/s | algo/proto |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    mismatches = 0
    for nodes in [int(x) for x in a.nodes.split(",")]:
        for op in a.ops.split(","):
            for algo in a.algos.split(","):
                times = {}
                for mode in a.modes.split(","):
                    env = dict(os.environ)
                    if algo != "default":
                        env["NCCL_ALGO"] = algo
                    cmd = [a.ccsim, "perf", "--topology", "hgx-h100", "--nodes", str(nodes), "--op", op,
                           "-b", a.size, "-e", a.size, "--sim-mode", mode]
                    before = os.times()
                    t0 = time.monotonic()
                    try:
                        out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=a.timeout_s).stdout
                    except subprocess.TimeoutExpired:
                        print(f"| {8 * nodes} | {op} | {algo} | {mode} | > {a.timeout_s:.0f} | | | | | |", flush=True)
                        continue
                    wall = time.monotonic() - t0
                    after = os.times()
                    user = after.children_user - before.children_user
                    row = [l for l in out.splitlines() if l and not l.startswith("#")]
                    ev = re.search(r"(\d+) events", out)
                    if not row or not ev:
                        print(f"| {8 * nodes} | {op} | {algo} | {mode} | failed: {out.strip().splitlines()[-1:]} |",
                              flush=True)
                        continue
                    f = row[-1].split()
                    sim_us, busbw, ap_ = f[5], f[7], f[8] + "/" + f[9]
                    times[mode] = sim_us
                    print(f"| {8 * nodes} | {op} | {algo} | {mode} | {wall:.2f} | {user:.2f} | {int(ev.group(1)):,} | "
                          f"{sim_us} | {busbw} | {ap_} |", flush=True)
                if len(set(times.values())) > 1:
                    mismatches += 1
                    print(f"<!-- MISMATCH {8 * nodes} {op} {algo}: {times} -->", flush=True)
    print(f"\n{mismatches} point(s) where the modes' simulated times differ.")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
