#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x2-channels/ (one lease of nvidia-h200-x2): how a ring
# collective's bandwidth grows with the channel count at n = 2, for ccsim's own kernels (perf --backend cuda, CUDA-graph
# replay) and NCCL 2.28.9 (PyTorch, one process, CUDA events over 20 calls), NCCL_ALGO=Ring, NCCL_PROTO forced,
# NCCL_MIN_NCHANNELS = NCCL_MAX_NCHANNELS = 4 .. 64, 16-256 MiB. An out-of-sample check of the kernel profile's
# sim.cta.*.channel_load (a thread block slower beside more blocks), fitted on the 4 x H200 run's 4/16/64-channel
# all-reduces: here all-gather and reduce-scatter too, at channel counts never fitted.
# Run from the repository root with the bundle in .device-bundle: sh gpu-backend/scripts/device-run8.sh OUTDIR
exec sh "$(dirname "$0")/channel_sweep.sh" 2 "all_reduce all_gather reduce_scatter" "$1"
