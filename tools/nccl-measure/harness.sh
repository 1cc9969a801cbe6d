#!/bin/sh
# Two harnesses timing the same NCCL on the same GPUs in one lease: nccl-tests (one thread a GPU, -t N -g 1), CUDA-graph
# timed (-G 10) and eager, and one thread driving all N GPUs eager (-g N), and PyTorch's ProcessGroupNCCL
# (tools/nccl-measure/measure.py, NCCL's default choices, K calls captured in a CUDA graph), every op from 8 B to 16 MiB
# by 2: what a call costs each harness beyond NCCL's kernels, where the kernels are short. ccsim's built-in profiles
# were fitted to measure.py's timing; its nccl-tests commands print nccl-tests' rows.
#
# Usage (GPU host with PyTorch, from the repository root; no network needed):
#   sh tools/nccl-measure/harness.sh NCCL_TESTS_SRC OUTDIR [N ...]      # default N: 4 2
# OUTDIR receives <op>-t<N>-graph.txt, <op>-t<N>.txt (eager), <op>-g<N>.txt (eager, one thread), pytorch/ (measure.py's
# raw rows) and gpus.txt.
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0): these hosts are shared.
set -u
. "$(dirname "$0")/nccl_tests_build.sh"
nccl_tests_setup 2,12p "$@"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
R=$(pwd)
OPS="all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv"
build_nccl_tests "$SRC" "$W" "$O" "$OPS"
for n in $NS; do
  for op in $OPS; do
    "$W/build/${op}_perf" -b 8 -e 16M -f 2 -w 5 -n 50 -t "$n" -g 1 -G 10 > "$O/$op-t$n-graph.txt" 2>&1
    echo "$op -t $n -G rc=$?"
    "$W/build/${op}_perf" -b 8 -e 16M -f 2 -w 5 -n 50 -t "$n" -g 1 > "$O/$op-t$n.txt" 2>&1; echo "$op -t $n rc=$?"
    "$W/build/${op}_perf" -b 8 -e 16M -f 2 -w 5 -n 50 -g "$n" > "$O/$op-g$n.txt" 2>&1; echo "$op -g $n rc=$?"
  done
done
ns=$(echo "$NS" | tr ' ' ',')
timeout 240 python3 "$R/tools/nccl-measure/measure.py" --out "$O/pytorch" --ns "$ns" --modes default --max-exp 24 \
    --budget-s 150 --no-p2p > "$O/pytorch.log" 2>&1; echo "measure.py rc=$?"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$O/gpus.txt"
rm -rf "$W"
