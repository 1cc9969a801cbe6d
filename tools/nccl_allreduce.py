#!/usr/bin/env python3
"""NCCL's all-reduce busbw through PyTorch, for the >= 85 % comparison with ccsim's kernels.

One process drives all GPUs with torch.cuda.nccl.all_reduce (ncclCommInitAll + a grouped ncclAllReduce),
float32 sum, timed with CUDA events on every device after warm-up; busbw = size/time * 2(n-1)/n
(nccl-tests doc/PERFORMANCE.md). Run with NCCL_NVLS_ENABLE=0 (never NVLink multicast on shared hosts).
Usage: nccl_allreduce.py OUT.json [size_bytes ...]
"""
import json, os, sys, time
import torch
import torch.cuda.nccl as nccl

assert os.environ.get("NCCL_NVLS_ENABLE") == "0", "set NCCL_NVLS_ENABLE=0"
out = sys.argv[1]
sizes = [int(s) for s in sys.argv[2:]] or [512 << 20]
n = torch.cuda.device_count()
rows = []
for size in sizes:
    count = size // 4
    xs = [torch.full((count,), 1.0 + d, dtype=torch.float32, device=f"cuda:{d}") for d in range(n)]
    for _ in range(5):
        nccl.all_reduce(xs)
    for d in range(n):
        torch.cuda.synchronize(d)
    iters = 20
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for d in range(n):
        with torch.cuda.device(d):
            starts[d].record(torch.cuda.current_stream(d))
    t0 = time.perf_counter()
    for _ in range(iters):
        nccl.all_reduce(xs)
    for d in range(n):
        with torch.cuda.device(d):
            ends[d].record(torch.cuda.current_stream(d))
    for d in range(n):
        torch.cuda.synchronize(d)
    wall_us = (time.perf_counter() - t0) / iters * 1e6
    us = max(starts[d].elapsed_time(ends[d]) for d in range(n)) * 1000.0 / iters
    algbw = size / (us * 1e-6) / 1e9
    row = {"op": "all_reduce", "bytes": size, "dtype": "float32", "n": n, "time_us": us, "wall_us": wall_us,
           "algbw_gbps": algbw, "busbw_gbps": algbw * 2 * (n - 1) / n,
           "nccl_version": ".".join(map(str, torch.cuda.nccl.version())), "torch": torch.__version__}
    print(json.dumps(row), flush=True)
    rows.append(row)
json.dump(rows, open(out, "w"), indent=1)
