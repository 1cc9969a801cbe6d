/**
 * Typed element buffers ({@link io.ccsim.algorithms.data.ElementBuffer}, raw bits per element),
 * narrow float formats written from their definitions ({@link io.ccsim.algorithms.data.MiniFloat}:
 * float16, bfloat16, fp8 e4m3/e5m2 with round-to-nearest-even and CUDA satfinite), and NCCL's
 * reductions on every data type ({@link io.ccsim.algorithms.data.Reduction}).
 */
package io.ccsim.algorithms.data;
