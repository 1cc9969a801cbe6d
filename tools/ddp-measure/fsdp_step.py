"""Measure a PyTorch FSDP (fully_shard, ZeRO-3) training step on this host's GPUs, with what a
simulator needs to predict it: each parameter's size and the time its gradient becomes ready in a
backward without communication, the forward time, and the FSDP iteration time.

Model: a stack of L MLP blocks (Linear d->4d, GELU, Linear 4d->d, with biases), fp32 weights,
TF32 matmuls, a batch of B tokens per rank, as ddp_buckets.py. One process per GPU
(torch.multiprocessing), NCCL backend, NVLink multicast off.
Usage: python3 fsdp_step.py OUT.json [L d B]

Method, per world size (all GPUs visible):
  1. compute only: the unsharded model on each rank, no communication; a CUDA event recorded by a
     post-accumulate-grad hook on every parameter gives each gradient's ready time relative to
     the event recorded just before backward; forward and backward times; medians over 20
     iterations after 5 warm-ups. Same keys as ddp_buckets.py, so `ccsim ddp --grads` reads it.
  2. FSDP2: fully_shard on every Linear (one unit per Linear: weight and bias), then on the root;
     reshard_after_forward=True (ZeRO-3), fp32 parameters and gradient reduction, PyTorch's
     default prefetching. 5 warm-ups, 30 timed iterations of forward + backward +
     torch.cuda.synchronize() after a barrier; median, p10, p90 (ms).
"""
import json
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.fsdp import fully_shard


def model(layers, d):
    blocks = []
    for _ in range(layers):
        blocks += [torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d)]
    return torch.nn.Sequential(*blocks)


def pct(xs, q):
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def worker(rank, world, out, layers, d, batch, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.manual_seed(0)
    net = model(layers, d).cuda()
    x = torch.randn(batch, d, device="cuda")
    params = list(net.parameters())
    result = {"world_size": world, "gpu": torch.cuda.get_device_name(rank), "torch": torch.__version__,
              "nccl": ".".join(map(str, torch.cuda.nccl.version())), "layers": layers, "d": d,
              "batch_tokens": batch, "dtype": "float32",
              "params": [{"name": n, "numel": p.numel(), "bytes": p.numel() * 4}
                         for n, p in net.named_parameters()]}

    # 1. compute only, gradient ready times
    ready = {}
    start = torch.cuda.Event(enable_timing=True)
    hooks = []
    for i, p in enumerate(params):
        def hook(_p, i=i):
            e = torch.cuda.Event(enable_timing=True); e.record(); ready[i] = e
        hooks.append(p.register_post_accumulate_grad_hook(hook))
    fwd, bwd, per_param = [], [], [[] for _ in params]
    for it in range(25):
        f0 = torch.cuda.Event(enable_timing=True); f0.record()
        loss = net(x).square().mean()
        start.record()
        loss.backward()
        end = torch.cuda.Event(enable_timing=True); end.record()
        torch.cuda.synchronize()
        if it >= 5:
            fwd.append(f0.elapsed_time(start)); bwd.append(start.elapsed_time(end))
            for i in range(len(params)):
                per_param[i].append(start.elapsed_time(ready[i]))
        net.zero_grad(set_to_none=True)
    for h in hooks:
        h.remove()
    result["forward_ms"] = pct(fwd, 0.5)
    result["backward_compute_ms"] = pct(bwd, 0.5)
    for i, p in enumerate(result["params"]):
        p["ready_ms"] = pct(per_param[i], 0.5)

    # 2. FSDP2, one unit per Linear
    for m in net:
        if isinstance(m, torch.nn.Linear):
            fully_shard(m)
    fully_shard(net)
    times = []
    for it in range(35):
        dist.barrier(); torch.cuda.synchronize()
        t0 = time.perf_counter()
        net(x).square().mean().backward()
        torch.cuda.synchronize()
        if it >= 5:
            times.append((time.perf_counter() - t0) * 1e3)
        net.zero_grad(set_to_none=True)
    result["fsdp"] = {"units": sum(isinstance(m, torch.nn.Linear) for m in net), "reshard_after_forward": True,
                      "iteration_ms_median": pct(times, 0.5), "iteration_ms_p10": pct(times, 0.1),
                      "iteration_ms_p90": pct(times, 0.9)}
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
    mp.spawn(worker, args=(world, out, layers, d, batch, 29600 + layers), nprocs=world)
