package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.CollectiveOp;
import io.ccsim.algorithms.DataType;

/** Where a training-step model gets the time of each collective call it makes. */
public interface CollectiveCosts {
    /**
     * One call of {@code op} on nccl-tests size {@code bytes} (all-reduce: the buffer; all-gather: the gathered output;
     * reduce-scatter: the scattered input) of {@code dtype}, summed where it reduces.
     *
     * @throws IllegalArgumentException if the call cannot be made (a size not divisible as the op needs)
     */
    CollectiveCost cost(CollectiveOp op, long bytes, DataType dtype);
}
