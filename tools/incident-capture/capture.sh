#!/bin/sh
# Produce real incident artifacts on a host with 2 GPUs: PyTorch flight-recorder dumps (pickle
# and JSON), NCCL_DEBUG=INFO logs, ncclras output and nccl-tests logs, for ccsim's `diagnose`
# readers and their tests. Usage: sh tools/incident-capture/capture.sh OUTDIR [NCCL_TESTS_SRC]
# CASES (default: all) names the PyTorch cases to run; nccl-tests builds meanwhile on the CPUs.
# NVLink multicast stays off (shared host). Writes OUTDIR/<case>/... and OUTDIR/env.txt.
set -u
OUT=$1; SRC=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING,ENV,NET,BOOTSTRAP
export TORCH_NCCL_DUMP_ON_TIMEOUT=1 TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_FR_BUFFER_SIZE=2000
export PYTHONUNBUFFERED=1
{ nvidia-smi; nvidia-smi topo -m; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'; } > "$OUT/env.txt" 2>&1

run_case() {  # case, extra environment of rank 1, seconds before it is killed
  c=$1; d="$OUT/$c"; mkdir -p "$d"; port=$((29500 + $(date +%s) % 1000))
  for r in 0 1; do
    env CASE=$c CASE_DIR="$d" RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
        NCCL_DEBUG_FILE="$d/nccl_rank$r.log" TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$d/nccl_trace_rank_" \
        TORCH_FR_DUMP_TEMP_FILE="$d/nccl_trace_rank_" $([ $r = 1 ] && echo "$2") \
        timeout ${3:-120} python3 "$HERE/job.py" > "$d/stdout_rank$r.txt" 2>&1 &
  done
  if [ "$c" = sleep ]; then   # the job hangs in rank 0's all-reduce: ask RAS what it sees
    sleep 12; python3 "$HERE/ras_client.py" text "$d/ncclras.txt" 2>"$d/ncclras.err"
    python3 "$HERE/ras_client.py" json "$d/ncclras.json" 2>>"$d/ncclras.err"
  fi
  wait; echo "case $c done: $(ls "$d" | tr '\n' ' ')"
}
cases() {
  for c in ${CASES:-healthy skip mismatch sleep ifname}; do
    if [ "$c" = ifname ]; then run_case ifname "NCCL_SOCKET_IFNAME=ens99" 40; else run_case "$c" ""; fi
  done
}
NH=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])')
if [ -n "$SRC" ]; then  # build nccl-tests against PyTorch's NCCL while the cases run
  [ -e "$NH/lib/libnccl.so" ] || ln -s libnccl.so.2 "$NH/lib/libnccl.so"
  make -C "$SRC" -j12 MPI=0 NCCL_HOME="$NH" NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" \
       > "$OUT/nccl-tests-build.log" 2>&1 &
fi
cases
wait

if [ -n "$SRC" ]; then  # nccl-tests against PyTorch's NCCL: normal, checked, and starved runs
  tail -3 "$OUT/nccl-tests-build.log"
  B="$SRC/build"; export LD_LIBRARY_PATH="$NH/lib:${LD_LIBRARY_PATH:-}"; d="$OUT/nccl-tests"; mkdir -p "$d"
  unset NCCL_DEBUG NCCL_DEBUG_SUBSYS
  "$B/all_reduce_perf" -b 8 -e 1G -f 4 -g 2 > "$d/all_reduce_g2.txt" 2>&1
  "$B/all_reduce_perf" -b 8 -e 1G -f 4 -g 2 -c 1 -J "$d/all_reduce_g2.json" > "$d/all_reduce_g2_check.txt" 2>&1
  "$B/all_reduce_perf" -b 8 -e 128M -f 2 -t 2 -g 1 -w 5 -n 20 > "$d/all_reduce_t2.txt" 2>&1
  "$B/all_gather_perf" -b 8 -e 1G -f 8 -g 2 -d bfloat16 > "$d/all_gather_g2_bf16.txt" 2>&1
  "$B/reduce_scatter_perf" -b 1K -e 256M -f 16 -g 2 -o max -d half > "$d/reduce_scatter_g2_max.txt" 2>&1
  NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 "$B/all_reduce_perf" -b 1M -e 1G -f 4 -g 2 > "$d/all_reduce_g2_starved.txt" 2>&1
  NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,GRAPH,TUNING "$B/all_reduce_perf" -b 1G -e 1G -g 2 > "$d/all_reduce_g2_debug.txt" 2>&1
fi
