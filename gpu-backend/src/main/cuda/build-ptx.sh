#!/usr/bin/env bash
# Compiles ccsim_prims.cu to one PTX module per element type (nvcc -ptx -arch=sm_90 -O3) into
# src/main/resources/io/ccsim/gpu/, each headed by the sha256 of the source it came from, and writes
# ptx-manifest.properties (source sha256, nvcc version, and each PTX's sha256). PtxManifestTest fails
# when the .cu changed and this script was not run again. Run from anywhere; needs nvcc.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../resources/io/ccsim/gpu"
src="$here/ccsim_prims.cu"
mkdir -p "$out"
sha=$(sha256sum "$src" | cut -d' ' -f1)
nvccv=$(nvcc --version | tail -1)
types="i8 u8 i32 u32 i64 u64 f16 bf16 f32 f64 f8e4m3 f8e5m2"
for t in $types; do
  (
    tmp=$(mktemp)
    nvcc -ptx -arch=sm_90 -O3 -DCCSIM_TYPE_$t -o "$tmp" "$src"
    { echo "// ccsim-source: ccsim_prims.cu sha256=$sha type=$t"; cat "$tmp"; } > "$out/ccsim_$t.ptx"
    rm -f "$tmp"
  ) &
  while [ "$(jobs -r | wc -l)" -ge 2 ]; do sleep 0.2; done
done
wait
{
  echo "# written by src/main/cuda/build-ptx.sh; do not edit"
  echo "source=ccsim_prims.cu"
  echo "source.sha256=$sha"
  echo "nvcc=$nvccv"
  echo "flags=-ptx -arch=sm_90 -O3"
  echo "types=$types"
  for t in $types; do echo "ptx.$t.sha256=$(sha256sum "$out/ccsim_$t.ptx" | cut -d' ' -f1)"; done
} > "$out/ptx-manifest.properties"
echo "wrote $(echo $types | wc -w) PTX modules to $out"
