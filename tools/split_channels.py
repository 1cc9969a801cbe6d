#!/usr/bin/env python3
"""Splits experiments/h200x4-channels/channels.json (experiments/run.sh, step channels:N:OPS) into two files `ccsim validate` reads:
ccsim-perf.json (ccsim's kernels, `perf --backend cuda --format json` rows as printed) and nccl-perf.json (NCCL's
all-reduce rows in the same format, with the forced algorithm, protocol and channel count).
Usage: split_channels.py DIR"""
import json, sys

d = sys.argv[1]
rows = json.load(open(d + "/channels.json"))
keys = ["op", "bytes", "count", "dtype", "redop", "root", "algo", "proto", "channels", "time_us", "algbw_gbps", "busbw_gbps"]
ccsim = [{k: r[k] for k in keys} for r in rows if r["source"] == "ccsim"]
nccl = [{"op": r["op"], "bytes": r["bytes"], "count": r["bytes"] // 4, "dtype": "float", "redop": "sum", "root": -1,
         "algo": "Ring", "proto": r["proto_forced"], "channels": r["channels_forced"], "n": r["n"],
         "time_us": round(r["time_us"], 3), "algbw_gbps": round(r["algbw_gbps"], 3), "busbw_gbps": round(r["busbw_gbps"], 3)}
        for r in rows if r["source"] == "nccl"]
for name, rs in (("ccsim-perf.json", ccsim), ("nccl-perf.json", nccl)):
    with open(d + "/" + name, "w") as f:
        json.dump(rs, f, indent=1)
        f.write("\n")
    print(name, len(rs), "rows")
