#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x2/ (one lease of nvidia-h200-x2, <= 9 minutes):
# topology, ccsim's fidelity sweep (ccsim device fidelity), NCCL through PyTorch as the reference, and the
# `ccsim perf --backend cuda` CLI path. Run from a bundle directory (ccsim bundle, from the cli's class path, so
# that `ccsim perf` is in it) holding this script and nccl_allreduce.py:  sh device-run2.sh OUTDIR
# OUTDIR receives at most 8 files: run.log topo.txt fidelity.log timing.json nccl.json perf_all_reduce.txt
# perf_all_gather.json (the device tool returns 8).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
B=$(cd "$(dirname "$0")" && pwd); O=$1
mkdir -p "$O"
{
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
el "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
{
  nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  echo; echo "== nvidia-smi topo -m"; nvidia-smi topo -m
  echo; echo "== nvidia-smi nvlink --status"; nvidia-smi nvlink --status 2>&1 | head -60
  echo; echo "== nvidia-smi -q | grep -i -A3 nvlink"; nvidia-smi -q | grep -i -A3 nvlink | head -40
  echo; echo "== nvidia-smi -q (fabric, clocks)"; nvidia-smi -q | grep -i -E -A4 "^ *fabric|Max Clocks" | head -40
  echo; echo "== uname / cpus"; uname -a; nproc
} > "$O/topo.txt" 2>&1
el "topology written"; grep -A4 "topo -m" "$O/topo.txt"
timeout 360 "$B/ccsim" device fidelity "$O" > "$O/fidelity.log" 2>&1; echo "fidelity rc=$?"
el "fidelity done"; grep -E "^fidelity|Exception|at io" "$O/fidelity.log" | head -8; tail -2 "$O/fidelity.log"
timeout 90 python3 "$B/nccl_allreduce.py" "$O/nccl.json" 1048576 16777216 134217728 536870912 2>&1 | grep -v Warning | tail -6
el "nccl done"
timeout 60 "$B/ccsim" perf --backend cuda --gpus 2 --op all_reduce -b 1M -e 512M -f 8 > "$O/perf_all_reduce.txt"; echo "perf all_reduce rc=$?"
timeout 60 "$B/ccsim" perf --backend cuda --gpus 2 --op all_gather -b 1M -e 512M -f 8 --format json > "$O/perf_all_gather.json"; echo "perf all_gather rc=$?"
cat "$O/perf_all_reduce.txt"; head -c 1500 "$O/perf_all_gather.json"; echo
el "end"
} 2>&1 | tee "$O/run.log"
