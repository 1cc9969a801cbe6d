"""Measure PyTorch DDP iteration time against bucket_cap_mb on this host's GPUs, with what a
simulator needs to predict it: each parameter's size and the time its gradient becomes ready in
backward (no communication), the forward time, and the iteration time for each bucket cap.

Model: a stack of L MLP blocks (Linear d->4d, GELU, Linear 4d->d, with biases), fp32 weights,
TF32 matmuls, a batch of B tokens. One process per GPU (torch.multiprocessing), NCCL backend,
NVLink multicast off. Usage: python3 ddp_buckets.py OUT.json [L d B]

Method, per world size (all GPUs):
  1. compute-only: DDP with no_sync() (no all-reduce), a CUDA event recorded by a
     post-accumulate-grad hook on every parameter: ready time of each gradient relative to the
     event recorded just before backward; median over 20 iterations after 5 warm-ups.
  2. for each bucket_cap_mb: a fresh DDP wrapper (first bucket 1 MiB, DDP's default), 5 warm-ups,
     30 timed iterations of forward + backward + torch.cuda.synchronize(); median, p10, p90 (ms);
     the bucket sizes DDP built (_get_ddp_logging_data()['bucket_sizes']).
  3. all-reduce alone of each bucket-size class is not measured here: ccsim's model predicts it.
"""
import json
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

CAPS = [1, 2, 5, 10, 25, 50, 100, 200]


def model(layers, d):
    blocks = []
    for _ in range(layers):
        blocks += [torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d)]
    return torch.nn.Sequential(*blocks)


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def worker(rank, world, out, layers, d, batch):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29533")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.manual_seed(0)
    net = model(layers, d).cuda()
    x = torch.randn(batch, d, device="cuda")
    params = [p for p in net.parameters()]
    result = {"world_size": world, "gpu": torch.cuda.get_device_name(rank), "torch": torch.__version__,
              "nccl": ".".join(map(str, torch.cuda.nccl.version())), "layers": layers, "d": d,
              "batch_tokens": batch, "dtype": "float32",
              "params": [{"name": n, "numel": p.numel(), "bytes": p.numel() * 4}
                         for n, p in net.named_parameters()]}

    # 1. compute only, gradient ready times
    ddp = DDP(net, device_ids=[rank])
    ready = {}
    start = torch.cuda.Event(enable_timing=True)
    hooks = []
    for i, p in enumerate(params):
        def hook(_p, i=i):
            e = torch.cuda.Event(enable_timing=True); e.record(); ready[i] = e
        hooks.append(p.register_post_accumulate_grad_hook(hook))
    fwd, bwd, per_param = [], [], [[] for _ in params]
    for it in range(25):
        with ddp.no_sync():
            f0 = torch.cuda.Event(enable_timing=True); f0.record()
            loss = ddp(x).square().mean()
            start.record()
            loss.backward()
            end = torch.cuda.Event(enable_timing=True); end.record()
        torch.cuda.synchronize()
        if it >= 5:
            fwd.append(f0.elapsed_time(start)); bwd.append(start.elapsed_time(end))
            for i in range(len(params)):
                per_param[i].append(start.elapsed_time(ready[i]))
        ddp.zero_grad(set_to_none=True)
    for h in hooks:
        h.remove()
    result["forward_ms"] = pct(fwd, 0.5)
    result["backward_compute_ms"] = pct(bwd, 0.5)
    for i, p in enumerate(result["params"]):
        p["ready_ms"] = pct(per_param[i], 0.5)
    del ddp

    # 2. iteration time per bucket cap
    result["runs"] = []
    for cap in CAPS:
        ddp = DDP(net, device_ids=[rank], bucket_cap_mb=cap)
        times = []
        for it in range(35):
            dist.barrier(); torch.cuda.synchronize()
            t0 = time.perf_counter()
            ddp(x).square().mean().backward()
            torch.cuda.synchronize()
            if it >= 5:
                times.append((time.perf_counter() - t0) * 1e3)
            ddp.zero_grad(set_to_none=True)
        data = ddp._get_ddp_logging_data()
        result["runs"].append({"bucket_cap_mb": cap, "iteration_ms_median": pct(times, 0.5),
                               "iteration_ms_p10": pct(times, 0.1), "iteration_ms_p90": pct(times, 0.9),
                               "bucket_sizes": data.get("bucket_sizes"),
                               "num_buckets": len(str(data.get("bucket_sizes", "")).split(","))})
        del ddp
    if rank == 0:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
    dist.destroy_process_group()


if __name__ == "__main__":
    out = sys.argv[1]
    layers, d, batch = (int(a) for a in (sys.argv[2:5] if len(sys.argv) >= 5 else (12, 2048, 8192)))
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")
    world = torch.cuda.device_count()
    mp.spawn(worker, args=(world, out, layers, d, batch), nprocs=world)
