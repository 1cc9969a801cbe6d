#!/usr/bin/env python3
"""The scale goals, measured: each case of the scale targets as whole `ccsim perf` processes (JVM start included) on
HGX H100 clusters, the median wall time of --repeat runs against its goal, with user CPU, peak RSS, events, the
simulated time and the mode the run printed. With --check-full, each case whose goal asks for the full simulation's
answer is also run with --sim-mode full once, and the two simulated times compared (they must be equal).

Usage: scale_goals.py [--repeat 3] [--only SUBSTRING] [--check-full] [--timeout-s 900] [--ccsim ./ccsim]

A case: (name, goal in s wall, environment, perf arguments, whether the answer must equal --sim-mode full).
"""
import argparse
import os
import re
import tempfile
import statistics
import subprocess
import sys
import time

CABLE = "n5.nic3~leaf.r3.0=0.1"  # host n5's NIC 3 to its rail-3 leaf at 1/10 of its rate
GIB = ["-b", "1G", "-e", "1G"]
CASES = [
    ("1,024 GPUs all_reduce Ring", 2, {"NCCL_ALGO": "Ring"}, ["--nodes", "128", "--op", "all_reduce"] + GIB, True),
    ("1,024 GPUs all_reduce default", 2, {}, ["--nodes", "128", "--op", "all_reduce"] + GIB, True),
    ("1,024 GPUs all_reduce Tree", 2, {"NCCL_ALGO": "Tree"}, ["--nodes", "128", "--op", "all_reduce"] + GIB, True),
    ("1,024 GPUs all_gather default", 2, {}, ["--nodes", "128", "--op", "all_gather"] + GIB, True),
    ("1,024 GPUs reduce_scatter default", 2, {}, ["--nodes", "128", "--op", "reduce_scatter"] + GIB, True),
    ("1,024 GPUs broadcast default", 2, {}, ["--nodes", "128", "--op", "broadcast"] + GIB, True),
    ("1,024 GPUs all_reduce NVLSTree 256M", 2, {"NCCL_ALGO": "NVLSTree"},
     ["--nodes", "128", "--op", "all_reduce", "-b", "256M", "-e", "256M"], True),
    ("1,024 x 1 GPU all_gather default (PAT)", 2, {}, ["--gpus", "1", "--nodes", "1024", "--op", "all_gather"] + GIB,
     True),
    ("8,192 GPUs all_reduce Ring", 20, {"NCCL_ALGO": "Ring"}, ["--nodes", "1024", "--op", "all_reduce"] + GIB, False),
    ("8,192 GPUs all_reduce default, folded", 20, {},
     ["--nodes", "1024", "--op", "all_reduce", "--sim-mode", "folded"] + GIB, False),
    ("8,192 GPUs all_reduce default, extrapolated", 20, {},
     ["--nodes", "1024", "--op", "all_reduce", "--sim-mode", "extrapolated"] + GIB, False),
    ("8,192 GPUs all_reduce Tree", 20, {"NCCL_ALGO": "Tree"}, ["--nodes", "1024", "--op", "all_reduce"] + GIB, False),
    ("100,000 GPUs all_gather default", 60, {}, ["--nodes", "12500", "--op", "all_gather"] + GIB, False),
    ("100,000 GPUs reduce_scatter default", 60, {}, ["--nodes", "12500", "--op", "reduce_scatter"] + GIB, False),
    ("100,000 GPUs all_reduce default, extrapolated", 60, {},
     ["--nodes", "12500", "--op", "all_reduce", "--sim-mode", "extrapolated"] + GIB, False),
    ("100,000 GPUs broadcast default, auto", 60, {}, ["--nodes", "12500", "--op", "broadcast", "--sim-mode", "auto"] + GIB,
     False),
    ("100,000 GPUs reduce default, auto", 60, {}, ["--nodes", "12500", "--op", "reduce", "--sim-mode", "auto"] + GIB, False),
    ("8,192 GPUs all_to_all default, extrapolated", 20, {},
     ["--nodes", "1024", "--op", "all_to_all", "--sim-mode", "extrapolated"] + GIB, False),
    ("100,000 GPUs all_to_all default, extrapolated", 60, {},
     ["--nodes", "12500", "--op", "all_to_all", "--sim-mode", "extrapolated"] + GIB, False),
    ("1,024 GPUs, one cable at 1/10, all_reduce Ring", 10, {"NCCL_ALGO": "Ring"},
     ["--nodes", "128", "--op", "all_reduce", "--degrade", CABLE] + GIB, True),
    ("1,024 GPUs, one cable at 1/10, all_reduce default", 10, {},
     ["--nodes", "128", "--op", "all_reduce", "--degrade", CABLE] + GIB, True),
    ("1,024 GPUs, one cable at 1/10, all_reduce Tree", 10, {"NCCL_ALGO": "Tree"},
     ["--nodes", "128", "--op", "all_reduce", "--degrade", CABLE] + GIB, True),
]


