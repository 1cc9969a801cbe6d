package io.ccsim.algorithms.perf;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

/**
 * One line of {@code ccsim perf}: nccl-tests' columns plus the algorithm, protocol and channel count.
 *
 * @param op        the collective
 * @param bytes     nccl-tests' {@code size}: the buffer for all-reduce, broadcast, reduce, send/recv; the
 *                  gathered output for all-gather; the scattered input for reduce-scatter; the bytes each
 *                  rank sends in total for all-to-all
 * @param count     nccl-tests' {@code count}: elements per rank (per peer for all-to-all)
 * @param dtype     element type
 * @param redop     reduction, or null for ops without one (printed {@code none})
 * @param root      root rank, or −1 for ops without one
 * @param algo      algorithm that ran
 * @param proto     protocol that ran
 * @param channels  channels that ran
 * @param timeUs    time of one collective, µs
 * @param algbwGbps bytes / time, GB/s (1 GB = 1e9 B)
 * @param busbwGbps algbw × nccl-tests' bus factor for the op and rank count
 */
public record PerfRow(CollectiveOp op, long bytes, long count, DataType dtype, ReduceOp redop, int root,
                      Algorithm algo, Protocol proto, int channels, double timeUs, double algbwGbps, double busbwGbps) {
}
