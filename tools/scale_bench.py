#!/usr/bin/env python3
"""Scale benchmark: `ccsim perf` on rail-optimized HGX H100 clusters of growing size, in several --sim-modes, as a
markdown table (GPUs x op x algorithm x size x mode x wall / user time x events x simulated time), and the checks
between modes: folded and full must give the same simulated time; extrapolated is compared with the first exact mode
run (folded or full) and its error printed. Each point is one whole process (JVM start included): wall clock and the
CPU time of the process (os.times of the children).

Usage: scale_bench.py [--nodes 1,2,8,32,64,128] [--ops all_reduce,all_gather] [--algos Ring,default]
                      [--sizes 1G] [--modes folded,full,extrapolated] [--timeout-s 600] [--ccsim ./ccsim]
                      [--extrapolate-from 16,32]
"""
import argparse
import os
import re
import subprocess
import sys
import time


def run_point(a, nodes, op, algo, size, mode):
    """One perf process: (row fields, wall s, user s, events) or (None, why)."""
    env = dict(os.environ)
    if algo != "default":
        env["NCCL_ALGO"] = algo
    cmd = [a.ccsim, "perf", "--topology", "hgx-h100", "--nodes", str(nodes), "--op", op,
           "-b", size, "-e", size, "--sim-mode", mode]
    if mode == "extrapolated" and a.extrapolate_from:
        cmd += ["--extrapolate-from", a.extrapolate_from]
    before = os.times()
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=a.timeout_s)
    except subprocess.TimeoutExpired:
        return None, f"> {a.timeout_s:.0f} s"
    wall = time.monotonic() - t0
    after = os.times()
    user = after.children_user - before.children_user
    out = p.stdout
    row = [l for l in out.splitlines() if l and not l.startswith("#")]
    ev = re.search(r"(\d+) events", out)
    if not row or not ev:
        return None, "failed: " + " ".join((p.stderr.strip() or out.strip()).splitlines()[-1:])
    f = row[-1].split()
    return (f[5], f[7], f[8] + "/" + f[9], wall, user, int(ev.group(1))), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", default="1,2,8,32,64,128")
    ap.add_argument("--ops", default="all_reduce,all_gather")
    ap.add_argument("--algos", default="Ring,default")
    ap.add_argument("--sizes", "--size", default="1G")
    ap.add_argument("--modes", default="folded,full")
    ap.add_argument("--extrapolate-from", default="")
    ap.add_argument("--timeout-s", type=float, default=600)
    ap.add_argument("--ccsim", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ccsim"))
    a = ap.parse_args()
    print("| GPUs | op | algorithm | size | mode | wall s | user s | events | simulated µs | busbw GB/s | algo/proto"
          " | error vs exact |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    mismatches = 0
    worst = 0.0
    for nodes in [int(x) for x in a.nodes.split(",")]:
        for op in a.ops.split(","):
            for algo in a.algos.split(","):
                for size in a.sizes.split(","):
                    exact = {}
                    for mode in a.modes.split(","):
                        r, why = run_point(a, nodes, op, algo, size, mode)
                        head = f"| {8 * nodes} | {op} | {algo} | {size} | {mode} |"
                        if r is None:
                            print(f"{head} {why} | | | | | | |", flush=True)
                            continue
                        sim_us, busbw, ap_, wall, user, events = r
                        err = ""
                        if mode == "extrapolated":
                            ref = next(iter(exact.values()), None)
                            if ref is not None:
                                e = 100.0 * (float(sim_us) - float(ref)) / float(ref)
                                worst = max(worst, abs(e))
                                err = f"{e:+.3f} %"
                        else:
                            exact[mode] = sim_us
                        print(f"{head} {wall:.2f} | {user:.2f} | {events:,} | {sim_us} | {busbw} | {ap_} | {err} |",
                              flush=True)
                    if len(set(exact.values())) > 1:
                        mismatches += 1
                        print(f"<!-- MISMATCH {8 * nodes} {op} {algo} {size}: {exact} -->", flush=True)
    print(f"\n{mismatches} point(s) where the exact modes' simulated times differ; largest extrapolation error"
          f" {worst:.3f} %.")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
