package io.ccsim.algorithms.profile;

/**
 * NCCL's constants for NVLS (NVLink SHARP) by GPU architecture, NVIDIA/nccl v2.28.9 (src/graph/tuning.cc
 * ncclTopoTuneModel and its tables, src/graph/search.cc, src/transport/nvls.cc). NCCL's own numbers, not fitted.
 */
public final class NcclNvlsConstants {
    /*
     * Sources (v2.28.9):
     *  - nvlsEfficiency[arch]: Volta 0, Ampere 0, Hopper 0.85, Blackwell 0.74 (tuning.cc, file-static).
     *  - hwLat[NVLINK][NVLS][Simple] = 25 us, hwLat[NET][NVLS][Simple] = 18 us, hwLat[NET][NVLSTree][Simple] = 20.9 us,
     *    hwLat[NVLINK][NVLSTree][Simple] = 25 us; baseLat of NVLS and NVLSTree 0 (tuning.cc tables).
     *  - NVLS CTAs (nvlsChannels): sm90 16 (NVLS_NCHANNELS_SM90), sm100 24 on one host or NVLink domain,
     *    32 across several (nvls.cc ncclNvlsInit).
     *  - the NVLS graph search's speed ladders (search.cc): sm90 intra {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3},
     *    sm100 intra {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18} GB/s.
     *  - NCCL_MAX_NVLS_ARITY = 32 heads at most (device.h).
     * The simulator uses nvlsEfficiency as the share of a GPU's NVLink port bandwidth that its multimem traffic gets
     * (Fabric#nvlsPortLink): on 8 x H100 that gives 309 GB/s per GPU each way and 481 GB/s busbw for a large
     * all-reduce, against 480 measured (NVIDIA/nccl#1455: 420, 440, 460, 480 GB/s for 5 to 8 GPUs).
     */
    private NcclNvlsConstants() { }

    /** NCCL_MAX_NVLS_ARITY: the most NVLS heads. */
    public static final int MAX_HEADS = 32;

    /** NCCL's nvlsEfficiency for compute capability {@code cc}: 0.85 Hopper, 0.74 Blackwell, 0 before Hopper. */
    public static double efficiency(int cc) {
        return cc >= 100 ? 0.74 : cc >= 90 ? 0.85 : 0.0;
    }

    /** NVLS CTAs (channels) NCCL runs for compute capability {@code cc} on one node or on several. */
    public static int ctas(int cc, boolean multiNode) {
        return cc >= 100 ? (multiNode ? 32 : 24) : 16;
    }

    /** hwLat[NVLINK][NVLS][Simple] (= NVLSTree's), µs: NVLS's latency inside a node. */
    public static final double NVLINK_LATENCY_US = 25.0;
    /** hwLat[NET][NVLS][Simple], µs. */
    public static final double NET_LATENCY_US = 18.0;
    /** hwLat[NET][NVLSTree][Simple], µs (14 in 2.27 and 2.28.3). */
    public static final double TREE_NET_LATENCY_US = 20.9;

    private static final double[] SM90_INTRA_SPEEDS = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
    private static final double[] SM100_INTRA_SPEEDS = {90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18};

    /** The graph search's intra-node speed ladder, GB/s, fastest first. */
    public static double[] intraSpeeds(int cc) {
        return (cc >= 100 ? SM100_INTRA_SPEEDS : SM90_INTRA_SPEEDS).clone();
    }
}
