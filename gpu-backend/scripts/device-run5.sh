#!/bin/sh
# The device run whose results are in gpu-backend/results/h200x4-holdout/ (one lease of nvidia-h200-x4): ccsim's kernels
# timed (perf --backend cuda, CUDA-graph replay, the tuner's algorithm/protocol/channels) at sizes and a rank count the
# kernel profile was never fitted to: n = 3 (never measured before) and n = 4, 12 KiB .. 192 MiB in steps of 4 (the
# fidelity sweep measured powers of 2 from 4 KiB), plus the tree all-reduce forced (NCCL_ALGO=Tree).
# Run from the repository root with the bundle in .device-bundle: sh gpu-backend/scripts/device-run5.sh OUTDIR
export NCCL_NVLS_ENABLE=0
R=$(pwd); B=$R/.device-bundle; O=$1
mkdir -p "$O/parts"
{
T0=$(date +%s)
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
for n in 3 4; do
  for op in all_reduce all_gather reduce_scatter broadcast all_to_all sendrecv; do
    timeout 120 "$B/ccsim" perf --backend cuda --gpus $n --op $op -b 12K -e 192M -f 4 --format json > "$O/parts/n$n-$op.json" 2> "$O/parts/n$n-$op.err"
    echo "n=$n $op rc=$? after $(( $(date +%s) - T0 )) s"; tail -2 "$O/parts/n$n-$op.err"
  done
  NCCL_ALGO=Tree timeout 120 "$B/ccsim" perf --backend cuda --gpus $n --op all_reduce -b 12K -e 192M -f 4 --format json > "$O/parts/n$n-tree.json" 2> "$O/parts/n$n-tree.err"
  echo "n=$n tree rc=$? after $(( $(date +%s) - T0 )) s"; tail -2 "$O/parts/n$n-tree.err"
  # one JSON array per rank count (what comes back from the device is limited to a few files)
  python3 - "$O/parts" $n > "$O/perf-n$n.json" <<'PY'
import glob, json, sys
rows = []
for f in sorted(glob.glob("%s/n%s-*.json" % (sys.argv[1], sys.argv[2]))):
    try:
        rows += json.load(open(f))
    except ValueError as e:
        print("skipped %s: %s" % (f, e), file=sys.stderr)
print(json.dumps(rows, indent=1))
PY
done
rm -rf "$O/parts"
echo "end after $(( $(date +%s) - T0 )) s"
} 2>&1 | tee "$O/run.log"
