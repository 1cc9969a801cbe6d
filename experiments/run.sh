#!/bin/sh
# The runner of every device study in experiments/: a list of steps, run in order on a GPU host, each writing into
# OUTDIR, with the whole log in OUTDIR/run.log. Each study's README gives the exact command that produced its data.
#
# Usage (from the repository root, on a Linux GPU host; no Java needed there):
#   ./ccsim bundle --out .device-bundle          # on the workstation, before copying the tree over
#   sh experiments/run.sh OUTDIR STEP [STEP ...]
#
# Steps:
#   topo               nvidia-smi: GPUs, clocks, `topo -m`, NVLink status, uname          -> OUTDIR/topo.txt
#   timing|matrix|calibrate|fidelity|alltoall|skew
#                      `ccsim device STEP` on all GPUs (see `ccsim device --help`)      -> OUTDIR/<step>.log + JSON
#   nccl-allreduce     NCCL's all-reduce through PyTorch at 1, 16, 128, 512 MiB            -> OUTDIR/nccl.json
#   nccl-sendrecv      NCCL send/recv at n = 4 (tools/nccl-measure/measure.py)             -> OUTDIR/nccl-sendrecv/
#   nccl-p2p:N         NCCL's all-to-all and send/recv at n = N, default, LL and Simple forced
#                      (tools/nccl-measure/p2p_protocol.py)                           -> OUTDIR/nccl-p2p-nN.jsonl
#   registered:N       PyTorch's send/recv and all-to-all at n = N on caching-allocator and NCCL-registered
#                      buffers, eager and graphed (tools/nccl-measure/registered_p2p.py) -> OUTDIR/registered-nN/
#   perf:OP            `ccsim perf --backend cuda` 1 MiB .. 512 MiB by 8 on $GPUS GPUs     -> OUTDIR/perf_OP.json
#   holdout:N          every op (and the tree all-reduce) at n = N, 12 KiB .. 192 MiB by 4 -> OUTDIR/perf-nN.json
#   channels:N:OPS     ring channel sweep at n = N, 4 .. 64 forced channels, 16 .. 256 MiB,
#                      ccsim's kernels for each op of OPS (comma-separated) and NCCL's all-reduce
#                                                       -> OUTDIR/channels.json, ccsim-perf.json, nccl-perf.json
#   repeat:STEP        STEP twice, into OUTDIR/a and OUTDIR/b (e.g. repeat:fidelity), the clocks after each
#
# Environment: CCSIM_BUNDLE (default .device-bundle), GPUS (default: every GPU nvidia-smi lists).
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0): these hosts are shared.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
set -u
[ $# -ge 2 ] || { sed -n '2,25p' "$0"; exit 2; }
R=$(pwd); B=${CCSIM_BUNDLE:-$R/.device-bundle}; O=$1; shift
GPUS=${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
mkdir -p "$O"
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }

topo() {
  {
    nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
    echo; echo "== nvidia-smi topo -m"; nvidia-smi topo -m
    echo; echo "== nvidia-smi nvlink --status"; nvidia-smi nvlink --status 2>&1 | head -80
    echo; echo "== nvidia-smi -q (fabric, clocks)"; nvidia-smi -q | grep -i -E -A4 "^ *fabric|Max Clocks" | head -40
    echo; echo "== uname / cpus"; uname -a; nproc
  } > "$1/topo.txt" 2>&1
  grep -A6 "topo -m" "$1/topo.txt"
}

device() {  # device STEP DIR
  timeout 400 "$B/ccsim" device "$1" "$2" > "$2/$1.log" 2>&1; echo "device $1 rc=$?"
  grep -E "Exception|MISMATCH" "$2/$1.log" | head -8; tail -3 "$2/$1.log"
}

nccl_allreduce() {  # [SIZES...] -> $O/nccl.json unless OUT is set
  [ $# -gt 0 ] || set -- 1048576 16777216 134217728 536870912
  timeout 90 python3 "$R/tools/nccl_allreduce.py" "${OUT:-$O/nccl.json}" "$@" 2>&1 | grep -v Warning | tail -6
}

perf_json() {  # OP N MIN MAX FACTOR OUT [env...]
  op=$1 n=$2 b=$3 e=$4 f=$5 out=$6; shift 6
  env "$@" timeout 120 "$B/ccsim" perf --backend cuda --gpus "$n" --op "$op" -b "$b" -e "$e" -f "$f" --format json \
    > "$out" 2> "$out.err"
  echo "perf $* $op n=$n rc=$?"; grep -iE "error|exception" "$out.err" | head -2
}

holdout() {  # N: every op and the tree all-reduce at sizes the fits never saw, merged into one array
  P=$O/parts-n$1; mkdir -p "$P"
  for op in all_reduce all_gather reduce_scatter broadcast all_to_all sendrecv; do perf_json $op "$1" 12K 192M 4 "$P/$op.json"; done
  perf_json all_reduce "$1" 12K 192M 4 "$P/tree.json" NCCL_ALGO=Tree
  python3 -c 'import json,sys; print(json.dumps(sum((json.load(open(f)) for f in sorted(sys.argv[1:])), []), indent=1))' \
    "$P"/*.json > "$O/perf-n$1.json" && rm -rf "$P"
}

channels() {  # N OPS: forced ring channel counts, ccsim's kernels and NCCL's all-reduce
  P=$O/parts-channels; mkdir -p "$P"
  for ch in 4 8 12 16 24 32 48 64; do
    for proto in Simple LL128 LL; do
      for op in $(echo "$2" | tr , ' '); do
        perf_json "$op" "$1" 16M 256M 4 "$P/ccsim-$ch-$proto-$op.json" \
          NCCL_ALGO=Ring NCCL_PROTO=$proto NCCL_MIN_NCHANNELS=$ch NCCL_MAX_NCHANNELS=$ch
      done
    done
    for proto in Simple LL128; do
      NCCL_ALGO=Ring NCCL_PROTO=$proto NCCL_MIN_NCHANNELS=$ch NCCL_MAX_NCHANNELS=$ch OUT="$P/nccl-$ch-$proto.json" \
        nccl_allreduce 16777216 67108864 268435456
    done
  done
  rm -f "$P"/*.err; python3 "$R/tools/merge_parts.py" "$P" > "$O/channels.json" && rm -rf "$P"
  python3 "$R/tools/split_channels.py" "$O"   # ccsim-perf.json and nccl-perf.json, which `ccsim validate` reads
}

clocks() { nvidia-smi --query-gpu=index,clocks.sm,temperature.gpu,power.draw --format=csv,noheader; }

step() {  # STEP DIR
  case $1 in
    topo) topo "$2" ;;
    timing|matrix|calibrate|fidelity|alltoall|skew) device "$1" "$2" ;;
    nccl-p2p:*) NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT python3 tools/nccl-measure/p2p_protocol.py \
                  "$2/nccl-p2p-n${1#nccl-p2p:}.jsonl" --n "${1#nccl-p2p:}" > "$2/nccl-p2p-n${1#nccl-p2p:}.log" 2>&1
                echo "nccl-p2p:${1#nccl-p2p:} rc=$?" ;;
    registered:*) timeout 240 python3 "$R/tools/nccl-measure/registered_p2p.py" "$2/registered-n${1#registered:}" "${1#registered:}" \
                    > "$2/registered-n${1#registered:}.log" 2>&1; echo "registered:${1#registered:} rc=$?" ;;
    nccl-allreduce) nccl_allreduce ;;
    nccl-sendrecv) timeout 70 python3 "$R/tools/nccl-measure/measure.py" --out "$2/nccl-sendrecv" --ns 4 --ops sendrecv \
                     --modes default --budget-s 45 > "$2/nccl-sendrecv.log" 2>&1; echo "nccl-sendrecv rc=$?" ;;
    perf:*) perf_json "${1#perf:}" "$GPUS" 1M 512M 8 "$2/perf_${1#perf:}.json" ;;
    holdout:*) holdout "${1#holdout:}" ;;
    channels:*:*) n=${1#channels:}; channels "${n%%:*}" "${n#*:}" ;;
    repeat:*) for run in a b; do mkdir -p "$2/$run"; step "${1#repeat:}" "$2/$run"; clocks; done ;;
  esac
}

for s in "$@"; do  # refuse a typo before the lease's minutes go
  case ${s#repeat:} in
    topo|timing|matrix|calibrate|fidelity|alltoall|skew|nccl-allreduce|nccl-sendrecv|nccl-p2p:[0-9]*|registered:[0-9]*|perf:?*|holdout:[0-9]*|channels:[0-9]*:?*) ;;
    *) echo "run.sh: unknown step '$s'; valid: topo timing matrix calibrate fidelity alltoall skew nccl-allreduce" \
            "nccl-sendrecv nccl-p2p:N registered:N perf:OP holdout:N channels:N:OPS repeat:STEP" >&2; exit 2 ;;
  esac
done

{
  el "start $(date -u +%Y-%m-%dT%H:%M:%SZ): $*"
  for s in "$@"; do step "$s" "$O"; el "$s done"; done
} 2>&1 | tee "$O/run.log"
