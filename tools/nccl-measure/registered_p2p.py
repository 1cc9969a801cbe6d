#!/usr/bin/env python3
"""NCCL's registered point-to-point buffers across processes: PyTorch's send/recv (batch_isend_irecv, rank r to r+1)
and all_to_all_single, one process a GPU, with buffers from PyTorch's caching allocator and with buffers from NCCL's
allocator registered with the communicator (torch.cuda.MemPool(backend.mem_allocator), backend.register_mem_pool:
ncclMemAlloc + ncclCommRegister), timed eager (20 calls between CUDA events) and captured in a CUDA graph (K calls a
graph, median of R replays / K). Answers whether NCCL's registered path (src/enqueue.cc addP2pToPlan, which
experiments/nccl-tests-h200x4 measured in one process) also applies across processes, and with which buffers.

Usage (GPU host with PyTorch):  python3 tools/nccl-measure/registered_p2p.py OUT [N]   (default N: 4)
OUT receives rows.jsonl (one row per point: op, bytes, buffers, timing, time_us = mean over ranks of each rank's
time), nccl-debug-r0.txt (rank 0's NCCL_DEBUG=INFO, subsystems INIT,P2P,REG) and a summary table on stdout.
NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
"""
import json
import os
import statistics
import sys

SIZES = [1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20]
OPS = ["sendrecv", "all_to_all"]
MODES = [("caching", "eager"), ("nccl_pool", "eager"), ("caching", "graph"), ("nccl_pool", "graph")]


def worker(rank, n, out):
    import faulthandler
    import torch
    import torch.distributed as dist
    faulthandler.dump_traceback_later(100, exit=True)  # a hung call: every thread's stack, then exit
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = "29611"
    os.environ["NCCL_DEBUG"] = "INFO"
    os.environ["NCCL_DEBUG_SUBSYS"] = "INIT,P2P,REG"
    os.environ["NCCL_DEBUG_FILE"] = os.path.join(out, f"nccl-debug-r{rank}.txt")
    dev = torch.device("cuda", rank)
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", rank=rank, world_size=n, device_id=dev)
    world = dist.group.WORLD
    backend = world._get_backend(dev)
    top = max(SIZES) // 4
    bufs = {"caching": (torch.empty(top, device=dev), torch.empty(top, device=dev))}
    pool = torch.cuda.MemPool(backend.mem_allocator)
    with torch.cuda.use_mem_pool(pool):
        bufs["nccl_pool"] = (torch.empty(top, device=dev), torch.empty(top, device=dev))
    backend.register_mem_pool(pool)
    rows = open(os.path.join(out, "rows.jsonl"), "a") if rank == 0 else None

    def make(op, nbytes, which):
        x, o = bufs[which][0][:nbytes // 4], bufs[which][1][:nbytes // 4]
        if op == "all_to_all":
            return lambda: dist.all_to_all_single(o, x, group=world)

        def sr():
            ops = [dist.P2POp(dist.isend, x, (rank + 1) % n, world), dist.P2POp(dist.irecv, o, (rank - 1) % n, world)]
            for w in dist.batch_isend_irecv(ops):
                w.wait()
        return sr

    def check(op, nbytes, which, fn):
        x, o = bufs[which][0][:nbytes // 4], bufs[which][1][:nbytes // 4]
        if op == "all_to_all":
            blk = x.numel() // n
            x.view(n, blk).copy_((rank * 1000 + torch.arange(n, device=dev, dtype=torch.float32)).view(n, 1).expand(n, blk))
            exp = (torch.arange(n, device=dev, dtype=torch.float32) * 1000 + rank).repeat_interleave(blk)
        else:
            x.fill_(rank + 1)
            exp = torch.full_like(o, float((rank - 1) % n + 1))
        o.fill_(-1)
        fn()
        torch.cuda.synchronize()
        return bool(torch.equal(o, exp))

    def eager(fn, iters=20):
        for _ in range(3):
            fn()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        dist.barrier(group=world, device_ids=[rank])
        torch.cuda.synchronize()
        s.record()
        for _ in range(iters):
            fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) * 1e3 / iters

    def graphed(fn, t_est):
        k = int(min(20, max(1, round(1500 / max(t_est, 1e-3)))))
        r = int(min(40, max(5, round(25000 / max(k * t_est, 1e-3)))))
        g = torch.cuda.CUDAGraph()
        st = torch.cuda.Stream(device=dev)
        st.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(st):
            fn()
        torch.cuda.current_stream().wait_stream(st)
        torch.cuda.synchronize()
        with torch.cuda.graph(g):
            for _ in range(k):
                fn()
        for _ in range(3):
            g.replay()
        torch.cuda.synchronize()
        dist.barrier(group=world, device_ids=[rank])
        torch.cuda.synchronize()
        evs = [torch.cuda.Event(enable_timing=True) for _ in range(r + 1)]
        evs[0].record()
        for i in range(r):
            g.replay()
            evs[i + 1].record()
        evs[-1].synchronize()
        return statistics.median(evs[i].elapsed_time(evs[i + 1]) * 1e3 / k for i in range(r))

    for which, timing in MODES:
        for op in OPS:
            for nbytes in SIZES:
                if rank == 0:
                    print(f"# {op} {which} {timing} {nbytes}: start", flush=True)
                fn = make(op, nbytes, which)
                ok = check(op, nbytes, which, fn)
                t = eager(fn)
                if timing == "graph":
                    t = graphed(fn, t)
                v = torch.tensor([t, 0.0 if ok else 1.0], dtype=torch.float64, device=dev)
                allv = [torch.zeros_like(v) for _ in range(n)]
                dist.all_gather(allv, v, group=world)
                if rank == 0:
                    ts = [a[0].item() for a in allv]
                    row = {"op": op, "n": n, "bytes": nbytes, "buffers": which, "timing": timing,
                           "time_us": statistics.mean(ts), "time_us_max_rank": max(ts),
                           "correct": all(a[1].item() == 0 for a in allv)}
                    rows.write(json.dumps(row) + "\n")
                    rows.flush()
                    print(f"{op:10s} {which:9s} {timing:5s} {nbytes:>10d} {row['time_us']:9.2f} us"
                          f" {'ok' if row['correct'] else 'WRONG'}", flush=True)
    dist.destroy_process_group()


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    if os.environ.get("NCCL_NVLS_ENABLE") != "0":
        sys.exit("set NCCL_NVLS_ENABLE=0: NVLink multicast stays off on shared hosts")
    os.makedirs(out, exist_ok=True)
    import torch.multiprocessing as mp
    mp.spawn(worker, args=(n, out), nprocs=n, join=True)


if __name__ == "__main__":
    main()
