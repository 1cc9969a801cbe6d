package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A registry of planners (one per collective and algorithm) by (op, algorithm) and by name. Immutable once built;
 * {@link #standard()} holds every algorithm ccsim implements.
 */
public final class Planners {
    private final Map<String, AlgorithmPlanner> byKey;
    private final Map<String, AlgorithmPlanner> byName;

    private Planners(List<AlgorithmPlanner> planners) {
        Map<String, AlgorithmPlanner> k = new LinkedHashMap<>();
        Map<String, AlgorithmPlanner> n = new LinkedHashMap<>();
        for (AlgorithmPlanner p : planners) {
            if (k.put(key(p.op(), p.algorithm()), p) != null) {
                throw new IllegalArgumentException("two planners for " + p.op() + " with " + p.algorithm());
            }
            if (n.put(p.name(), p) != null) throw new IllegalArgumentException("two planners named " + p.name());
        }
        this.byKey = Collections.unmodifiableMap(k);
        this.byName = Collections.unmodifiableMap(n);
    }

    /** A registry of exactly these planners. */
    static Planners of(List<AlgorithmPlanner> planners) {
        return new Planners(new ArrayList<>(planners));
    }

    /**
     * Ring all_reduce, all_gather, reduce_scatter, broadcast, reduce; tree (double binary tree)
     * all_reduce; P2P sendrecv and all_to_all; NVLS all_reduce, all_gather, reduce_scatter; NVLSTree all_reduce;
     * CollNet Direct all_reduce, all_gather, reduce_scatter; CollNet Chain all_reduce; PAT all_gather,
     * reduce_scatter; NCCL's symmetric kernels AllReduce_AGxLL_R, AllReduce_RSxLD_AGxST, AllReduce_RSxLDMC_AGxSTMC,
     * AllGather_ST, AllGather_STMC, ReduceScatter_LD, ReduceScatter_LDMC, AllReduce_AGxLLMC_R, AllGather_LL,
     * AllGather_LLMC, ReduceScatter_LL; PyTorch's symmetric-memory one-shot and two-shot all_reduce.
     */
    public static Planners standard() {
        return of(List.of(new RingAllReducePlanner(), new RingAllGatherPlanner(), new RingReduceScatterPlanner(),
                new RingBroadcastPlanner(), new RingReducePlanner(), new TreeAllReducePlanner(),
                new SendRecvPlanner(), new AllToAllPlanner(), new NvlsPlanner(CollectiveOp.ALL_REDUCE),
                new NvlsPlanner(CollectiveOp.ALL_GATHER), new NvlsPlanner(CollectiveOp.REDUCE_SCATTER),
                new NvlsTreePlanner(), new CollNetDirectPlanner(CollectiveOp.ALL_REDUCE),
                new CollNetDirectPlanner(CollectiveOp.ALL_GATHER), new CollNetDirectPlanner(CollectiveOp.REDUCE_SCATTER),
                new CollNetChainPlanner(),
                new PatPlanner(CollectiveOp.ALL_GATHER), new PatPlanner(CollectiveOp.REDUCE_SCATTER),
                new SymmetricPlanner(Algorithm.SYM_AR_ONE_SHOT), new SymmetricPlanner(Algorithm.SYM_AR_TWO_SHOT),
                new SymmetricPlanner(Algorithm.SYM_AR_MULTIMEM), new SymmetricPlanner(Algorithm.SYM_AG_ST),
                new SymmetricPlanner(Algorithm.SYM_AG_STMC), new SymmetricPlanner(Algorithm.SYM_RS_LD),
                new SymmetricPlanner(Algorithm.SYM_RS_LDMC), new SymmetricPlanner(Algorithm.SYM_AR_ONE_SHOT_MC),
                new SymmetricPlanner(Algorithm.SYM_AG_LL), new SymmetricPlanner(Algorithm.SYM_AG_LLMC),
                new SymmetricPlanner(Algorithm.SYM_RS_LL), new TorchSymmPlanner(Algorithm.TORCH_ONE_SHOT),
                new TorchSymmPlanner(Algorithm.TORCH_TWO_SHOT)));
    }

    private static String key(CollectiveOp op, Algorithm a) {
        return op.name() + "/" + a.name();
    }

    /** All registered planners in registration order. */
    List<AlgorithmPlanner> all() { return List.copyOf(byKey.values()); }

    /** The algorithms registered for {@code op}, in registration order. */
    public List<Algorithm> supported(CollectiveOp op) {
        return byKey.values().stream().filter(p -> p.op() == op).map(AlgorithmPlanner::algorithm)
                .collect(Collectors.toList());
    }

    /**
     * The algorithms registered for {@code op} whose plans ccsim's GPU kernels run: all but those with switch actors
     * (NVLS needs NVLink multicast, CollNet a SHARP network, which the GPU backend never uses) and PAT (its steps read
     * operands back from the output, which ccsim's kernels do not implement) and the symmetric kernels, NCCL's and
     * PyTorch's (one-sided loads and stores, which the kernel encoding has no step for).
     */
    public List<Algorithm> supportedOnKernels(CollectiveOp op) {
        return supported(op).stream().filter(a -> a != Algorithm.NVLS && a != Algorithm.NVLS_TREE
                && a != Algorithm.COLLNET_DIRECT && a != Algorithm.COLLNET_CHAIN && a != Algorithm.PAT
                && !a.isSymmetric())
                .collect(Collectors.toList());
    }

    /** The planner for (op, algorithm). @throws UnsupportedAlgorithmException naming what {@code op} supports */
    AlgorithmPlanner planner(CollectiveOp op, Algorithm algorithm) {
        AlgorithmPlanner p = byKey.get(key(op, algorithm));
        if (p == null) {
            throw new UnsupportedAlgorithmException("algorithm " + algorithm.ncclName() + " is not supported for "
                    + op.cliName() + "; supported: " + supported(op).stream().map(Algorithm::ncclName)
                    .collect(Collectors.joining(", ")));
        }
        return p;
    }

    /** The planner registered under {@code name}. */
    AlgorithmPlanner byName(String name) {
        AlgorithmPlanner p = byName.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown planner '" + name + "'; valid: " + String.join(", ", byName.keySet()));
        }
        return p;
    }

    /** Compiles {@code call} with the planner for (call.op, options.algorithm). */
    public Plan plan(CollectiveCall call, PlanOptions options) {
        return planner(call.op(), options.algorithm()).plan(call, options);
    }
}
