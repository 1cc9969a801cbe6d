#!/usr/bin/env python3
"""Measure NCCL collectives through PyTorch's NCCL backend, nccl-tests style, for ccsim calibration.

One process per GPU (torch.multiprocessing spawn), backend nccl with eager init (device_id given),
float32, sum. Every (op, size) point is timed by CUDA-graph replay: K back-to-back collectives are
captured in one torch.cuda.CUDAGraph, warmed up, then replayed R times, each replay bracketed by CUDA
events; time per op = median over replays / K. Size, count, algbw and busbw follow nccl-tests
(src/common.cu, doc/PERFORMANCE.md of NVIDIA/nccl-tests):
  size (bytes column): all_reduce/broadcast/reduce/sendrecv: buffer bytes; all_gather: output (total)
  bytes; reduce_scatter: input (total) bytes; all_to_all: total bytes per rank.
  count: elements of the per-rank "param count" nccl-tests prints (bytes/4, or bytes/4/n for
  all_gather, reduce_scatter and all_to_all).
  algbw = bytes / time; busbw = algbw * factor, factor all_reduce 2(n-1)/n, all_gather,
  reduce_scatter, all_to_all (n-1)/n, others 1.

Modes: "default" (NCCL's own tuning) and forced NCCL_ALGO x NCCL_PROTO. NCCL reads NCCL_ALGO and
NCCL_PROTO in ncclTopoTuneModel at each communicator's init (src/graph/tuning.cc, NCCL 2.2x/2.30),
so each mode sets them in os.environ right before dist.new_group creates that mode's communicator.
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING,ENV writes (rank 0 only, src/enqueue.cc) one line per
enqueued collective "<Func>: <bytes> Bytes -> Algo <A> proto <P> channel{Lo..Hi}={lo..hi}" to
NCCL_DEBUG_FILE (flushed per line, src/debug.cc); the byte offsets of that file before and after each
point attribute those lines to the point.

NVLink multicast (NVLS) must stay off: this script refuses to run unless NCCL_NVLS_ENABLE=0,
TORCH_SYMM_MEM_DISABLE_MULTICAST=1 and NVSHMEM_DISABLE_NVLS=1 are set in the environment.

Usage: python3 measure.py --out DIR [--ns 4,2] [--budget-s 420] [--probe]
Results: DIR/rows-n<N>.jsonl (one JSON row per point, written as it goes), DIR/nccl-debug-n<N>-r0.txt,
DIR/p2p.json, DIR/sysinfo.json; then `python3 measure.py --assemble DIR --dest experiments/nccl-h200`
builds the committed fixtures.
"""
import argparse
import collections
import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

FLOAT_BYTES = 4
COLL_OPS = ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce"]
P2P_OPS = ["all_to_all", "sendrecv"]
ALL_OPS = COLL_OPS + P2P_OPS
NCCL_FUNC = {"all_reduce": "AllReduce", "all_gather": "AllGather", "reduce_scatter": "ReduceScatter",
             "broadcast": "Broadcast", "reduce": "Reduce"}
# (name, NCCL_ALGO, NCCL_PROTO, ops measured in that mode)
MODES = [("default", None, None, ALL_OPS)] + \
        [("Ring/" + p, "Ring", p, COLL_OPS) for p in ("LL", "LL128", "Simple")] + \
        [("Tree/" + p, "Tree", p, ["all_reduce"]) for p in ("LL", "LL128", "Simple")]
REQUIRED_ENV = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NVSHMEM_DISABLE_NVLS": "1"}
TUNE_RE = re.compile(r"NCCL INFO (\w+): (\d+) Bytes -> Algo (\w+) proto (\w+) channel\{Lo\.\.Hi\}=\{(\d+)\.\.(\d+)\}")


def busbw_factor(op, n):
    """nccl-tests bus-bandwidth factor (doc/PERFORMANCE.md)."""
    if op == "all_reduce":
        return 2.0 * (n - 1) / n
    if op in ("all_gather", "reduce_scatter", "all_to_all"):
        return (n - 1) / n
    return 1.0


