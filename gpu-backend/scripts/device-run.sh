#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x4/: NCCL through PyTorch as the reference, then
# ccsim's kernels (timing, correctness matrix, calibration), each its own process. Run from a bundle
# directory (ccsim bundle) holding this script and nccl_allreduce.py:  sh device-run.sh OUTDIR
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
B=$(dirname "$0"); O=$1
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
timeout 90 python3 $B/nccl_allreduce.py $O/nccl.json 1048576 16777216 134217728 536870912 2>&1 | grep -v Warning | tail -6
timeout 240 $B/ccsim device timing $O > $O/timing.log 2>&1; echo "timing rc=$?"
grep -E "best|eager" $O/timing.log; grep -E "Exception|at io" $O/timing.log | head -5
timeout 150 $B/ccsim device matrix $O > $O/matrix.log 2>&1; echo "matrix rc=$?"
grep -E "MISMATCH|matrix|Exception" $O/matrix.log | head -20
timeout 150 $B/ccsim device calibrate $O > $O/calibrate.log 2>&1; echo "calibrate rc=$?"
grep -E "calibrate:|channels|Exception" $O/calibrate.log | tail -16
grep -E "n=4 +(1024|1048576|16777216|536870912) B" $O/timing.log | grep "all_reduce .*ch=64" | head -30
