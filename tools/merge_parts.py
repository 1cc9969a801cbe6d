#!/usr/bin/env python3
"""Merges the per-run JSON files of a channel sweep (experiments/run.sh, step channels:N:OPS) into one array on stdout.
A file named SOURCE-CHANNELS-PROTO[-OP].json holds rows as `perf --format json` (or nccl_allreduce.py) printed them;
each row gets "source", "channels_forced" and "proto_forced" from the name. Usage: merge_parts.py DIR > channels.json"""
import glob, json, os, sys

rows = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    base = os.path.basename(f)[:-5].split("-")
    try:
        data = json.load(open(f))
    except ValueError as e:
        print("skipped %s: %s" % (f, e), file=sys.stderr); continue
    for r in data:
        r["source"] = base[0]
        r["channels_forced"] = int(base[1])
        r["proto_forced"] = base[2]
        rows.append(r)
print(json.dumps(rows, indent=1))
