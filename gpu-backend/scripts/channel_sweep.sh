#!/bin/sh
# A ring channel sweep on the GPUs of one host (device-run6.sh: n = 4, device-run8.sh: n = 2): ccsim's own kernels
# (perf --backend cuda, CUDA-graph replay) for each op of OPS and NCCL 2.28.9's all-reduce (nccl_allreduce.py: PyTorch,
# one process, CUDA events over 20 calls), NCCL_ALGO=Ring, NCCL_PROTO forced (ccsim: Simple, LL128, LL; NCCL: Simple,
# LL128), NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = 4 .. 64, sizes 16, 64, 256 MiB. Writes OUTDIR/channels.json
# (merge_parts.py) and OUTDIR/run.log.
# Run from the repository root with the bundle in .device-bundle: sh gpu-backend/scripts/channel_sweep.sh GPUS "OPS" OUTDIR
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
R=$(pwd); B=$R/.device-bundle; N=$1; OPS=$2; O=$3; P=/tmp/ccsim-parts
mkdir -p "$O" "$P"
{
T0=$(date +%s)
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
for ch in 4 8 12 16 24 32 48 64; do
  for proto in Simple LL128 LL; do
    for op in $OPS; do
      NCCL_ALGO=Ring NCCL_PROTO=$proto NCCL_MIN_NCHANNELS=$ch NCCL_MAX_NCHANNELS=$ch timeout 60 "$B/ccsim" perf --backend cuda \
        --gpus "$N" --op $op -b 16M -e 256M -f 4 --format json > "$P/ccsim-$ch-$proto-$op.json" 2> "$P/ccsim-$ch-$proto-$op.err"
      echo "ccsim ch=$ch $proto $op rc=$? after $(( $(date +%s) - T0 )) s"; grep -iE "error|exception" "$P/ccsim-$ch-$proto-$op.err" | head -2
    done
  done
  for proto in Simple LL128; do
    NCCL_ALGO=Ring NCCL_PROTO=$proto NCCL_MIN_NCHANNELS=$ch NCCL_MAX_NCHANNELS=$ch timeout 60 python3 "$R/gpu-backend/scripts/nccl_allreduce.py" \
      "$P/nccl-$ch-$proto.json" 16777216 67108864 268435456 > "$P/nccl-$ch-$proto.log" 2>&1
    echo "nccl ch=$ch $proto rc=$? after $(( $(date +%s) - T0 )) s"; tail -1 "$P/nccl-$ch-$proto.log"
  done
done
python3 "$R/gpu-backend/scripts/merge_parts.py" "$P" > "$O/channels.json"
echo "end after $(( $(date +%s) - T0 )) s"
} 2>&1 | tee "$O/run.log"
