package io.ccsim.algorithms.tuner;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * What NCCL's CollNet graph searches (src/graph/search.cc, NVIDIA/nccl v2.28.9) find for a communicator on a SHARP
 * network, or why there is no CollNet: the graphs NCCL's tuner reads for CollNetDirect and CollNetChain.
 *
 * @param headLocals      CollNetDirect heads: local indices (ascending) of the GPUs of a host with a NIC of their own,
 *                        one per NIC (the NIC's local GPU; NCCL's netHeads); empty without CollNet
 * @param directChannels  the CollNetDirect graph's channels (heads, one GPU per NIC, duplicated as the search does)
 * @param directBwGBs     its {@code bwIntra} (= {@code bwInter}), GB/s per channel
 * @param chainChannels   the CollNetChain graph's channels (as many as the ring graph's)
 * @param chainBwGBs      its {@code bwIntra}, GB/s per channel
 * @param nvSwitch        whether the node has an NVSwitch (CollNetDirect needs one, tuning.cc {@code nvsCount})
 * @param refusal         why there is no SHARP network (empty when there is one)
 */
public record CollNetGraph(int[] headLocals, int directChannels, double directBwGBs, int chainChannels, double chainBwGBs,
                           boolean nvSwitch, Optional<String> refusal) {

    public CollNetGraph {
        Objects.requireNonNull(refusal, "refusal");
        Objects.requireNonNull(headLocals, "headLocals");
        headLocals = headLocals.clone();
        if (refusal.isEmpty() && (headLocals.length < 1 || directChannels < 1 || chainChannels < 1 || !(directBwGBs > 0)
                || !(chainBwGBs > 0))) {
            throw new IllegalArgumentException("a CollNet graph needs >= 1 head and channel and bandwidth > 0, got "
                    + headLocals.length + " heads, direct " + directChannels + " x " + directBwGBs + ", chain "
                    + chainChannels + " x " + chainBwGBs);
        }
    }

    /** No SHARP network, for {@code reason}. */
    public static CollNetGraph none(String reason) {
        return new CollNetGraph(new int[0], 0, 0, 0, 0, false, Optional.of(reason));
    }

    /** Whether the communicator's network can reduce (SHARP-capable switches on every NIC's path). */
    public boolean available() { return refusal.isEmpty(); }

    /** NCCL's {@code collNetHeadsNum}: the CollNetDirect heads per node. */
    public int heads() { return headLocals.length; }

    @Override public int[] headLocals() { return headLocals.clone(); }

    @Override
    public boolean equals(Object o) {
        return o instanceof CollNetGraph g && Arrays.equals(g.headLocals, headLocals) && g.directChannels == directChannels
                && g.directBwGBs == directBwGBs && g.chainChannels == chainChannels && g.chainBwGBs == chainBwGBs
                && g.nvSwitch == nvSwitch && g.refusal.equals(refusal);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(headLocals), directChannels, directBwGBs, chainChannels, chainBwGBs, nvSwitch,
                refusal);
    }

    @Override
    public String toString() {
        return "CollNetGraph[heads " + Arrays.toString(headLocals) + ", direct " + directChannels + " x " + directBwGBs
                + ", chain " + chainChannels + " x " + chainBwGBs + (nvSwitch ? ", NVSwitch" : "")
                + refusal.map(r -> ", none: " + r).orElse("") + "]";
    }
}