def run(a, env_add, args):
    """One process: dict(wall, user, rss_mb, events, us, choice, mode) or a string saying why not."""
    env = dict(os.environ)
    env.update(env_add)
    rss_file = os.path.join(tempfile.gettempdir(), f"scale_goals_rss_{os.getpid()}")
    cmd = ["/usr/bin/time", "-f", "%M", "-o", rss_file, a.ccsim, "perf", "--topology", "hgx-h100"] + args
    before = os.times()
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=a.timeout_s)
    except subprocess.TimeoutExpired:
        return f"> {a.timeout_s:.0f} s"
    wall = time.monotonic() - t0
    user = os.times().children_user - before.children_user
    with open(rss_file) as fh:
        rss_mb = int(fh.read().split()[-1]) / 1024  # GNU time's %M: the process's peak resident set, KiB
    rows = [l for l in p.stdout.splitlines() if l and not l.startswith("#")]
    ev = re.search(r"(\d+) events", p.stdout)
    mode = mode_of(p.stdout)
    if p.returncode != 0 or not rows or not ev:
        return "failed: " + " ".join((p.stderr.strip() or p.stdout.strip()).splitlines()[-2:-1])
    f = rows[-1].split()
    return {"wall": wall, "user": user, "rss_mb": rss_mb, "events": int(ev.group(1)), "us": f[5],
            "choice": f[8] + "/" + f[9], "mode": mode}


def mode_of(out):
    """The mode a perf output printed, short: folded k/n workers, full, or extrapolated (samples)."""
    m = re.search(r"# mode: folded \(exact\): (\d+) of (\d+) workers", out)
    if m:
        return f"folded, {int(m.group(1)):,} of {int(m.group(2)):,} workers"
    m = re.search(r"# mode: folded \(exact\): no two of the (\d+) workers", out)
    if m:
        return f"folded, none of {int(m.group(1)):,} workers alike"
    if "# mode: full" in out:
        return "full"
    m = re.search(r"simulated on ([\d, ]+) nodes", out)
    return f"extrapolated from {m.group(1)} nodes" if m else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--check-full", action="store_true")
    ap.add_argument("--timeout-s", type=float, default=900)
    ap.add_argument("--ccsim", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ccsim"))
    a = ap.parse_args()
    subprocess.run([a.ccsim, "--version"], capture_output=True)  # build first, outside the timings
    print("| case | goal s | wall s (median) | user s | peak RSS MB | events | simulated µs | algo/proto | met |"
          " full µs | mode |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    missed = 0
    for name, goal, env, args, exact in CASES:
        if a.only and a.only not in name:
            continue
        runs = []
        why = None
        for _ in range(a.repeat):
            r = run(a, env, args)
            if isinstance(r, str):
                why = r
                break
            runs.append(r)
            if r["wall"] > 3 * goal:
                break  # far beyond the goal: one run says enough
        if why:
            print(f"| {name} | {goal} | {why} | | | | | | no | | |", flush=True)
            missed += 1
            continue
        wall = statistics.median(r["wall"] for r in runs)
        r = runs[0]
        full = ""
        if a.check_full and exact:
            fr = run(a, env, args + ["--sim-mode", "full"])
            full = fr if isinstance(fr, str) else fr["us"] + ("" if fr["us"] == r["us"] else " (DIFFERS)")
        met = wall <= goal
        missed += 0 if met else 1
        print(f"| {name} | {goal} | {wall:.2f} ({len(runs)} runs) | {statistics.median(x['user'] for x in runs):.2f} |"
              f" {r['rss_mb']:.0f} | {r['events']:,} | {r['us']} | {r['choice']} | {'yes' if met else 'no'} | {full} |"
              f" {r['mode']} |", flush=True)
    print(f"\n{missed} case(s) missed their goal.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
