package io.ccsim.scenarios.format;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import java.util.List;
import java.util.Set;

/**
 * One statement of a rank's program (a training script reduced to what matters for collectives).
 * Every step may be limited to some ranks ({@link #only()} empty = all ranks), which is how a
 * scenario writes rank skew or a code path taken by one rank only.
 */
public sealed interface Step {
    /** Ranks that execute this step; empty = every rank. */
    Set<Integer> only();

    /** GPU work for {@code durationPs} ps (stretched by a slow-GPU fault). */
    record Compute(long durationPs, Set<Integer> only) implements Step {}

    /** CPU-side wait of {@code durationPs} ps (data loading, a sleep: not stretched by a slow GPU). */
    record Sleep(long durationPs, Set<Integer> only) implements Step {}

    /**
     * A collective on a process group ({@code dist.all_reduce(t, group=g)}), waited for before the
     * next step. {@code count} elements per rank of {@code dtype}; {@code comm} is the device key
     * of PyTorch's per-device communicator map (a new key = a new NCCL communicator in the group).
     * {@code checksum}: the rank records a checksum of its result (for corruption checks).
     */
    record Collective(CollectiveOp op, String group, long count, DataType dtype, String comm,
                      boolean checksum, Set<Integer> only) implements Step {}

    /** {@code dist.barrier(group)}: PyTorch runs it as a one-element all-reduce on the group. */
    record Barrier(String group, Set<Integer> only) implements Step {}

    /**
     * {@code dist.new_group(ranks)}: only metadata unless {@code eager} (device_id bound: the
     * communicator is created at once). {@code members}: the partition of the world into groups
     * (every rank calls new_group for each; a rank belongs to at most one part). {@code splitFrom}:
     * non-null to create the communicator with ncclCommSplit from that group's communicator.
     * {@code register}: torch.distributed registers the group in c10d's GroupRegistry under its name on
     * its members (true); false for a communicator created outside torch.distributed (nvFuser's
     * Communicator builds its teams' backends itself), which then needs {@link RegisterGroup}.
     */
    record NewGroup(String name, List<List<Integer>> members, boolean eager, String splitFrom, boolean register,
                    Set<Integer> only) implements Step {}

    /** {@code ncclCommAbort} on the group's communicators (the group becomes unusable). */
    record Abort(String group, Set<Integer> only) implements Step {}

    /** {@code destroy_process_group(group)}: communicators destroyed, buffers freed. */
    record Destroy(String group, Set<Integer> only) implements Step {}

    /**
     * Tensors allocated by PyTorch's caching allocator: {@code bytes} in use plus {@code cacheBytes}
     * reserved but unused (the allocator can release its own cache; NCCL's cudaMalloc cannot use it).
     */
    record Alloc(long bytes, long cacheBytes, Set<Integer> only) implements Step {}

    /** Tensors freed (returned to the caching allocator's cache). */
    record Free(long bytes, Set<Integer> only) implements Step {}

    /** Runs {@code then} or {@code otherwise} on the per-rank value {@code value} compared to {@code operand}. */
    record If(String value, Comparison cmp, double operand, List<Step> then, List<Step> otherwise,
              Set<Integer> only) implements Step {}

    /** {@code times} iterations of {@code body}; the outermost repeat counts training iterations from 0. */
    record Repeat(int times, List<Step> body, Set<Integer> only) implements Step {}

    /**
     * Saves a checkpoint (takes {@code durationPs}) at the end of every {@code every}-th training
     * iteration (iterations i with (i + 1) % every == 0); elastic restarts resume after the last one.
     */
    record Checkpoint(long durationPs, int every, Set<Integer> only) implements Step {}

    /**
     * {@code symm_mem.empty}: a symmetric tensor of {@code bytes} on this rank's GPU, named {@code tensor}
     * in the program, from the backend in force (which is fixed from the first allocation on).
     */
    record SymmAlloc(String tensor, long bytes, Set<Integer> only) implements Step {}

    /** {@code symm_mem.set_backend(name)}: an error once this rank allocated a symmetric tensor. */
    record SymmSetBackend(SymmBackend backend, Set<Integer> only) implements Step {}

    /**
     * {@code c10d::register_process_group(name, pg)} with a ProcessGroup wrapper of the group's
     * communicator built on this rank. On a rank outside the group the wrapper gets rank = group size
     * (the position a search of the rank in the team ends at) and a null backend, unless
     * {@code membersOnly} (the membership guard) skips it there.
     */
    record RegisterGroup(String group, String name, boolean membersOnly, Set<Integer> only) implements Step {}

    /**
     * {@code symm_mem.rendezvous(tensor, group_name)}: resolves {@code groupName} in this rank's c10d
     * GroupRegistry (the NCCL, NVSHMEM and CUDA backends), exchanges handles through the store and
     * barriers; {@code group} is the scenario group the handle is kept under. A rank outside the group
     * with nothing registered under the name skips it.
     */
    record SymmRendezvous(String tensor, String group, String groupName, Set<Integer> only) implements Step {}

    /** {@code torch.ops.symm_mem.one_shot_all_reduce} / {@code two_shot_all_reduce_} (sum) of a rendezvoused tensor. */
    record SymmAllReduce(String tensor, String group, SymmAlgo algo, DataType dtype, Set<Integer> only) implements Step {}

    /** PyTorch's symmetric-memory all-reduce kernels. */
    enum SymmAlgo {
        /** Every rank loads the whole buffer of every peer and reduces locally. */
        ONE_SHOT,
        /** Rank r reduces slice r from every peer, then stores it into every peer's buffer. */
        TWO_SHOT;

        /** The name in scenario files. */
        public String id() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** Comparisons of {@link If}. */
    enum Comparison {
        GT, GE, LT, LE, EQ, NE;

        public boolean test(double a, double b) {
            switch (this) {
                case GT: return a > b;
                case GE: return a >= b;
                case LT: return a < b;
                case LE: return a <= b;
                case EQ: return a == b;
                default: return a != b;
            }
        }
    }
}
