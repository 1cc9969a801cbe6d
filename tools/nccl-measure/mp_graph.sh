#!/bin/sh
# NCCL calls captured in CUDA graphs, one process a GPU (mp_graph.cu) against nccl-tests' -G in one process (-t N), the
# same NCCL (PyTorch's wheel) on the same GPUs in one lease: all_reduce, broadcast, sendrecv, 8 B .. 16 MiB by 2.
# Separates the process model from the harness in harness.sh's difference between nccl-tests and PyTorch.
#
# Usage (GPU host with PyTorch and nvcc, from the repository root):
#   sh tools/nccl-measure/mp_graph.sh NCCL_TESTS_SRC OUTDIR [N ...]      # default N: 4 2
# OUTDIR receives mp-<op>-n<N>.txt (bytes, µs a call, K, R from rank 0) and <op>-t<N>-graph.txt (nccl-tests).
set -u
. "$(dirname "$0")/nccl_tests_build.sh"
nccl_tests_setup 2,8p "$@"
export NCCL_NVLS_ENABLE=0
OPS="all_reduce broadcast sendrecv"
build_nccl_tests "$SRC" "$W" "$O" "$OPS"
nvcc -O2 -o "$W/mp_graph" "$(dirname "$0")/mp_graph.cu" -I"$W/home/include" -L"$W/home/lib" -lnccl \
    -Xlinker -rpath="$W/home/lib" > "$O/mp-build.log" 2>&1 || { tail -20 "$O/mp-build.log"; exit 1; }
for n in $NS; do
  for op in $OPS; do
    timeout 120 "$W/mp_graph" "$n" "$op" > "$O/mp-$op-n$n.txt" 2> "$O/mp-$op-n$n.err"; echo "mp_graph $n $op rc=$?"
    "$W/build/${op}_perf" -b 8 -e 16M -f 2 -w 5 -n 50 -t "$n" -g 1 -G 10 > "$O/$op-t$n-graph.txt" 2>&1
    echo "$op -t $n -G rc=$?"
  done
done
command -v mpirun > "$O/mpirun.txt" 2>&1
rm -rf "$W"
