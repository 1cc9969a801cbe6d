# Sourced by nccl_tests.sh, harness.sh and mp_graph.sh.
#
# nccl_tests_setup USAGE "$@": the script's arguments NCCL_TESTS_SRC OUTDIR [N ...] as SRC, O (made, absolute) and NS
# (default "4 2"), and a scratch folder W; without two arguments it prints the lines USAGE (a sed range) of the
# calling script and exits 2.
nccl_tests_setup() {
  u=$1; shift
  [ $# -ge 2 ] || { sed -n "$u" "$0"; exit 2; }
  SRC=$(cd "$1" && pwd); O=$2; shift 2
  NS=${*:-4 2}
  mkdir -p "$O"; O=$(cd "$O" && pwd)
  W=$(mktemp -d)
}

# build_nccl_tests SRC W O "BINS" builds nccl-tests' BINS (e.g. "alltoall
# sendrecv"; no MPI, sm_90) from the source tree SRC into W/build against the NCCL in PyTorch's nvidia-nccl wheel
# (never a system NCCL the compiler would find first), logging to O/build.log, and puts that NCCL on LD_LIBRARY_PATH.
build_nccl_tests() {
  # PyTorch's NCCL (the nvidia-nccl wheel, a namespace package)
  NCCL=$(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "nccl"))')
  [ -f "$NCCL/include/nccl.h" ] || { echo "no nccl.h under $NCCL: is PyTorch's nvidia-nccl wheel installed?" >&2; exit 1; }
  mkdir -p "$2/home/lib"; ln -s "$NCCL/include" "$2/home/include"
  for f in "$NCCL"/lib/libnccl.so*; do ln -s "$f" "$2/home/lib/"; done
  ln -sf "$NCCL/lib/libnccl.so.2" "$2/home/lib/libnccl.so"
  make -j"$(nproc)" -C "$1/src" MPI=0 NCCL_HOME="$2/home" NVCC_GENCODE="-gencode=arch=compute_90,code=sm_90" \
      BUILDDIR="$2/build" build BIN_FILES_LIST="$4" > "$3/build.log" 2>&1 || { tail -20 "$3/build.log"; exit 1; }
  export LD_LIBRARY_PATH="$2/home/lib:${LD_LIBRARY_PATH:-}"
}
