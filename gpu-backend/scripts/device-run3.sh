#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x4-fidelity/ (one lease of nvidia-h200-x4, < 10 min):
# topology, ccsim's fidelity sweep at n = 2 and 4 (ccsim device fidelity), the correctness matrix (the all-to-all
# plan changed: its self copy runs on a lane of its own), NCCL all-reduce through PyTorch as the speed reference,
# `ccsim perf --backend cuda` at n = 4, and NCCL sendrecv n = 4 re-measured (tools/nccl-measure/measure.py) to
# check the fixture's non-monotonic 16-128 MiB rows. Run from the repository root with the bundle in
# .device-bundle:  sh gpu-backend/scripts/device-run3.sh OUTDIR
# OUTDIR receives 7 files: run.log topo.txt timing.json matrix.json nccl.json perf_all_reduce.txt logs.tar.gz.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
R=$(pwd); B=$R/.device-bundle; O=$1; L=/tmp/ccsim-logs
mkdir -p "$O" "$L"
{
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
el "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
{
  nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  echo; echo "== nvidia-smi topo -m"; nvidia-smi topo -m
  echo; echo "== nvidia-smi nvlink --status"; nvidia-smi nvlink --status 2>&1 | head -80
  echo; echo "== uname / cpus"; uname -a; nproc
} > "$O/topo.txt" 2>&1
el "topology written"; grep -A6 "topo -m" "$O/topo.txt"
timeout 290 "$B/ccsim" device fidelity "$O" > "$L/fidelity.log" 2>&1; echo "fidelity rc=$?"
el "fidelity done"; grep -E "Exception|at io" "$L/fidelity.log" | head -8; tail -3 "$L/fidelity.log"
timeout 120 "$B/ccsim" device matrix "$L" > "$L/matrix.log" 2>&1; echo "matrix rc=$?"
cp "$L/matrix.json" "$O/matrix.json" 2>/dev/null
el "matrix done"; grep -E "MISMATCH|Exception" "$L/matrix.log" | head -10; tail -3 "$L/matrix.log"
timeout 60 python3 "$B/nccl_allreduce.py" "$O/nccl.json" 1048576 16777216 134217728 536870912 2>&1 | grep -v Warning | tail -6
el "nccl all-reduce done"
timeout 50 "$B/ccsim" perf --backend cuda --gpus 4 --op all_reduce -b 1M -e 512M -f 8 > "$O/perf_all_reduce.txt" 2>&1; echo "perf rc=$?"
cat "$O/perf_all_reduce.txt"
el "perf done"
timeout 70 python3 tools/nccl-measure/measure.py --out "$L/nccl-sendrecv" --ns 4 --ops sendrecv --modes default --budget-s 45 > "$L/nccl-sendrecv.log" 2>&1; echo "sendrecv rc=$?"
tail -4 "$L/nccl-sendrecv.log"
el "end"
} 2>&1 | tee "$O/run.log"
tar -czf "$O/logs.tar.gz" -C "$L" . 2>/dev/null
