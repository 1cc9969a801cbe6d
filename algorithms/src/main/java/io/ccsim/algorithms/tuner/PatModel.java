package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.ReduceOp;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;
import io.ccsim.algorithms.Protocol;

import java.util.Optional;

/**
 * NCCL's cost model and enable rules for PAT all-gather and reduce-scatter (NVIDIA/nccl v2.28.9,
 * src/graph/tuning.cc ncclPatEnable, ncclTopoTuneModel and ncclTopoGetAlgoTime; src/enqueue.cc
 * updateCollCostTable and topoGetAlgoInfo).
 */
final class PatModel {
    /*
     * PAT reads the tree graph (init.cc graphs[]: PAT uses the TREE graph), whose channels and per-channel
     * bandwidths are the tuner input's; N nodes = n ranks:
     *   busBw   = nc × (N ≤ 2 ? bwIntra : bwInter) × 0.75                                   (tuning.cc l.306-310)
     *   no bus → algorithm conversion (PAT all-gather / reduce-scatter; nBytes is the whole buffer)
     *   latency = baseLat[PAT][Simple] (8 µs) + log2i(N) × interLat / 3.5 + n × 2.8 µs      (l.396-400)
     *   interLat = hwLat[NET][Tree][Simple] (ppn = 1: the tree's, 14 µs on Hopper) + 2 × latencyInter
     *   time    = latency + nBytes / (1000 × busBw) µs
     * Simple only. Channels: PAT has no maxThreads entry, so topoGetAlgoInfo's size loops leave the communicator's
     * channel count (640 threads). Enable (ncclPatEnable): compute capability ≥ 6.0, then NCCL_PAT_ENABLE 0 or 1 as
     * set, 2 (default) only when nNodes == nRanks and the network is a host network (ccsim models no device-offload
     * network). Reduce-scatter skips PAT for PreMulSum and SumPostDiv (avg) (enqueue.cc updateCollCostTable).
     */
    /** baseLat[PAT][*] (tuning.cc ncclTunerConstantsDefaults), µs. */
    static final double BASE_LATENCY_US = 8.0;
    /** The divisor of the network latency per tree level (tuning.cc l.398). */
    static final double INTER_LATENCY_DIVISOR = 3.5;
    /** The per-rank latency term, µs (tuning.cc l.398: "still a linear part"). */
    static final double PER_RANK_US = 2.8;
    /** PAT's share of the tree graph's bandwidth (tuning.cc l.310). */
    static final double BANDWIDTH_FACTOR = 0.75;
    /** PAT needs CUDA atomics of sm60 (ncclPatEnable). */
    static final int MIN_COMPUTE_CAPABILITY = 60;

    private PatModel() { }

    /**
     * Why PAT is not a candidate for {@code in}, or empty.
     *
     * @throws TunerException if NCCL_PAT_ENABLE=1 forces PAT onto a communicator with several ranks on a node, where
     *                        NCCL builds no PAT connections
     */
    static Optional<String> refusal(TuneInput in, NcclEnv env, CalibrationProfile profile) {
        if (profile.computeCapability() < MIN_COMPUTE_CAPABILITY) {
            return Optional.of("PAT needs compute capability >= 6.0, the profile has " + profile.computeCapability() / 10.0);
        }
        if (env.patEnable() == 0) return Optional.of("disabled by NCCL_PAT_ENABLE=0");
        if (in.gpusPerNode() > 1) {
            String why = "PAT needs one rank per node, the communicator has " + in.gpusPerNode() + " per node";
            if (env.patEnable() == 1) {
                throw new TunerException("NCCL_PAT_ENABLE=1 forces PAT, but " + why + " (NCCL connects PAT only when"
                        + " maxLocalRanks == 1); unset it or set 0 or 2");
            }
            return Optional.of(why);
        }
        if (in.op() == CollectiveOp.REDUCE_SCATTER && in.redop() == ReduceOp.AVG) {
            return Optional.of("NCCL runs no PAT reduce_scatter for avg (PreMulSum, SumPostDiv)");
        }
        return Optional.empty();
    }

    /** The bandwidth NCCL's tuner stores for PAT with {@code nc} channels, GB/s (algorithm bandwidth, unconverted). */
    static double bandwidthGBs(TuneInput in, int nc) {
        double bw = in.nNodes() <= 2 ? in.intraBwGBs() : in.interBwGBs();
        return nc * bw * BANDWIDTH_FACTOR;
    }

    /** NCCL's PAT latency, µs. */
    static double latencyUs(TuneInput in, CalibrationProfile profile) {
        double interLat = profile.treeLatencies().get(Protocol.SIMPLE).hopLatencyUs(LinkClass.NET) + 2 * in.interLatencyUs();
        int log2Nodes = 31 - Integer.numberOfLeadingZeros(in.nNodes());
        return BASE_LATENCY_US + log2Nodes * (interLat / INTER_LATENCY_DIVISOR) + in.nRanks() * PER_RANK_US;
    }
}