def per_rank_divided(op):
    return op in ("all_gather", "reduce_scatter", "all_to_all")


def valid_size(op, n, nbytes):
    """True when nbytes (nccl-tests size) gives a whole, non-zero float count for op at n ranks."""
    unit = FLOAT_BYTES * (n if per_rank_divided(op) else 1)
    return nbytes >= unit and nbytes % unit == 0


def param_count(op, n, nbytes):
    """The count nccl-tests prints: per-rank param count in elements."""
    return nbytes // FLOAT_BYTES // (n if per_rank_divided(op) else 1)


def size_passes(min_exp, max_exp):
    """Pass 1: sizes 2^min_exp * 4^k up to 2^max_exp (max always included); pass 2: the in-between powers of 2."""
    p1 = list(range(min_exp, max_exp + 1, 2))
    if p1[-1] != max_exp:
        p1.append(max_exp)
    p2 = [e for e in range(min_exp, max_exp + 1) if e not in p1]
    return [[1 << e for e in p1], [1 << e for e in p2]]


def parse_tuning(text):
    """Parse NCCL TUNING lines into (func, bytes, algo, proto, chLo, chHi) tuples."""
    return [(m.group(1), int(m.group(2)), m.group(3), m.group(4), int(m.group(5)), int(m.group(6)))
            for m in TUNE_RE.finditer(text)]


def summarize_choice(lines, func):
    """Most frequent (algo, proto, nChannels) among lines for func, or (None, None, None)."""
    c = collections.Counter((a, p, hi - lo + 1) for f, _, a, p, lo, hi in lines if f == func)
    if not c:
        return None, None, None
    (a, p, ch), _ = c.most_common(1)[0]
    return a, p, ch


def check_env():
    bad = {k: os.environ.get(k) for k, v in REQUIRED_ENV.items() if os.environ.get(k) != v}
    if bad:
        raise SystemExit("refusing to run: NVLink multicast must be off; set " +
                         " ".join(f"{k}={v}" for k, v in REQUIRED_ENV.items()) + f" (found {bad})")


# ----------------------------------------------------------------------------------------------
# worker (one process per GPU)
# ----------------------------------------------------------------------------------------------

