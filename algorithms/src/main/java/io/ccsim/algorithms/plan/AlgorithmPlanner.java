package io.ccsim.algorithms.plan;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.CollectiveOp;

/** Compiles calls of one collective with one algorithm into {@link Plan}s. Implementations are stateless. */
interface AlgorithmPlanner {
    /** Registry name, e.g. {@code ring-all_reduce}. */
    String name();

    /** The collective this planner compiles. */
    CollectiveOp op();

    /** The algorithm it implements. */
    Algorithm algorithm();

    /**
     * Compiles {@code call} with {@code options}. {@code call.op()} must equal {@link #op()} and
     * {@code options.algorithm()} {@link #algorithm()}.
     *
     * @throws IllegalArgumentException if the options do not fit the call (ring orders, sizes)
     */
    Plan plan(CollectiveCall call, PlanOptions options);
}
