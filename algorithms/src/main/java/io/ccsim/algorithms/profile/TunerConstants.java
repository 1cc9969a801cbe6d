package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Protocol;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The bandwidth refinements of NCCL's cost model (src/graph/tuning.cc, ncclTopoTuneModel and
 * ncclTopoGetAlgoTime, NVIDIA/nccl commit 5067397c), as numbers a fit may replace. All bandwidths are
 * GB/s (1e9 B/s) of bus bandwidth as NCCL defines it in the tuner; the efficiencies and factors are in (0, 1]. The
 * canonical constructor throws {@link IllegalArgumentException} naming the field of a value out of range.
 *
 * @param llMaxBwGbps                 cap on the total ring/tree LL bus bandwidth ({@code llMaxBws[index1][index2]})
 * @param treeMaxChannelBwGbps        per-channel cap of tree all-reduce ({@code perChMaxTreeBws})
 * @param treeLl128MaxChannelBwGbps   per-channel cap of tree LL128 ({@code perChMaxTreeLL128Bws})
 * @param ringLl128MaxChannelBwGbps   per-channel cap of ring LL128 ({@code perChMaxRingLL128Bws}: Hopper 36.7 at every
 *                                    node count, Blackwell 73.4 / 34.6 / 73.4)
 * @param ll128Efficiency             ring LL128 bandwidth factor (NCCL 0.92, "120.0/128.0" in its comment)
 * @param treeEfficiency              tree all-reduce bandwidth factor (NCCL 0.92)
 * @param treeLlFactor                tree LL bandwidth factor (NCCL 1/3.8)
 * @param treeLl128IntraEfficiency    tree LL128 factor on one node (NCCL 7/9)
 * @param treeLl128InterEfficiency    tree LL128 factor on several nodes (NCCL 120/128)
 * @param netOverheadUs               per-step network post overhead, µs, finite, ≥ 0 (getNetOverhead: 1.0 Intel,
 *                                    2.0 AMD), tripled for Simple
 * @param ringPlateauFactor           latency factor of multi-node ring Simple all-reduce when each rank's
 *                                    per-channel share is at least 64 B, finite, &gt; 0 (NCCL 1.4 for compCap >= 80)
 * @param treeCorrection              per protocol (every protocol present), {@value #TREE_CORRECTION_ENTRIES} factors,
 *                                    each finite and &gt; 0, applied to tree all-reduce bandwidth for sizes 64 B·2^i,
 *                                    i = log2(nBytes/64) ({@code treeCorrectionFactor})
 */
public record TunerConstants(ByNodeCount llMaxBwGbps, ByNodeCount treeMaxChannelBwGbps,
                             ByNodeCount treeLl128MaxChannelBwGbps, ByNodeCount ringLl128MaxChannelBwGbps,
                             double ll128Efficiency, double treeEfficiency,
                             double treeLlFactor, double treeLl128IntraEfficiency, double treeLl128InterEfficiency,
                             double netOverheadUs, double ringPlateauFactor,
                             Map<Protocol, List<Double>> treeCorrection) {

    /** Number of entries of each {@link #treeCorrection()} list (NCCL: powers of two from 64 B to 512 MiB). */
    public static final int TREE_CORRECTION_ENTRIES = 24;

    public TunerConstants {
        Profiles.requireFraction(ll128Efficiency, "ll128Efficiency");
        Profiles.requireFraction(treeEfficiency, "treeEfficiency");
        Profiles.requireFraction(treeLlFactor, "treeLlFactor");
        Profiles.requireFraction(treeLl128IntraEfficiency, "treeLl128IntraEfficiency");
        Profiles.requireFraction(treeLl128InterEfficiency, "treeLl128InterEfficiency");
        Profiles.requireNonNegative(netOverheadUs, "netOverheadUs");
        Profiles.requirePositive(ringPlateauFactor, "ringPlateauFactor");
        EnumMap<Protocol, List<Double>> copy = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            List<Double> l = treeCorrection.get(p);
            if (l == null || l.size() != TREE_CORRECTION_ENTRIES) {
                throw new IllegalArgumentException("treeCorrection." + p.ncclName() + " must have "
                        + TREE_CORRECTION_ENTRIES + " factors, got " + (l == null ? "none" : l.size()));
            }
            for (int i = 0; i < l.size(); i++) {
                Profiles.requirePositive(l.get(i), "treeCorrection." + p.ncclName() + "[" + i + "]");
            }
            copy.put(p, List.copyOf(l));
        }
        treeCorrection = Collections.unmodifiableMap(copy);
    }

    /** Tree all-reduce correction factor for protocol {@code p} at index {@code logSize}. */
    public double treeCorrection(Protocol p, int logSize) { return treeCorrection.get(p).get(logSize); }
}
