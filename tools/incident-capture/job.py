"""One rank of a small PyTorch job that goes wrong in a chosen way, for ccsim's incident readers.

Run by capture.sh, one process per GPU, with RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, CASE and
CASE_DIR in the environment. Every case runs a few iterations of all-reduces (plus an all-gather
and a broadcast, so the flight recorder holds several kinds of collective), then:
  healthy   - finishes; each rank dumps its flight recorder (pickle and JSON) at the end.
  skip      - rank 1 skips the conditional all-reduce of iteration 2 (the failure field guide's
              'unbalanced control flow'): rank 0's next collective never completes.
  mismatch  - rank 1 passes 1,048,000 elements where rank 0 passes 1,048,576 in iteration 2.
  sleep     - rank 1 sleeps 40 s (past the 20 s collective timeout) before iteration 2.
  ifname    - rank 1 runs with NCCL_SOCKET_IFNAME naming an interface the host lacks (set by
              capture.sh): its bootstrap finds no socket interface and its communicator init
              fails, while rank 0 waits in its own init (eager, device_id given).
In the hanging cases a timer thread dumps the flight recorder as JSON a few seconds before the
timeout, active entries only (onlyActive=True: what is still pending); the full pickle dumps are
the watchdog's own (TORCH_NCCL_DUMP_ON_TIMEOUT=1, files nccl_trace_rank_N) and, where a rank gets
there, the end-of-job dump fr_end_rankN.pkl.
"""
import os
import sys
import threading
import time
from datetime import timedelta

import torch
import torch.distributed as dist

TIMEOUT_S = 20


def dump_json(tag):
    path = os.path.join(os.environ["CASE_DIR"], f"fr_{tag}_rank{os.environ['RANK']}.json")
    try:
        data = torch._C._distributed_c10d._dump_nccl_trace_json(True, True)
    except Exception as e:  # noqa: BLE001 - record why, keep the job's failure mode intact
        data = '{"error": %r}' % str(e)
    with open(path, "w") as f:
        f.write(data if isinstance(data, str) else data.decode())


def dump_pickle(tag):
    path = os.path.join(os.environ["CASE_DIR"], f"fr_{tag}_rank{os.environ['RANK']}.pkl")
    try:
        data = torch._C._distributed_c10d._dump_nccl_trace(True, True, False)
    except Exception as e:  # noqa: BLE001
        path, data = path + ".error.txt", str(e).encode()
    with open(path, "wb") as f:
        f.write(data)


def main():
    case = os.environ["CASE"]
    rank = int(os.environ["RANK"])
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", timeout=timedelta(seconds=TIMEOUT_S),
                            device_id=torch.device("cuda", rank) if case == "ifname" else None)
    n = 1 << 20
    grad = torch.ones(n, device="cuda")
    if case in ("skip", "mismatch", "sleep"):
        threading.Timer(TIMEOUT_S - 4 + 8, dump_json, args=("hang",)).start()
    for it in range(4):
        dist.all_reduce(grad)
        if it == 2:
            if case == "skip":
                if rank != 1:
                    dist.all_reduce(grad)  # conditional on a rank-local value
            elif case == "mismatch":
                t = torch.ones(1_048_000 if rank == 1 else n, device="cuda")
                dist.all_reduce(t)
            elif case == "sleep" and rank == 1:
                time.sleep(40)
        out = torch.empty(n * dist.get_world_size(), device="cuda")
        dist.all_gather_into_tensor(out, grad)
        dist.broadcast(grad, src=0)
    torch.cuda.synchronize()
    dump_json("end")
    dump_pickle("end")
    dist.destroy_process_group()
    print(f"rank {rank}: {case} finished", flush=True)


if __name__ == "__main__":
    sys.exit(main())
