#!/usr/bin/env python3
"""Which protocol NCCL's point-to-point path picks by default, measured: all-to-all and send/recv timed with
NCCL's default, with LL everywhere (NCCL_P2P_LL_THRESHOLD large) and with Simple everywhere (threshold 0).

NCCL logs no algorithm/protocol line for p2p operations, so the default's protocol shows only in its time: where the
default row equals the LL row and not the Simple one, NCCL ran LL. NCCL reads NCCL_P2P_LL_THRESHOLD once per process
(an NCCL_PARAM), so each setting runs in processes of its own.

Usage (GPU host, PyTorch with NCCL):
    export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
    python3 tools/nccl-measure/p2p_protocol.py OUT.json [--n 4]

Writes one JSON row per (setting, op, bytes): setting (default, LL, Simple), op, n, bytes (nccl-tests' size: the
total per rank for all_to_all, the buffer for sendrecv), time_us (CUDA-graph replay of K calls, median of R replays
per call, mean over ranks as nccl-tests does).
"""
import json
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

# run in this order; the first default run also warms the GPUs (its times, "default-first", come out slower)
SETTINGS = {"default-first": None, "LL": str(1 << 40), "Simple": "0", "default": None}
SIZES = [1 << k for k in range(15, 26)]  # 32 KiB .. 32 MiB


def timed(fn, iters_per_graph=10, replays=20):
    fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        for _ in range(iters_per_graph):
            fn()
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) * 1000.0 / iters_per_graph)
    times.sort()
    return times[len(times) // 2]


def worker(rank, n, setting, out_path):
    value = SETTINGS[setting]
    if value is not None:
        os.environ["NCCL_P2P_LL_THRESHOLD"] = value
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=n, device_id=torch.device("cuda", rank))
    rows = []
    for nbytes in SIZES:
        count = nbytes // 4
        x = torch.full((count,), float(rank), device="cuda")
        y = torch.empty_like(x)
        t = timed(lambda: dist.all_to_all_single(y, x))
        rows.append(("all_to_all", nbytes, t))
        send_to, recv_from = (rank + 1) % n, (rank - 1) % n

        def sendrecv():
            reqs = dist.batch_isend_irecv([dist.P2POp(dist.isend, x, send_to), dist.P2POp(dist.irecv, y, recv_from)])
            for r in reqs:
                r.wait()
        t = timed(sendrecv)
        rows.append(("sendrecv", nbytes, t))
    gathered = [None] * n
    dist.all_gather_object(gathered, rows)
    if rank == 0:
        with open(out_path, "a") as f:
            for i, (op, nbytes, _) in enumerate(rows):
                mean = sum(r[i][2] for r in gathered) / n
                f.write(json.dumps({"setting": setting, "op": op, "n": n, "bytes": nbytes, "time_us": round(mean, 2)})
                        + "\n")
    dist.destroy_process_group()


def main():
    out = sys.argv[1]
    n = int(sys.argv[sys.argv.index("--n") + 1]) if "--n" in sys.argv else torch.cuda.device_count()
    for k in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS"):
        if k not in os.environ:
            sys.exit(f"set {k} (NVLink multicast stays off on shared hosts)")
    open(out, "w").close()
    for i, setting in enumerate(SETTINGS):
        os.environ["MASTER_PORT"] = str(29533 + i)
        mp.spawn(worker, args=(n, setting, out), nprocs=n, join=True)
        print(f"{setting}: done", flush=True)


if __name__ == "__main__":
    main()
