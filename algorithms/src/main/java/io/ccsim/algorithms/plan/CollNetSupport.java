package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;
import io.ccsim.algorithms.Protocol;
import io.ccsim.algorithms.ReduceOp;

import java.util.Optional;

/**
 * Which reductions and element types NCCL's CollNet runs over a SHARP network, and the layout rules of its planners.
 * An all-gather reduces nothing: NCCL asks the plugin's matrix for all-reduce, reduce and reduce-scatter only
 * (getCollNetSupport).
 *
 * <p>NVIDIA/nccl v2.28.9 {@code src/enqueue.cc getCollNetSupport}: collNetSupport = NCCL_COLLNET_ENABLE AND the CollNet
 * plugin's support matrix for (op, type), with avg (SumPostDiv, PreMulSum) asked as sum — the GPUs apply the pre- and
 * post-operator, the network sums. The matrix comes from the plugin ({@code src/transport/coll_net.cc}: a pair is
 * supported if the heads' plugin says so). The SHARP plugin (Mellanox/nccl-rdma-sharp-plugins {@code
 * src/sharp_plugin.c} typeConvert and opConvert) reduces sum, max and min of half, int32, uint32, float, int64,
 * uint64 and double, and with SHARPv3 data types (Quantum-2 switches, {@code NCCL_SHARP_V3_DATATYPES} default 2 =
 * when the switches report them) also bfloat16, int8 and uint8; never product, never fp8. ccsim's SHARP switches are
 * Quantum-2 (SHARPv3), so all ten types go.
 */
public final class CollNetSupport {
    private CollNetSupport() { }

    /** NCCL_COLLNET_NODE_THRESHOLD default (src/init.cc): CollNet needs at least this many nodes. */
    public static final int NODE_THRESHOLD = 2;
    /** NCCL_MAX_DIRECT_ARITY + 1 (src/include/device.h): CollNet runs with at most this many ranks per node. */
    public static final int MAX_LOCAL_RANKS = 8;

    /** Why NCCL's SHARP plugin would not reduce {@code redop} of {@code dtype}, or empty if it would. */
    public static Optional<String> refusal(DataType dtype, ReduceOp redop) {
        boolean op = redop == ReduceOp.SUM || redop == ReduceOp.MIN || redop == ReduceOp.MAX || redop == ReduceOp.AVG;
        boolean type = dtype != DataType.FP8_E4M3 && dtype != DataType.FP8_E5M2;
        if (op && type) return Optional.empty();
        return Optional.of("CollNet (SHARP) cannot reduce " + redop.ncclTestsName() + " of " + dtype.ncclTestsName()
                + " (the SHARP plugin reduces sum, min and max, avg as a sum, of 8-, 32- and 64-bit integers, half,"
                + " bfloat16, float and double; no product, no fp8)");
    }

    /**
     * Why a CollNet plan cannot be built for {@code layout}, or empty: at least {@link #NODE_THRESHOLD} hosts, the
     * same number of ranks on each, at most {@link #MAX_LOCAL_RANKS} of them (NVIDIA/nccl v2.28.9 init.cc,
     * enqueue.cc updateCollCostTable).
     */
    static Optional<String> layoutRefusal(CommLayout layout) {
        int[][] byHost = layout.ranksByHost();
        if (byHost.length < NODE_THRESHOLD) {
            return Optional.of("CollNet needs at least " + NODE_THRESHOLD + " hosts (NCCL_COLLNET_NODE_THRESHOLD), got "
                    + byHost.length);
        }
        int ppn = byHost[0].length;
        for (int[] h : byHost) {
            if (h.length != ppn) {
                return Optional.of("CollNet needs the same number of ranks on every host, got " + ppn + " and " + h.length);
            }
        }
        if (ppn > MAX_LOCAL_RANKS) {
            return Optional.of("CollNet runs with at most " + MAX_LOCAL_RANKS + " ranks per host (NCCL_MAX_DIRECT_ARITY"
                    + " + 1), got " + ppn);
        }
        return Optional.empty();
    }

    /**
     * Refuses a CollNet plan NCCL would not build, with NCCL's reason: another protocol than Simple (NCCL builds
     * CollNet kernels for Simple only, src/device/generate.py; tuning.cc gives the others no bandwidth), a reduction
     * or type the SHARP plugin cannot reduce (all-reduce and reduce-scatter; an all-gather reduces nothing,
     * enqueue.cc getCollNetSupport), a layout {@link #layoutRefusal} refuses, or heads that {@link #headsRefusal}
     * refuses.
     *
     * @throws UnsupportedAlgorithmException naming the reason
     */
    static void checkPlan(Algorithm a, CollectiveCall call, PlanOptions o) {
        if (o.protocol() != Protocol.SIMPLE) {
            throw new UnsupportedAlgorithmException(a.ncclName() + " runs the Simple protocol only, not "
                    + o.protocol().ncclName() + " (NCCL builds CollNet kernels for Simple alone)");
        }
        Optional<String> r = call.op() == CollectiveOp.ALL_GATHER ? Optional.empty() : refusal(call.dtype(), call.redop());
        if (r.isEmpty()) r = layoutRefusal(call.layout());
        if (r.isEmpty() && a == Algorithm.COLLNET_DIRECT) r = headsRefusal(call.op(), call.layout(), o.netHeads());
        if (r.isPresent()) throw new UnsupportedAlgorithmException(r.get());
    }

    /**
     * Why CollNet Direct cannot run {@code op} with {@code heads} (local indices, null for every GPU) on {@code layout},
     * or empty: every head must be a local index of the hosts; all-gather and reduce-scatter need a head per GPU
     * (NVIDIA/nccl v2.28.9 tuning.cc: "disable collnet for allgather/reducescatter if #localranks > #heads",
     * "AllGather/ReduceScatter requires 1:1 GPU:NIC").
     */
    static Optional<String> headsRefusal(CollectiveOp op, CommLayout layout, int[] heads) {
        int ppn = layout.ranksByHost()[0].length;
        if (heads == null) return Optional.empty();
        if (heads[heads.length - 1] >= ppn) {
            return Optional.of("CollNet head local index " + heads[heads.length - 1] + " is not a GPU of a host of " + ppn
                    + " ranks; valid: 0.." + (ppn - 1));
        }
        if (op != CollectiveOp.ALL_REDUCE && heads.length < ppn) {
            return Optional.of(directOneToOne(op, ppn, heads.length));
        }
        return Optional.empty();
    }

    /** NCCL's reason for turning CollNet Direct all-gather and reduce-scatter off with fewer heads than GPUs per node. */
    public static String directOneToOne(CollectiveOp op, int localRanks, int heads) {
        return "CollNetDirect " + op.cliName() + " needs a NIC per GPU (NCCL: \"AllGather/ReduceScatter requires 1:1"
                + " GPU:NIC\"): " + localRanks + " ranks per node, " + heads + " CollNet heads";
    }
}
