package io.ccsim.algorithms.profile;

/**
 * NCCL's tuner constants for Blackwell (compCap 100: B200, GB200), for the built-in B200 profile. Cited to
 * NVIDIA/nccl v2.28.9-1 src/graph/tuning.cc, {@code ncclTunerConstantsDefaults} (lines 142-198): the Blackwell rows of
 * its per-architecture tables; ncclTopoTuneModel picks the row by the communicator's least compute capability
 * ({@code compCapIndex}) and the column by node count (N1, N2, N3+). Everything else NCCL's tuner reads (latencies,
 * efficiencies, the tree correction) is the same for every architecture: {@link NcclHopperConstants}.
 */
final class NcclBlackwellConstants {
    private NcclBlackwellConstants() {}

    /**
     * llMaxBws, GB/s: one node reads the GPU's row (Blackwell: 2 × 141.0); several nodes read the CPU's row, whose
     * Intel (and Arm) entries are 39.0 for N2 and 20.4 for N3+, as on Hopper.
     */
    static final ByNodeCount LL_MAX_BW = new ByNodeCount(2 * 141.0, 39.0, 20.4);
    /** perChMaxRingLL128Bws Blackwell, GB/s: {@code {2*36.7, 34.6, 2*36.7}}. */
    static final ByNodeCount RING_LL128_PER_CH_MAX_BW = new ByNodeCount(2 * 36.7, 34.6, 2 * 36.7);
    /** perChMaxTreeLL128Bws Blackwell, GB/s. */
    static final ByNodeCount TREE_LL128_PER_CH_MAX_BW = new ByNodeCount(55.6, 31.67, 20.0);
    /** perChMaxTreeBws Blackwell, GB/s. */
    static final ByNodeCount TREE_PER_CH_MAX_BW = new ByNodeCount(70.0, 42.8, 24.0);

    /** NCCL's Blackwell tuner constants as a {@link TunerConstants}. */
    static TunerConstants tunerConstants() {
        TunerConstants h = NcclHopperConstants.tunerConstants();
        return new TunerConstants(LL_MAX_BW, TREE_PER_CH_MAX_BW, TREE_LL128_PER_CH_MAX_BW, RING_LL128_PER_CH_MAX_BW,
                h.ll128Efficiency(), h.treeEfficiency(), h.treeLlFactor(), h.treeLl128IntraEfficiency(),
                h.treeLl128InterEfficiency(), h.netOverheadUs(), h.ringPlateauFactor(), h.treeCorrection());
    }
}
