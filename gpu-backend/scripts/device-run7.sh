#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x2-repeat/ (one lease of nvidia-h200-x2; x4 was not
# lent): ccsim's fidelity sweep (ccsim device fidelity: every op x algorithm x protocol, 16 channels, 4 KiB-512 MiB,
# 3 trials, CUDA-graph timing) at n = 2, twice back to back, to measure how far two runs of the same kernels differ
# (the floor under the 5 % fidelity bound) and how the kernel profile, fitted to the 4 x H200 run of 2026-11-22 06:42,
# predicts a fresh run. Run from the repository root with the bundle in .device-bundle:
#   sh gpu-backend/scripts/device-run7.sh OUTDIR
# OUTDIR receives: run.log topo.txt timing-a.json timing-b.json logs.tar.gz.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
R=$(pwd); B=$R/.device-bundle; O=$1; L=/tmp/ccsim-logs
mkdir -p "$O" "$L/a" "$L/b"
{
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
el "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
{
  nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  echo; echo "== nvidia-smi topo -m"; nvidia-smi topo -m
  echo; echo "== uname / cpus"; uname -a; nproc
} > "$O/topo.txt" 2>&1
el "topology written"; head -4 "$O/topo.txt"
for run in a b; do
  timeout 250 "$B/ccsim" device fidelity "$L/$run" > "$L/fidelity-$run.log" 2>&1; echo "fidelity $run rc=$?"
  cp "$L/$run/timing.json" "$O/timing-$run.json" 2>/dev/null
  el "fidelity $run done"; grep -E "Exception|at io" "$L/fidelity-$run.log" | head -8; tail -2 "$L/fidelity-$run.log"
  nvidia-smi --query-gpu=index,clocks.sm,temperature.gpu,power.draw --format=csv,noheader
done
el "end"
} 2>&1 | tee "$O/run.log"
tar -czf "$O/logs.tar.gz" -C "$L" . 2>/dev/null
