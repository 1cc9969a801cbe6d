"""Measure what the DDP what-if's model needs besides the iteration times of ddp_buckets.py, on this host's GPUs:

  1. an all-reduce alone (fp32 sum) at bucket sizes 1..208 MiB, CUDA-event time per call over 20 back-to-back calls;
  2. k TF32 matrix products of the measured MLP's shape (4096x1024 @ 1024x4096, k = size/16 MiB, at least 1) alone,
     and the same products on the default stream while that all-reduce runs on another stream ("both"): the compute
     speed left while an all-reduce runs is 1 - (both - products) / all-reduce;
  3. the host time of one dist.all_reduce call of 4 KiB (300 calls, no synchronization between them) and the GPU
     time per call of the same back to back;
  4. DDP's copy of a gradient into its bucket (torch.mul(grad, 1/world, out=bucket)) for 208 MiB.

One process per GPU (torch.multiprocessing), NCCL backend, NVLink multicast off; world sizes 4 then 2 (the first GPUs).
Rank 0 prints one line per measurement, prefixed with the world size. Usage: python3 ddp_overlap.py
"""
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def event():
    return torch.cuda.Event(enable_timing=True)


def worker(rank, world):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(29550 + world))
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    torch.backends.cuda.matmul.allow_tf32 = True

    def say(*a):
        if rank == 0:
            print(world, *a, flush=True)

    def per_call_ms(f, k=20):
        for _ in range(3):
            f()
        torch.cuda.synchronize()
        dist.barrier()
        a, b = event(), event()
        a.record()
        for _ in range(k):
            f()
        b.record()
        torch.cuda.synchronize()
        return round(a.elapsed_time(b) / k, 4)

    x = torch.ones(4096, 1024, device="cuda")
    y = torch.ones(1024, 4096, device="cuda")
    side = torch.cuda.Stream()
    for mb in (1, 4, 16, 32, 64, 112, 208):
        t = torch.ones(mb << 18, device="cuda")
        k = max(1, mb // 16)

        def products():
            return [x @ y for _ in range(k)]

        def both():
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):
                dist.all_reduce(t)
            products()
            torch.cuda.current_stream().wait_stream(side)

        say("MiB", mb, "ar", per_call_ms(lambda: dist.all_reduce(t)), "gemms", k, per_call_ms(products), "both", per_call_ms(both))
    t = torch.ones(1024, device="cuda")
    torch.cuda.synchronize()
    dist.barrier()
    c = time.perf_counter()
    for _ in range(300):
        dist.all_reduce(t)
    say("host_us_per_call", round((time.perf_counter() - c) / 300 * 1e6, 2))
    torch.cuda.synchronize()
    say("small_ar_gpu_ms", per_call_ms(lambda: dist.all_reduce(t), 300))
    grad = torch.ones(208 << 18, device="cuda")
    bucket = torch.empty_like(grad)
    say("copy208_ms", per_call_ms(lambda: torch.mul(grad, 0.25, out=bucket)))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    os.environ.setdefault("TORCH_SYMM_MEM_DISABLE_MULTICAST", "1")
    for n in (4, 2):
        mp.spawn(worker, args=(n,), nprocs=n)
