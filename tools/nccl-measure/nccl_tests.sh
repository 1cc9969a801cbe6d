#!/bin/sh
# nccl-tests in one process against the NCCL that PyTorch ships: builds alltoall_perf and sendrecv_perf from an
# nccl-tests source tree (no MPI) and times them on N GPUs of this host, one thread driving them all (-g N) and one
# thread a GPU (-t N), CUDA-graph timed (-G 10) and eager, 32 KiB .. 512 MiB by 2, 5 warm-up and 50 timed calls.
#
# Usage (GPU host with PyTorch, from the repository root; no network needed):
#   sh tools/nccl-measure/nccl_tests.sh NCCL_TESTS_SRC OUTDIR [N ...]      # default N: 4 2
# NCCL_TESTS_SRC: an nccl-tests checkout (git archive of NVIDIA/nccl-tests); OUTDIR receives <op>-g<N>.txt (eager),
# <op>-g<N>-graph.txt, <op>-t<N>-graph.txt, alltoall-g<N>-debug.txt (NCCL_DEBUG=INFO INIT,P2P at 1 MiB) and gpus.txt.
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0): these hosts are shared.
set -u
. "$(dirname "$0")/nccl_tests_build.sh"
nccl_tests_setup 2,10p "$@"
export NCCL_NVLS_ENABLE=0
build_nccl_tests "$SRC" "$W" "$O" "alltoall sendrecv"
for n in $NS; do
  for op in alltoall sendrecv; do
    "$W/build/${op}_perf" -b 32K -e 512M -f 2 -w 5 -n 50 -g "$n" > "$O/$op-g$n.txt" 2>&1; echo "$op -g $n rc=$?"
    "$W/build/${op}_perf" -b 32K -e 512M -f 2 -w 5 -n 50 -g "$n" -G 10 > "$O/$op-g$n-graph.txt" 2>&1; echo "$op -g $n -G rc=$?"
    "$W/build/${op}_perf" -b 32K -e 512M -f 2 -w 5 -n 50 -t "$n" -g 1 -G 10 > "$O/$op-t$n-graph.txt" 2>&1
    echo "$op -t $n -G rc=$?"
  done
done
n=$(echo "$NS" | cut -d' ' -f1)
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P "$W/build/alltoall_perf" -b 1M -e 1M -g "$n" -n 5 > "$O/alltoall-g$n-debug.txt" 2>&1
nvidia-smi --query-gpu=index,name,driver_version --format=csv > "$O/gpus.txt"
rm -rf "$W"
