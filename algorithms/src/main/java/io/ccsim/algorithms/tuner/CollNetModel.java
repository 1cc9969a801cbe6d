package io.ccsim.algorithms.tuner;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.plan.CollNetSupport;
import io.ccsim.algorithms.profile.CalibrationProfile;
import io.ccsim.algorithms.profile.LinkClass;

import java.util.Optional;

/**
 * NCCL's cost model, enable rules and channel choice for CollNetDirect (all-reduce, all-gather, reduce-scatter) and
 * CollNetChain (all-reduce) (NVIDIA/nccl v2.28.9, src/graph/tuning.cc ncclTopoTuneModel and ncclTopoGetAlgoTime;
 * src/enqueue.cc updateCollCostTable, getCollNetSupport and topoGetAlgoInfo; src/init.cc).
 */
final class CollNetModel {
    /*
     * Enable rules, in NCCL's order: NCCL_COLLNET_ENABLE = 1 (default 0; init.cc); a CollNet plugin with collnet-capable
     * NICs (ccsim: SHARP switches, CollNetGraph); nNodes >= NCCL_COLLNET_NODE_THRESHOLD = 2; maxLocalRanks <= 8
     * (NCCL_MAX_DIRECT_ARITY + 1, updateCollCostTable); the plugin's (op, type) support with avg asked as sum for
     * all-reduce and reduce-scatter, none for all-gather (getCollNetSupport, CollNetSupport); Simple only (tuning.cc:
     * busBw 0 for LL and LL128); CollNetDirect needs an NVSwitch (ncclTopoGetNvsCount). All-gather and reduce-scatter
     * also need the plugin's iallgather / ireducescatter (the SHARP plugin has both from its collnet v8 API on;
     * ccsim's SHARP network stands for that plugin) and every node's localRanks <= collNetHeadsNum ("disable collnet
     * for allgather/reducescatter if #localranks > #heads", "AllGather/ReduceScatter requires 1:1 GPU:NIC"); heads
     * are the NICs' local GPUs (coll_net.cc ncclCollNetSetup: the CollNetDirect graph's, or the NVLS graph's, which
     * has the same heads), so 4 NICs for 8 GPUs turn them off.
     *
     * Model, graph values (nCh, bw = bwIntra: CollNet reads bwIntra on any node count; CollNetDirect's bwInter =
     * bwIntra, the search speed), ppn = nRanks / nNodes:
     *   Direct all-reduce busBw = nCh × bw / f, f = ppn/nCh − (ppn/nCh − 1)/2 ("Collnet+Direct requires all GPUs to
     *          have a local NIC to work at full speed"), × 0.85 on compute capability >= 90; Chain busBw = nCh × bw;
     *          both × 0.5 (bus → algorithm bandwidth)
     *   Direct all-gather, reduce-scatter busBw = ppn × min(bwIntra, 0.9 × bwInter), not converted: their nBytes is
     *          the whole n × count buffer
     *   Direct latency = 2 (min(1, ppn − 1) × 3.7 + (ppn − 1) × 0.4) + interLat   ("0.4 us arity serialization")
     *   Chain latency  = 2 (ppn − 1) × 2.8 + interLat
     *   interLat = hwLat[NET][a][Simple] (Direct 31, Chain 30 µs; Tree's 14 when ppn = 1) + 2 × the NIC latency
     *   (baseLat 0; hwLat NVLink and PCI rows equal: Direct 3.7, Chain 2.8). time = latency + nBytes / (1000 × bw).
     * Channels (topoGetAlgoInfo): Direct starts from the communicator's channels and, for ncSwitch = 16, 8, 4, 2, 1,
     * drops one while nBytes < nc × 640 threads × nHeads × threshold and nc > ncSwitch, halving the threshold (512)
     * when nc reaches 1.5 × ncSwitch; Chain drops one while nBytes < nc × 640 × 512.
     * 4 × HGX H100 with 8 NDR NICs (graphs 8 × 48 GB/s): all-reduce Direct 163.2 GB/s, 44 µs; Chain 192 GB/s, 69.2 µs;
     * all-gather and reduce-scatter Direct 8 × min(48, 43.2) = 345.6 GB/s, 44 µs. With 4 NICs (Direct 8 × 24, the
     * search's 4 × 48 duplicated): all-reduce Direct 8 × 24 / 1 × 0.85 × 0.5 = 81.6 GB/s; all-gather, reduce-scatter off.
     */
    private CollNetModel() { }

    /** hwLat[NVLINK or PCI][a][Simple] (tuning.cc), µs. */
    static final double DIRECT_INTRA_US = 3.7, CHAIN_INTRA_US = 2.8;
    /** hwLat[NET][a][Simple] (tuning.cc), µs. */
    static final double DIRECT_NET_US = 31, CHAIN_NET_US = 30;
    /** The arity serialization latency per local rank of CollNetDirect (tuning.cc), µs. */
    static final double ARITY_US = 0.4;
    /** NCCL_MAX_NTHREADS (CollNet's maxThreads for Simple) and its thread threshold (tuning.cc). */
    static final int NTHREADS = 640, THREAD_THRESHOLD = 512;

