package io.ccsim.algorithms.ddp;

import io.ccsim.algorithms.Algorithm;
import io.ccsim.algorithms.Protocol;

/**
 * The time of one collective call and what ran.
 *
 * @param timePs   launch to completion of the call on every rank, picoseconds, {@code >= 0}
 * @param algo     the algorithm NCCL's choice ran
 * @param proto    its protocol
 * @param channels its channel count
 */
public record CollectiveCost(long timePs, Algorithm algo, Protocol proto, int channels) {
    public CollectiveCost {
        if (timePs < 0) throw new IllegalArgumentException("a collective's time must be >= 0 ps, got " + timePs);
    }
}
