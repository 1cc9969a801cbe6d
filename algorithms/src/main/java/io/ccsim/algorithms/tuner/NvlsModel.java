package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.plan.NvlsSupport;
import io.ccsim.algorithms.profile.NcclNvlsConstants;

import java.util.Optional;

/**
 * NCCL's cost model and enable rules for NVLS inside one NVLink domain (NVIDIA/nccl v2.28.9, src/graph/tuning.cc
 * ncclTopoTuneModel and ncclTopoGetAlgoTime; src/enqueue.cc updateCollCostTable and topoGetAlgoInfo).
 */
final class NvlsModel {
    /*
     * With H heads, the NVLS graph's bwIntra and bwInter (NvlsGraph) and ppn ranks per node:
     *   intraBw = bwIntra × nvlsEfficiency × (H − 1)/H × (all-reduce: 2, "pipelines two operations";
     *             all-gather, reduce-scatter: (ppn − 1)/ppn)
     *   busBw   = H × min(intraBw, bwInter)
     *   bandwidth = busBw × n / (2(n − 1)) for all-reduce; all-gather and reduce-scatter are not converted
     *               (their nBytes is the whole buffer)
     *   latency = hwLat[NVLINK][NVLS][Simple] = 25 µs on one node (baseLat 0)
     *   time    = latency + nBytes / (1000 × bandwidth) µs
     * Channels: the NVLS CTA count, never reduced by size (enqueue.cc: "NVLS should not need more than 16 channels to
     * get peak BW"). Simple only. On 8 × H100 (H = 8, bwIntra 40, bwInter 60): 8 × min(59.5, 60) = 476 GB/s busBw,
     * 272 GB/s algorithm bandwidth.
     */
    private NvlsModel() { }

    /** Why NVLS is not a candidate for {@code in} under {@code env}, or empty. */
    static Optional<String> refusal(TuneInput in, NcclEnv env) {
        if (env.nvlsEnable() == 0) return Optional.of("disabled by NCCL_NVLS_ENABLE=0");
        if (!in.nvls().available()) return in.nvls().refusal();
        if (in.nNodes() > 1) {
            return Optional.of("NVLS across nodes runs with IB SHARP through CollNet (NCCL_COLLNET_ENABLE=1), which ccsim"
                    + " does not implement for NVLS; NVLSTree is NCCL's multi-node form without it");
        }
        Optional<String> data = NvlsSupport.refusal(in.op(), in.dtype(), in.redop());
        if (data.isPresent()) return data;
        if (in.op() != CollectiveOp.ALL_REDUCE && in.gpusPerNode() > NcclNvlsConstants.MAX_HEADS) {
            return Optional.of("NVLS " + in.op().cliName() + " needs at most " + NcclNvlsConstants.MAX_HEADS
                    + " ranks per node (NCCL_MAX_NVLS_ARITY)");
        }
        return Optional.empty();
    }

    /** The algorithm bandwidth NCCL's tuner stores for NVLS, GB/s. */
    static double bandwidthGBs(TuneInput in) {
        NvlsGraph g = in.nvls();
        int h = g.heads();
        double intra = g.bwIntraGBs() * NcclNvlsConstants.efficiency(g.cc()) * (h - 1) / h;
        if (in.op() == CollectiveOp.ALL_REDUCE) intra *= 2;
        else intra *= (double) (in.gpusPerNode() - 1) / in.gpusPerNode();
        double busBw = h * Math.min(intra, g.bwInterGBs());
        int n = in.nRanks();
        return in.op() == CollectiveOp.ALL_REDUCE ? busBw * n / (2.0 * (n - 1)) : busBw;
    }

    /** NCCL's NVLS latency on one node, µs. */
    static double latencyUs() { return NcclNvlsConstants.NVLINK_LATENCY_US; }
}