    /** Why algorithm {@code a} (CollNetDirect or CollNetChain) is not a candidate for {@code in} under {@code env}. */
    static Optional<String> refusal(TuneInput in, NcclEnv env, Algorithm a) {
        if (!env.collNetEnable()) return Optional.of("disabled: NCCL_COLLNET_ENABLE is not 1 (NCCL's default 0)");
        boolean allReduce = in.op() == CollectiveOp.ALL_REDUCE;
        if (!allReduce && (a != Algorithm.COLLNET_DIRECT || in.op() != CollectiveOp.ALL_GATHER
                && in.op() != CollectiveOp.REDUCE_SCATTER)) {
            return Optional.of(a.ncclName() + " does not run " + in.op().cliName());
        }
        if (!in.collNet().available()) return in.collNet().refusal();
        if (in.nNodes() < CollNetSupport.NODE_THRESHOLD) {
            return Optional.of("CollNet needs at least " + CollNetSupport.NODE_THRESHOLD + " nodes (NCCL_COLLNET_NODE_THRESHOLD)");
        }
        if (in.gpusPerNode() > CollNetSupport.MAX_LOCAL_RANKS) {
            return Optional.of("CollNet runs with at most " + CollNetSupport.MAX_LOCAL_RANKS + " ranks per node, got "
                    + in.gpusPerNode());
        }
        if (in.op() != CollectiveOp.ALL_GATHER) { // getCollNetSupport asks the plugin's matrix for reductions only
            Optional<String> data = CollNetSupport.refusal(in.dtype(), in.redop());
            if (data.isPresent()) return data;
        }
        if (a == Algorithm.COLLNET_DIRECT && !in.collNet().nvSwitch()) {
            return Optional.of("CollNetDirect needs an NVSwitch in the node (NCCL's nvsCount is 0)");
        }
        if (!allReduce && in.gpusPerNode() > in.collNet().heads()) {
            return Optional.of(CollNetSupport.directOneToOne(in.op(), in.gpusPerNode(), in.collNet().heads()));
        }
        return Optional.empty();
    }

    /** The algorithm bandwidth NCCL's tuner stores for {@code a}, GB/s. */
    static double bandwidthGBs(TuneInput in, Algorithm a, int computeCapability) {
        CollNetGraph g = in.collNet();
        if (a == Algorithm.COLLNET_CHAIN) return g.chainChannels() * g.chainBwGBs() * 0.5;
        if (in.op() != CollectiveOp.ALL_REDUCE) { // bwIntra = bwInter on the CollNetDirect graph
            return in.gpusPerNode() * Math.min(g.directBwGBs(), g.directBwGBs() * 0.9);
        }
        double busBw = g.directChannels() * g.directBwGBs();
        double factor = (double) in.nRanks() / in.nNodes() / g.directChannels();
        factor -= (factor - 1) / 2;
        busBw /= factor;
        if (computeCapability >= 90) busBw *= 0.85;
        return busBw * 0.5;
    }

    /** NCCL's latency for {@code a}, µs. */
    static double latencyUs(TuneInput in, Algorithm a, CalibrationProfile profile) {
        int ppn = in.nRanks() / in.nNodes();
        boolean direct = a == Algorithm.COLLNET_DIRECT;
        double net = ppn == 1 ? profile.treeLatencies().get(io.ccsim.algorithms.Protocol.SIMPLE).hopLatencyUs(LinkClass.NET)
                : direct ? DIRECT_NET_US : CHAIN_NET_US;
        double interLat = net + 2 * in.interLatencyUs();
        if (direct) return 2 * (Math.min(1, ppn - 1) * DIRECT_INTRA_US + (ppn - 1) * ARITY_US) + interLat;
        return 2 * (ppn - 1) * CHAIN_INTRA_US + interLat;
    }

    /** NCCL's channel count for {@code a} from {@code hi} (the communicator's), never below {@code lo}. */
    static int channels(TuneInput in, Algorithm a, int lo, int hi) {
        long nBytes = in.bytes();
        int nc = hi;
        if (a == Algorithm.COLLNET_CHAIN) {
            while (nBytes < (long) nc * NTHREADS * THREAD_THRESHOLD && nc > lo) nc--;
            return nc;
        }
        long heads = in.collNet().heads();
        long thr = THREAD_THRESHOLD;
        boolean flag = true;
        for (int ncSwitch = 16; ncSwitch >= 1 && flag; ncSwitch /= 2) {
            while ((flag = nBytes < nc * NTHREADS * heads * thr) && nc > Math.max(ncSwitch, lo)) {
                if (nc == ncSwitch + ncSwitch / 2) thr /= 2;
                nc--;
            }
        }
        return nc;
    }
}
