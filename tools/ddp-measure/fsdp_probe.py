"""Where an FSDP2 step's time goes (host or GPU): for one model shape, per iteration, the wall time
of forward and of backward (each ended by torch.cuda.synchronize()) and the process CPU time of the
whole step, with reshard_after_forward True and False; then a torch.profiler table of one step.
Usage: python3 fsdp_probe.py OUTDIR L d B"""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed.fsdp import fully_shard


def worker(rank, world, outdir, layers, d, batch):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29650")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=torch.device("cuda", rank))
    torch.backends.cuda.matmul.allow_tf32 = True
    lines = []
    for reshard in (True, False):
        torch.manual_seed(0)
        blocks = []
        for _ in range(layers):
            blocks += [torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d)]
        net = torch.nn.Sequential(*blocks).cuda()
        for m in net:
            if isinstance(m, torch.nn.Linear):
                fully_shard(m, reshard_after_forward=reshard)
        fully_shard(net, reshard_after_forward=reshard)
        x = torch.randn(batch, d, device="cuda")
        rows = []
        for it in range(25):
            dist.barrier(); torch.cuda.synchronize()
            c0 = time.process_time(); t0 = time.perf_counter()
            loss = net(x).square().mean()
            t1 = time.perf_counter()
            torch.cuda.synchronize(); t2 = time.perf_counter()
            loss.backward()
            t3 = time.perf_counter()
            torch.cuda.synchronize(); t4 = time.perf_counter(); c1 = time.process_time()
            net.zero_grad(set_to_none=True)
            if it >= 5:
                rows.append(((t1 - t0) * 1e3, (t2 - t0) * 1e3, (t3 - t2) * 1e3, (t4 - t2) * 1e3, (c1 - c0) * 1e3))
        rows.sort(key=lambda r: r[1] + r[3])
        med = rows[len(rows) // 2]
        lines.append("reshard_after_forward=%s median step: forward host %.2f ms, forward done %.2f ms, backward host %.2f ms,"
                     " backward done %.2f ms, CPU time %.2f ms" % ((reshard,) + med))
        if reshard:
            from torch.profiler import profile, ProfilerActivity
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                net(x).square().mean().backward()
                torch.cuda.synchronize()
            table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=25)
            if rank == 0:
                with open(os.path.join(outdir, "profile-L%d-n%d.txt" % (layers, world)), "w") as f:
                    f.write(table)
        del net
    if rank == 0:
        with open(os.path.join(outdir, "probe-L%d-n%d.txt" % (layers, world)), "w") as f:
            f.write("\n".join(lines) + "\n")
    dist.destroy_process_group()


if __name__ == "__main__":
    outdir = sys.argv[1]
    layers, d, batch = (int(a) for a in sys.argv[2:5])
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    mp.spawn(worker, args=(torch.cuda.device_count(), outdir, layers, d, batch), nprocs=torch.cuda.device_count())
