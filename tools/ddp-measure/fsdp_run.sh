set -x
export NCCL_NVLS_ENABLE=0
nvidia-smi -L; nvidia-smi topo -m > $OUT/topo.txt
for shape in "24 1024 4096" "12 2048 8192" "48 512 4096"; do
  set -- $shape
  timeout 150 python3 tools/ddp-measure/fsdp_step.py $OUT/fsdp-n4-L$1-d$2-B$3.json $1 $2 $3 || echo FAIL n4 $shape
  CUDA_VISIBLE_DEVICES=0,1 timeout 150 python3 tools/ddp-measure/fsdp_step.py $OUT/fsdp-n2-L$1-d$2-B$3.json $1 $2 $3 || echo FAIL n2 $shape
done
ls -la $OUT
