package io.ccsim.algorithms.profile;

import io.ccsim.algorithms.Protocol;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * NCCL's tuner constants for Hopper (compCap 90), as the starting point of the built-in H100/H200
 * profiles. Every number is cited to NVIDIA/nccl src/graph/tuning.cc at commit
 * 5067397c2676d5aed50042fc39e5c8ee96eb0027 (master, 2026-06; the constants are unchanged since
 * NCCL 2.2x for Hopper). Line numbers refer to that file.
 *
 * <p>Numbers that NCCL does not have (kernel launch, step overhead, reduce/copy throughput, link
 * efficiency, the per-channel limits of LL and Simple) are ccsim estimates passed in by the caller and
 * marked as such in the resource files; the lead fits them to measurements.
 */
final class NcclHopperConstants {
    private NcclHopperConstants() {}

    /** Ring baseLat LL/LL128/Simple, µs — line 151 ({@code {6.6, 14.0, 8.4}}, second triple). */
    private static final double[] RING_BASE_LAT_US = {6.6, 14.0, 8.4};
    /** Tree baseLat LL/LL128/Simple, µs — line 151 ({@code {6.8, 14.0, 8.4}}, first triple). */
    private static final double[] TREE_BASE_LAT_US = {6.8, 14.0, 8.4};
    /** Ring hwLat NVLINK LL/LL128/Simple, µs — line 159. */
    private static final double[] RING_NVLINK_LAT_US = {0.6, 1.9, 3.4};
    /** Tree hwLat NVLINK LL/LL128/Simple, µs — line 159. */
    private static final double[] TREE_NVLINK_LAT_US = {0.6, 1.25, 4.0};
    /** Ring hwLat PCI LL/LL128/Simple, µs — line 165. */
    private static final double[] RING_PCI_LAT_US = {1.0, 2.5, 5.7};
    /** Tree hwLat PCI LL/LL128/Simple, µs — line 165. */
    private static final double[] TREE_PCI_LAT_US = {1.0, 1.9, 4.0};
    /** Ring hwLat NET LL/LL128/Simple, µs — line 171. */
    private static final double[] RING_NET_LAT_US = {2.7, 4.0, 14.0};
    /** Tree hwLat NET LL/LL128/Simple, µs — line 171. */
    private static final double[] TREE_NET_LAT_US = {5.0, 8.5, 14.0};
    /**
     * llMaxBw, GB/s: one node uses the Hopper row (line 181, 141.0); several nodes use the CPU row, Intel
     * (line 179: 39.0 for N2, 20.4 for N4) — ncclTopoTuneModel lines 269-272.
     */
    public static final ByNodeCount LL_MAX_BW = new ByNodeCount(141.0, 39.0, 20.4);
    /** perChMaxRingLL128Bws Hopper, GB/s — line 188 (36.7 at every node count). */
    public static final double RING_LL128_PER_CH_MAX_BW = 36.7;
    /** {@link #RING_LL128_PER_CH_MAX_BW} by node count. */
    public static final ByNodeCount RING_LL128_PER_CH_MAX = new ByNodeCount(RING_LL128_PER_CH_MAX_BW,
            RING_LL128_PER_CH_MAX_BW, RING_LL128_PER_CH_MAX_BW);
    /** perChMaxTreeLL128Bws Hopper N1/N2/N4, GB/s — line 195. */
    public static final ByNodeCount TREE_LL128_PER_CH_MAX_BW = new ByNodeCount(36.7, 36.7, 29.0);
    /** perChMaxTreeBws Hopper N1/N2/N4, GB/s — line 202. */
    public static final ByNodeCount TREE_PER_CH_MAX_BW = new ByNodeCount(38.7, 41.4, 36.0);
    /** Ring LL128 bandwidth factor — line 329 ({@code 0.92 /*120.0/128.0*}{@code /}). */
    public static final double LL128_EFFICIENCY = 0.92;
    /** Tree all-reduce bandwidth factor — line 331. */
    public static final double TREE_EFFICIENCY = 0.92;
    /** Tree LL bandwidth factor — line 332 ({@code busBw * 1.0 / 3.8}). */
    public static final double TREE_LL_FACTOR = 1.0 / 3.8;
    /** Tree LL128 factor, one node — line 335 ({@code 7.0 / 9.0}). */
    public static final double TREE_LL128_INTRA = 7.0 / 9.0;
    /** Tree LL128 factor, several nodes — line 335 ({@code 120.0 / 128.0}). */
    public static final double TREE_LL128_INTER = 120.0 / 128.0;
    /** getNetOverhead for x86 Intel, µs — line 230 (AMD: 2.0, line 231). */
    public static final double NET_OVERHEAD_US = 1.0;
    /** Ring Simple multi-node all-reduce plateau factor for compCap >= 80 — line 649. */
    public static final double RING_PLATEAU = 1.4;
    /** treeCorrectionFactor, LL / LL128 / Simple — lines 624-626. */
    private static final double[][] TREE_CORRECTION = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}
    };

    /** NCCL's Hopper tuner constants as a {@link TunerConstants}. */
    public static TunerConstants tunerConstants() {
        EnumMap<Protocol, List<Double>> corr = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            double[] row = TREE_CORRECTION[p.ordinal()];
            Double[] boxed = new Double[row.length];
            for (int i = 0; i < row.length; i++) boxed[i] = row[i];
            corr.put(p, List.of(boxed));
        }
        return new TunerConstants(LL_MAX_BW, TREE_PER_CH_MAX_BW, TREE_LL128_PER_CH_MAX_BW, RING_LL128_PER_CH_MAX,
                LL128_EFFICIENCY, TREE_EFFICIENCY, TREE_LL_FACTOR, TREE_LL128_INTRA, TREE_LL128_INTER, NET_OVERHEAD_US,
                RING_PLATEAU, corr);
    }

    /** NCCL's tree latencies (baseLat, hwLat of NCCL_ALGO_TREE) per protocol. */
    public static Map<Protocol, LatencyCosts> treeLatencies() {
        EnumMap<Protocol, LatencyCosts> m = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            int i = p.ordinal();
            m.put(p, new LatencyCosts(TREE_BASE_LAT_US[i], TREE_NVLINK_LAT_US[i], TREE_PCI_LAT_US[i],
                    TREE_NET_LAT_US[i]));
        }
        return m;
    }

    /**
     * Ring protocol costs from NCCL's ring latencies, with the caller's estimates for what NCCL does not
     * tabulate. The LL128 per-channel limit is NCCL's ring LL128 cap expressed before the 0.92 factor:
     * {@code 36.7 / 0.92} GB/s, so that {@code min(bw, cap) × 0.92 = min(bw × 0.92, 36.7)} as on line 329.
     *
     * @param llSimpleMaxChannelBw per-channel limit of LL and Simple (ccsim estimate), GB/s, by ordinal
     *                             (the LL128 entry is ignored)
     */
    public static Map<Protocol, ProtocolCosts> ringProtocols(double[] llSimpleMaxChannelBw) {
        EnumMap<Protocol, ProtocolCosts> m = new EnumMap<>(Protocol.class);
        for (Protocol p : Protocol.values()) {
            int i = p.ordinal();
            double cap = p == Protocol.LL128 ? RING_LL128_PER_CH_MAX_BW / LL128_EFFICIENCY : llSimpleMaxChannelBw[i];
            m.put(p, new ProtocolCosts(RING_BASE_LAT_US[i], cap,
                    Profiles.linkMap(RING_NVLINK_LAT_US[i], RING_PCI_LAT_US[i], RING_NET_LAT_US[i])));
        }
        return m;
    }
}
