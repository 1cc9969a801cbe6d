#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x4-skew/ (one lease of nvidia-h200-x4): where a call at
# n = 4 gets its extra 2-4 µs over n = 2 in the fidelity sweep. `ccsim device skew` times send/recv, broadcast and
# all-reduce (16 channels, 64 KiB and 4 MiB) as graph replays of 5 .. 200 captured calls with the host time of the
# graph launch loop. Run from the repository root with the bundle in .device-bundle: sh gpu-backend/scripts/device-run4.sh OUTDIR
export NCCL_NVLS_ENABLE=0
R=$(pwd); B=$R/.device-bundle; O=$1
mkdir -p "$O"
{
T0=$(date +%s)
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
timeout 400 "$B/ccsim" device skew "$O" > "$O/skew.log" 2>&1; echo "skew rc=$?"
grep -E "Exception|at io" "$O/skew.log" | head -8; tail -3 "$O/skew.log"
echo "end after $(( $(date +%s) - T0 )) s"
} 2>&1 | tee "$O/run.log"