def worker(rank, n, cfg):
    import torch
    import torch.distributed as dist
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(cfg["port"] + n)
    os.environ["NCCL_DEBUG"] = "INFO"
    os.environ["NCCL_DEBUG_SUBSYS"] = "INIT,TUNING,ENV,GRAPH"
    logpath = os.path.join(cfg["out"], f"nccl-debug-n{n}-r{rank}.txt")
    os.environ["NCCL_DEBUG_FILE"] = logpath
    for k in ("NCCL_ALGO", "NCCL_PROTO"):
        os.environ.pop(k, None)
    dev = torch.device("cuda", rank)
    torch.cuda.set_device(dev)
    dist.init_process_group("nccl", rank=rank, world_size=n, device_id=dev)
    t_start = time.time()
    deadline = t_start + cfg["budget_s"]
    max_bytes = 1 << cfg["max_exp"]
    inb = torch.empty(max_bytes // FLOAT_BYTES, dtype=torch.float32, device=dev)
    outb = torch.empty(max_bytes // FLOAT_BYTES, dtype=torch.float32, device=dev)
    rows_path = os.path.join(cfg["out"], f"rows-n{n}.jsonl")
    rows_f = open(rows_path, "a") if rank == 0 else None
    world = dist.group.WORLD

    def log_offset():
        try:
            return os.path.getsize(logpath)
        except OSError:
            return 0

    def make_fn(op, nbytes, g):
        cnt = nbytes // FLOAT_BYTES
        if op == "all_reduce":
            x = inb[:cnt]
            return lambda: dist.all_reduce(x, group=g)
        if op == "all_gather":
            o, x = outb[:cnt], inb[:cnt // n]
            return lambda: dist.all_gather_into_tensor(o, x, group=g)
        if op == "reduce_scatter":
            o, x = outb[:cnt // n], inb[:cnt]
            return lambda: dist.reduce_scatter_tensor(o, x, group=g)
        if op == "broadcast":
            x = inb[:cnt]
            return lambda: dist.broadcast(x, src=0, group=g)
        if op == "reduce":
            x = inb[:cnt]
            return lambda: dist.reduce(x, dst=0, group=g)
        if op == "all_to_all":
            o, x = outb[:cnt], inb[:cnt]
            return lambda: dist.all_to_all_single(o, x, group=g)
        if op == "sendrecv":
            x, o = inb[:cnt], outb[:cnt]

            def sr():
                ops = [dist.P2POp(dist.isend, x, (rank + 1) % n, g), dist.P2POp(dist.irecv, o, (rank - 1) % n, g)]
                for w in dist.batch_isend_irecv(ops):
                    w.wait()
            return sr
        raise ValueError(f"unknown op {op!r}; valid: {ALL_OPS}")

    def check(op, nbytes, fn):
        """Fill inputs with rank-dependent values, run once, verify; returns (ok, detail)."""
        cnt = nbytes // FLOAT_BYTES
        tri = n * (n + 1) / 2.0
        if op == "all_to_all":
            blk = cnt // n
            inb[:cnt].view(n, blk).copy_((rank * 1000 + torch.arange(n, device=dev, dtype=torch.float32)).view(n, 1).expand(n, blk))
        else:
            inb[:cnt].fill_(rank + 1)
        outb[:cnt].fill_(-1)
        fn()
        torch.cuda.synchronize()
        if op == "all_reduce":
            got, exp = inb[:cnt], torch.full((cnt,), tri, device=dev)
        elif op == "all_gather":
            got = outb[:cnt]
            exp = (torch.arange(n, device=dev, dtype=torch.float32) + 1).repeat_interleave(cnt // n)
        elif op == "reduce_scatter":
            got, exp = outb[:cnt // n], torch.full((cnt // n,), tri, device=dev)
        elif op == "broadcast":
            got, exp = inb[:cnt], torch.full((cnt,), 1.0, device=dev)
        elif op == "reduce":
            if rank != 0:
                return True, "non-root unchecked"
            got, exp = inb[:cnt], torch.full((cnt,), tri, device=dev)
        elif op == "all_to_all":
            blk = cnt // n
            got = outb[:cnt]
            exp = (torch.arange(n, device=dev, dtype=torch.float32) * 1000 + rank).repeat_interleave(blk)
        else:  # sendrecv
            got, exp = outb[:cnt], torch.full((cnt,), float((rank - 1) % n + 1), device=dev)
        ok = bool(torch.equal(got, exp))
        return ok, "" if ok else f"mismatch: got {got[:4].tolist()} expected {exp[:4].tolist()}"

    def agree_max(vals):
        # padded to 3 float64 = 24 B, a size never measured, so its TUNING line cannot be mistaken
        t = torch.tensor((list(vals) + [0.0, 0.0, 0.0])[:3], dtype=torch.float64, device=dev)
        dist.all_reduce(t, op=dist.ReduceOp.MAX, group=world)
        return t.tolist()

    def time_eager(fn, iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        dist.barrier(group=world, device_ids=[rank])
        torch.cuda.synchronize()
        s.record()
        for _ in range(iters):
            fn()
        e.record()
        e.synchronize()
        return s.elapsed_time(e) * 1e3 / iters  # us

    def measure_point(mode, algo, proto, op, nbytes, g, do_eager):
        off0 = log_offset()
        fn = make_fn(op, nbytes, g)
        ok, detail = check(op, nbytes, fn)
        okall = agree_max([0.0 if ok else 1.0])[0] == 0.0
        t_est = time_eager(fn, 3)
        stop = 1.0 if time.time() > deadline else 0.0
        t_est, stop = agree_max([t_est, stop])[:2]
        K = int(min(cfg["kmax"], max(1, round(cfg["graph_target_us"] / max(t_est, 1e-3)))))
        R = int(min(cfg["rmax"], max(cfg["rmin"], round(cfg["point_target_us"] / max(K * t_est, 1e-3)))))
        graph = torch.cuda.CUDAGraph()
        st = torch.cuda.Stream(device=dev)
        st.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(st):
            fn()  # warm-up on the side stream before capture
        torch.cuda.current_stream().wait_stream(st)
        torch.cuda.synchronize()
        with torch.cuda.graph(graph):
            for _ in range(K):
                fn()
        torch.cuda.synchronize()
        for _ in range(cfg["graph_warmup"]):
            graph.replay()
        torch.cuda.synchronize()
        dist.barrier(group=world, device_ids=[rank])
        torch.cuda.synchronize()
        evs = [torch.cuda.Event(enable_timing=True) for _ in range(R + 1)]
        evs[0].record()
        for i in range(R):
            graph.replay()
            evs[i + 1].record()
        evs[-1].synchronize()
        per = [evs[i].elapsed_time(evs[i + 1]) * 1e3 / K for i in range(R)]
        med = statistics.median(per)
        del graph
        eager_us = time_eager(fn, cfg["eager_iters"]) if do_eager else None
        # gather per-rank medians to rank 0
        # (2n+1) float64 = 40 B or 72 B: never a measured size (see agree_max)
        slots = torch.zeros(2 * n + 1, dtype=torch.float64, device=dev)
        slots[2 * rank] = med
        slots[2 * rank + 1] = eager_us if eager_us is not None else 0.0
        dist.all_reduce(slots, group=world)
        sl = slots.tolist()
        allmed = [(sl[2 * r], sl[2 * r + 1]) for r in range(n)]
        tuning = parse_tuning(open(logpath).read()[off0:]) if rank == 0 else []
        if rank == 0:
            meds = [m[0] for m in allmed]
            t_us = statistics.mean(meds)
            # NCCL logs count*typesize with its API count: per-rank for AllGather/ReduceScatter
            logged = nbytes // n if op in ("all_gather", "reduce_scatter") else nbytes
            a, p, ch = summarize_choice([t for t in tuning if t[1] == logged], NCCL_FUNC.get(op, ""))
            base = dict(op=op, n=n, mode=mode, algo=algo if algo else a, proto=proto if proto else p,
                        nccl_reported_algo=a, nccl_reported_proto=p, nccl_reported_channels=ch,
                        bytes=nbytes, count=param_count(op, n, nbytes), dtype="float", redop="sum", root=0,
                        correct=okall)
            bw = nbytes / (t_us * 1e-6) / 1e9
            row = dict(base, time_us=round(t_us, 3), time_us_max_rank=round(max(meds), 3),
                       algbw_gbps=round(bw, 3), busbw_gbps=round(bw * busbw_factor(op, n), 3), graph=True,
                       K=K, R=R, replay_us_min=round(min(per) * K, 3), replay_us_max=round(max(per) * K, 3))
            rows_f.write(json.dumps(row) + "\n")
            if do_eager:
                eus = statistics.mean(m[1] for m in allmed)
                ebw = nbytes / (eus * 1e-6) / 1e9
                erow = dict(base, time_us=round(eus, 3), algbw_gbps=round(ebw, 3),
                            busbw_gbps=round(ebw * busbw_factor(op, n), 3), graph=False, K=1,
                            R=cfg["eager_iters"])
                rows_f.write(json.dumps(erow) + "\n")
            rows_f.flush()
            print(f"[n={n} {time.time()-t_start:6.1f}s] {mode:11s} {op:14s} {nbytes:>11d} B "
                  f"{t_us:10.2f} us busbw {row['busbw_gbps']:8.2f} GB/s K={K} R={R} nccl={a}/{p}/{ch} "
                  f"ok={okall}{'' if ok else ' ' + detail}", flush=True)
        return stop

    groups = {}
    for mode, algo, proto, ops in MODES:
        if mode not in cfg["modes"]:
            continue
        for k, v in (("NCCL_ALGO", algo), ("NCCL_PROTO", proto)):
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        groups[mode] = dist.new_group(ranks=list(range(n)), device_id=dev)
        dist.barrier(group=groups[mode], device_ids=[rank])  # force init under this env
        torch.cuda.synchronize()
    for k in ("NCCL_ALGO", "NCCL_PROTO"):
        os.environ.pop(k, None)

    stopped = False
    for pi, sizes in enumerate(cfg["passes"]):
        for mode, algo, proto, ops in MODES:
            if mode not in groups:
                continue
            for op in ops:
                if op not in cfg["ops"]:
                    continue
                for nbytes in sizes:
                    if stopped:
                        break
                    if not valid_size(op, n, nbytes):
                        continue
                    do_eager = mode == "default" and pi == 0 and nbytes in cfg["eager_sizes"]
                    stopped = measure_point(mode, algo, proto, op, nbytes, groups[mode], do_eager) > 0
    if rank == 0:
        print(f"[n={n}] done in {time.time()-t_start:.1f}s stopped_by_budget={stopped}", flush=True)
        rows_f.close()
    dist.barrier(group=world, device_ids=[rank])
    dist.destroy_process_group()


# ----------------------------------------------------------------------------------------------
# p2p copy table (main process)
# ----------------------------------------------------------------------------------------------

def p2p_table(out, max_exp, full_pairs, budget_s):
    import torch
    t0 = time.time()
    ng = torch.cuda.device_count()
    res = {"method": "torch dst.copy_(src) between devices (PyTorch copies on the source device's current stream), "
                     "eager: K back-to-back copies between CUDA events on the source device, median over R "
                     "repetitions / K; small sizes are launch-bound",
           "peer_access": {}, "rows": []}
    for i in range(ng):
        for j in range(ng):
            if i != j:
                res["peer_access"][f"{i}->{j}"] = bool(torch.cuda.can_device_access_peer(i, j))
    bufs = {}
    maxb = 1 << max_exp
    for d in range(ng):
        bufs[d] = torch.empty(maxb // 4, dtype=torch.float32, device=f"cuda:{d}")
    sizes = [8 << (2 * k) for k in range(0, (max_exp - 3) // 2 + 1)]
    if sizes[-1] != maxb:
        sizes.append(maxb)
    for i in range(ng):
        for j in range(ng):
            if i == j:
                continue
            pair_sizes = sizes if (i, j) in full_pairs else [8, 1 << 20, 1 << 28]
            for nb in pair_sizes:
                if time.time() - t0 > budget_s:
                    break
                src, dst = bufs[i][:nb // 4], bufs[j][:nb // 4]
                src.fill_(float(i + 1))
                dst.copy_(src)
                torch.cuda.synchronize(i)
                torch.cuda.synchronize(j)
                ok = bool(torch.equal(dst.cpu(), src.cpu())) if nb <= (1 << 20) else \
                    bool(torch.equal(dst[:1024].cpu(), src[:1024].cpu()))
                s = torch.cuda.Event(enable_timing=True)
                e = torch.cuda.Event(enable_timing=True)
                with torch.cuda.device(i):
                    s.record()
                    dst.copy_(src)
                    e.record()
                    e.synchronize()
                    t1 = s.elapsed_time(e) * 1e3
                K = int(min(20, max(1, round(2000.0 / max(t1, 1e-3)))))
                R = int(min(30, max(5, round(20000.0 / max(K * t1, 1e-3)))))
                # Eager only: PyTorch's cross-device copy_ synchronises the source and destination
                # devices' current streams with events, which CUDA-graph capture on one stream refuses.
                # Small-size times are therefore host/launch-bound (an upper bound on link latency).
                mode = "eager"
                per = []
                with torch.cuda.device(i):
                    for _ in range(2):
                        dst.copy_(src)
                    torch.cuda.synchronize(i)
                    for r in range(R):
                        s.record()
                        for _ in range(K):
                            dst.copy_(src)
                        e.record()
                        e.synchronize()
                        per.append(s.elapsed_time(e) * 1e3 / K)
                med = statistics.median(per)
                res["rows"].append(dict(src=i, dst=j, bytes=nb, time_us=round(med, 3),
                                        gbps=round(nb / (med * 1e-6) / 1e9, 3), K=K, R=R, timing=mode,
                                        correct=ok))
                print(f"[p2p {time.time()-t0:5.1f}s] {i}->{j} {nb:>11d} B {med:9.2f} us "
                      f"{nb/(med*1e-6)/1e9:8.2f} GB/s {mode} ok={ok}", flush=True)
    with open(os.path.join(out, "p2p.json"), "w") as f:
        json.dump(res, f, indent=1)


# ----------------------------------------------------------------------------------------------
# system info, assembly
# ----------------------------------------------------------------------------------------------

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout
    except Exception as ex:  # recorded, not fatal: the measurement itself does not need it
        return f"ERROR running {cmd!r}: {ex}"


def sysinfo(out):
    import torch
    info = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "nccl": ".".join(map(str, torch.cuda.nccl.version())),
        "python": sys.version.split()[0],
        "gpu_count": torch.cuda.device_count(),
        "gpus": [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())],
        "nvidia_smi_L": sh("nvidia-smi -L").strip().splitlines(),
        "driver": sh("nvidia-smi --query-gpu=driver_version --format=csv,noheader").strip().splitlines(),
        "clocks": sh("nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv").strip(),
        "uname": sh("uname -r").strip(),
        "cpu_count": os.cpu_count(),
        "env": {k: os.environ.get(k) for k in REQUIRED_ENV},
    }
    with open(os.path.join(out, "nvidia-smi-topo-m.txt"), "w") as f:
        f.write(sh("nvidia-smi topo -m"))
    with open(os.path.join(out, "sysinfo.json"), "w") as f:
        json.dump(info, f, indent=1)
    print(json.dumps(info, indent=1), flush=True)
    return info


def assemble(src, dest, argv_note):
    info = json.load(open(os.path.join(src, "sysinfo.json")))
    for n in (2, 4):
        p = os.path.join(src, f"rows-n{n}.jsonl")
        if not os.path.exists(p):
            continue
        rows = [json.loads(l) for l in open(p) if l.strip()]
        canon = {"RING": "Ring", "TREE": "Tree", "LL": "LL", "LL128": "LL128", "SIMPLE": "Simple"}
        for r in rows:  # NCCL logs upper case (ncclAlgoToString); use NCCL_ALGO/NCCL_PROTO spelling
            for k in ("algo", "proto"):
                if r[k] is not None:
                    r[k] = canon.get(r[k].upper(), r[k])
        rows.sort(key=lambda r: (ALL_OPS.index(r["op"]), [m[0] for m in MODES].index(r["mode"]), not r["graph"], r["bytes"]))
        doc = {"source": {
            "how": "tools/nccl-measure/measure.py: PyTorch torch.distributed NCCL backend, one process per GPU, "
                   "eager init (device_id), float32 sum, CUDA-graph replay of K back-to-back collectives, "
                   "median over R replays / K, time averaged over ranks; sizes/busbw as nccl-tests",
            "command": argv_note,
            "date_utc": info["date_utc"], "torch": info["torch"], "nccl": info["nccl"],
            "torch_cuda": info["torch_cuda"], "driver": info["driver"][0] if info["driver"] else None,
            "machine": f"{info['gpu_count']} x {info['gpus'][0]} (NVSwitch), Firecracker VM, kernel {info['uname']}",
            "gpus_used": list(range(n)), "nvls": "disabled (NCCL_NVLS_ENABLE=0)",
            "fields": "algo/proto: forced value, or in default mode the one NCCL logged (NCCL_DEBUG_SUBSYS=TUNING, "
                      "rank 0) for that point, null when NCCL logs none (p2p ops); nccl_reported_*: what NCCL "
                      "logged; correct: result verified on every rank"},
            "rows": rows}
        with open(os.path.join(dest, f"nccl-{info['nccl']}-h200-n{n}.json"), "w") as f:
            # one row per line: diffable and small
            f.write('{"source": ' + json.dumps(doc["source"], indent=1) + ',\n"rows": [\n')
            f.write(",\n".join(json.dumps(r) for r in rows))
            f.write("\n]}\n")
    print("assembled into", dest)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="output folder for raw results")
    ap.add_argument("--ns", default="4,2", help="rank counts, comma-separated, measured in this order")
    ap.add_argument("--budget-s", type=float, default=420.0, help="wall budget for all collective runs")
    ap.add_argument("--max-exp", type=int, default=30, help="largest size is 2^max_exp bytes")
    ap.add_argument("--modes", default=",".join(m[0] for m in MODES))
    ap.add_argument("--ops", default=",".join(ALL_OPS))
    ap.add_argument("--probe", action="store_true", help="tiny run: few sizes, check graph capture and env")
    ap.add_argument("--no-p2p", action="store_true")
    ap.add_argument("--assemble", help="raw folder to assemble into --dest")
    ap.add_argument("--dest", help="fixture folder for --assemble")
    ap.add_argument("--command-note", default="")
    a = ap.parse_args()
    if a.assemble:
        if not a.dest:
            ap.error("--assemble needs --dest")
        assemble(a.assemble, a.dest, a.command_note)
        return
    if not a.out:
        ap.error("--out is required")
    check_env()
    modes = a.modes.split(",")
    for m in modes:
        if m not in [x[0] for x in MODES]:
            ap.error(f"unknown mode {m!r}; valid: {[x[0] for x in MODES]}")
    ops = a.ops.split(",")
    for o in ops:
        if o not in ALL_OPS:
            ap.error(f"unknown op {o!r}; valid: {ALL_OPS}")
    os.makedirs(a.out, exist_ok=True)
    import torch
    import torch.multiprocessing as mp
    info = sysinfo(a.out)
    ns = [int(x) for x in a.ns.split(",")]
    for n in ns:
        if n < 2 or n > info["gpu_count"]:
            raise SystemExit(f"--ns value {n} invalid: need 2..{info['gpu_count']} (GPUs present)")
    passes = size_passes(3, a.max_exp)
    if a.probe:
        passes = [[8, 1 << 20, 1 << 26], []]
    cfg = dict(out=a.out, port=29500 + (os.getpid() % 1000) * 8, max_exp=a.max_exp, passes=passes,
               modes=modes, ops=ops, kmax=20, rmin=5, rmax=40, graph_target_us=1500.0,
               point_target_us=25000.0, graph_warmup=3, eager_iters=20,
               eager_sizes={8, 32, 1 << 17, 1 << 25, 1 << 29})
    n_budget = {n: a.budget_s * (0.6 if n == 4 and len(ns) > 1 else (0.4 if len(ns) > 1 else 1.0)) for n in ns}
    t0 = time.time()
    for n in ns:
        c = dict(cfg, budget_s=n_budget[n])
        print(f"=== n={n} budget {c['budget_s']:.0f}s", flush=True)
        mp.spawn(worker, args=(n, c), nprocs=n, join=True)
        print(f"=== n={n} finished at {time.time()-t0:.1f}s", flush=True)
    if not a.no_p2p:
        full = {(0, 1), (1, 0), (0, info["gpu_count"] - 1)}
        p2p_table(a.out, a.max_exp, full, 60.0 if not a.probe else 10.0)


if __name__ == "__main__":
    main()
