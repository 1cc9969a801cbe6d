package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.plan.NvlsSupport;
import io.ccsim.algorithms.profile.NcclNvlsConstants;

import java.util.Optional;

/**
 * NCCL's cost model and enable rules for NVLSTree (NVLS inside each node, a tree across nodes; NVIDIA/nccl v2.28.9
 * src/graph/tuning.cc ncclTopoTuneModel; src/enqueue.cc topoGetAlgoInfo).
 */
final class NvlsTreeModel {
    /*
     * With H heads and the NVLS graph's bwIntra and bwInter:
     *   intraBw = bwIntra × nvlsEfficiency × (H − 1)/H × 2            (as NVLS all-reduce)
     *   interBw = bwInter × (nNodes ≤ 2 ? 2 : 1)                       ("Handle 2 node case of NVLSTree")
     *   busBw   = H × min(intraBw, interBw, perChMaxNVLSTreeBw[arch][nNodes == 2 ? 1 : 2])
     *             perChMaxNVLSTreeBws: Hopper {0, 57.7, 45.5}, Blackwell {0, 96.0, 43.8} (80.0 from 2.30)
     *   bandwidth = busBw × n / (2(n − 1))
     *   latency = hwLat[NVLINK][NVLSTree][Simple] + 2 × log2i(nNodes) × hwLat[NET][NVLSTree][Simple]
     *           = 25 + 2 × log2i(nNodes) × 20.9 µs (no network latency in ccsim's graphs)
     * NVLSTree is off on one node and implements all-reduce only; Simple only; NVLS's CTA count.
     * 2 × 8 H100 (H = 8, bwIntra 40, bwInter 48): 8 × min(59.5, 96, 57.7) = 461.6 GB/s busBw.
     */
    private NvlsTreeModel() { }

    private static final double[] HOPPER_CAPS = {0.0, 57.7, 45.5};
    private static final double[] BLACKWELL_CAPS = {0.0, 96.0, 43.8};

    /** Why NVLSTree is not a candidate for {@code in} under {@code env}, or empty. */
    static Optional<String> refusal(TuneInput in, NcclEnv env) {
        if (env.nvlsEnable() == 0) return Optional.of("disabled by NCCL_NVLS_ENABLE=0");
        if (in.op() != CollectiveOp.ALL_REDUCE) return Optional.of("NVLSTree implements all_reduce only");
        if (in.nNodes() == 1) return Optional.of("NCCL runs NVLSTree across nodes only");
        if (!in.nvls().available()) return in.nvls().refusal();
        return NvlsSupport.refusal(in.op(), in.dtype(), in.redop()).map(r -> r.replace("NVLS", "NVLSTree"));
    }

    /** The algorithm bandwidth NCCL's tuner stores for NVLSTree, GB/s. */
    static double bandwidthGBs(TuneInput in) {
        NvlsGraph g = in.nvls();
        int h = g.heads();
        double intra = g.bwIntraGBs() * NcclNvlsConstants.efficiency(g.cc()) * (h - 1) / h * 2;
        double inter = g.bwInterGBs() * (in.nNodes() <= 2 ? 2 : 1);
        double cap = (g.cc() >= 100 ? BLACKWELL_CAPS : HOPPER_CAPS)[in.nNodes() == 2 ? 1 : 2];
        double busBw = h * Math.min(Math.min(intra, inter), cap);
        int n = in.nRanks();
        return busBw * n / (2.0 * (n - 1));
    }

    /** NCCL's NVLSTree latency, µs. */
    static double latencyUs(TuneInput in) {
        int log2Nodes = 31 - Integer.numberOfLeadingZeros(in.nNodes());
        return NcclNvlsConstants.NVLINK_LATENCY_US + 2.0 * log2Nodes * NcclNvlsConstants.TREE_NET_LATENCY_US;
    }
}
