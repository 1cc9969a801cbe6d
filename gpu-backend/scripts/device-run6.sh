#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x4-channels/ (one lease of nvidia-h200-x4): how the
# bandwidth of a ring collective grows with the channel count, for ccsim's own kernels (perf --backend cuda,
# CUDA-graph replay) and for NCCL 2.28.9 (PyTorch, one process, CUDA events over 20 calls), at n = 4, forced
# NCCL_ALGO=Ring and NCCL_PROTO, NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = 4 .. 64. The kernel profile was fitted at
# 16 channels (and 4/64 for all-reduce) and predicts the tuner's 24-channel runs 15-21 % fast (h200x4-holdout): this
# run measures the per-channel rate as channels are added, and whether NCCL's kernels show it too.
# Run from the repository root with the bundle in .device-bundle: sh gpu-backend/scripts/device-run6.sh OUTDIR
# (It ran with the sweep's body inline and nccl_allreduce.py from the bundle; the same commands now live in
# channel_sweep.sh.)
exec sh "$(dirname "$0")/channel_sweep.sh" 4 "all_reduce all_gather" "$1"
